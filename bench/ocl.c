/* make bench's OpenCL runner (ocl.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpurace.h"
#include "ocl.h"

#ifndef GR_HAVE_OPENCL

ocl *ocl_open(char *err, size_t errlen) {
  snprintf(err, errlen, "built without OpenCL (apt-get install pocl-opencl-icd ocl-icd-opencl-dev, then ./configure)");
  return NULL;
}
void ocl_close(ocl *o) { (void)o; }
const char *ocl_describe(const ocl *o) { (void)o; return "none"; }
int ocl_run(ocl *o, const char *path, const char *name, ocl_buf *bufs, int nbufs, const int *scalars, int nscalars,
            int dims, const size_t *global, const size_t *local, int reps, double *best, char *err, size_t errlen) {
  (void)o, (void)path, (void)name, (void)bufs, (void)nbufs, (void)scalars, (void)nscalars, (void)dims, (void)global,
      (void)local, (void)reps, (void)best;
  snprintf(err, errlen, "built without OpenCL");
  return -1;
}

#else

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

struct ocl {
  cl_context ctx;
  cl_command_queue q;
  cl_device_id dev;
  char desc[512];
};

static int fail(char *err, size_t n, const char *what, cl_int rc) {
  snprintf(err, n, "OpenCL: %s failed (error %d)", what, (int)rc);
  return -1;
}

ocl *ocl_open(char *err, size_t errlen) {
  cl_platform_id plats[16];
  cl_uint np = 0;
  cl_int rc = clGetPlatformIDs(16, plats, &np);
  if (rc != CL_SUCCESS || np == 0) {
    snprintf(err, errlen, "no OpenCL platform (error %d; apt-get install pocl-opencl-icd)", (int)rc);
    return NULL;
  }
  cl_uint pick = 0;
  char name[256];
  for (cl_uint k = 0; k < np; k++)
    if (clGetPlatformInfo(plats[k], CL_PLATFORM_NAME, sizeof name, name, NULL) == CL_SUCCESS && strstr(name, "Portable")) {
      pick = k;
      break;
    }
  ocl *o = calloc(1, sizeof *o);
  if (!o) { snprintf(err, errlen, "out of memory"); return NULL; }
  cl_uint nd = 0;
  rc = clGetDeviceIDs(plats[pick], CL_DEVICE_TYPE_ALL, 1, &o->dev, &nd);
  if (rc != CL_SUCCESS || nd == 0) { fail(err, errlen, "clGetDeviceIDs", rc); free(o); return NULL; }
  o->ctx = clCreateContext(NULL, 1, &o->dev, NULL, NULL, &rc);
  if (rc != CL_SUCCESS) { fail(err, errlen, "clCreateContext", rc); free(o); return NULL; }
  o->q = clCreateCommandQueueWithProperties(o->ctx, o->dev, NULL, &rc);
  if (rc != CL_SUCCESS) { fail(err, errlen, "clCreateCommandQueue", rc); clReleaseContext(o->ctx); free(o); return NULL; }
  char pv[128] = "", dn[256] = "";
  clGetPlatformInfo(plats[pick], CL_PLATFORM_VERSION, sizeof pv, pv, NULL);
  clGetDeviceInfo(o->dev, CL_DEVICE_NAME, sizeof dn, dn, NULL);
  snprintf(o->desc, sizeof o->desc, "%s, %s", pv, dn);
  return o;
}

void ocl_close(ocl *o) {
  if (!o) return;
  clReleaseCommandQueue(o->q);
  clReleaseContext(o->ctx);
  free(o);
}

const char *ocl_describe(const ocl *o) { return o->desc; }

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *b = malloc(cap);
  size_t r;
  while (b && (r = fread(b + n, 1, cap - n - 1, f)) > 0) {
    n += r;
    if (n + 1 == cap) {
      char *nb = realloc(b, cap *= 2);
      if (!nb) { free(b); b = NULL; }
      else b = nb;
    }
  }
  fclose(f);
  if (b) b[n] = 0;
  *len = n;
  return b;
}

int ocl_run(ocl *o, const char *path, const char *name, ocl_buf *bufs, int nbufs, const int *scalars, int nscalars,
            int dims, const size_t *global, const size_t *local, int reps, double *best, char *err, size_t errlen) {
  size_t len;
  char *src = slurp(path, &len);
  if (!src) { snprintf(err, errlen, "%s: cannot read", path); return -1; }
  cl_int rc;
  const char *srcs[1] = {src};
  cl_program prog = clCreateProgramWithSource(o->ctx, 1, srcs, &len, &rc);
  free(src);
  if (rc != CL_SUCCESS) return fail(err, errlen, "clCreateProgramWithSource", rc);
  int ret = -1;
  cl_kernel k = NULL;
  cl_mem mem[8] = {0};
  if (nbufs > 8) { snprintf(err, errlen, "too many buffers"); goto out; }
  rc = clBuildProgram(prog, 1, &o->dev, "-cl-std=CL1.2", NULL, NULL);
  if (rc != CL_SUCCESS) {
    char log[2048] = "";
    clGetProgramBuildInfo(prog, o->dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    snprintf(err, errlen, "%s: OpenCL build failed (error %d): %.1500s", path, (int)rc, log);
    goto out;
  }
  k = clCreateKernel(prog, name, &rc);
  if (rc != CL_SUCCESS) { fail(err, errlen, "clCreateKernel", rc); goto out; }
  for (int j = 0; j < nbufs; j++) {
    mem[j] = clCreateBuffer(o->ctx, CL_MEM_READ_WRITE, bufs[j].bytes, NULL, &rc);
    if (rc != CL_SUCCESS) { fail(err, errlen, "clCreateBuffer", rc); goto out; }
    if ((rc = clSetKernelArg(k, (cl_uint)j, sizeof(cl_mem), &mem[j])) != CL_SUCCESS) { fail(err, errlen, "clSetKernelArg", rc); goto out; }
  }
  for (int j = 0; j < nscalars; j++)
    if ((rc = clSetKernelArg(k, (cl_uint)(nbufs + j), sizeof(int), &scalars[j])) != CL_SUCCESS) { fail(err, errlen, "clSetKernelArg", rc); goto out; }
  *best = 1e30;
  for (int r = -1; r < reps; r++) {
    for (int j = 0; j < nbufs; j++)
      if ((rc = clEnqueueWriteBuffer(o->q, mem[j], CL_TRUE, 0, bufs[j].bytes, bufs[j].host, 0, NULL, NULL)) != CL_SUCCESS) {
        fail(err, errlen, "clEnqueueWriteBuffer", rc);
        goto out;
      }
    clFinish(o->q);
    double t0 = gr_now();
    rc = clEnqueueNDRangeKernel(o->q, k, (cl_uint)dims, NULL, global, local, 0, NULL, NULL);
    if (rc == CL_SUCCESS) rc = clFinish(o->q);
    double t = gr_now() - t0;
    if (rc != CL_SUCCESS) { fail(err, errlen, "clEnqueueNDRangeKernel", rc); goto out; }
    if (r >= 0 && t < *best) *best = t;
  }
  for (int j = 0; j < nbufs; j++)
    if (bufs[j].out && (rc = clEnqueueReadBuffer(o->q, mem[j], CL_TRUE, 0, bufs[j].bytes, bufs[j].host, 0, NULL, NULL)) != CL_SUCCESS) {
      fail(err, errlen, "clEnqueueReadBuffer", rc);
      goto out;
    }
  ret = 0;
out:
  for (int j = 0; j < nbufs && j < 8; j++)
    if (mem[j]) clReleaseMemObject(mem[j]);
  if (k) clReleaseKernel(k);
  clReleaseProgram(prog);
  return ret;
}

#endif
