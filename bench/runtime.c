/* bench runtime: what gpurace's CUDA runtime (rt/) adds to a launch.  The
 * program bench/programs/launches.cu, built with nvcc -cudart shared, runs
 * N launches of one kernel under `gpurace exec`; the same PTX (read from the
 * program's fatbinary) runs the same N launches through the library's
 * gr_launch, as `gpurace run` launches; both loops are timed alone (the
 * module's lowering and the process's start are outside them), the best of
 * three, in this one run.  Skipped, and said so, without nvcc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fatbin.h"
#include "gpurace.h"
#include "runtime.h"

static double exec_loop(const char *gpurace, const char *prog, int reps, int blocks, double *checksum) {
  char cmd[8400], line[256];
  snprintf(cmd, sizeof cmd, "'%s' exec '%s' %d %d 2>/dev/null", gpurace, prog, reps, blocks);
  FILE *p = popen(cmd, "r");
  double s = -1, sum = 0;
  char status[64];
  if (p && fgets(line, sizeof line, p) && sscanf(line, "seconds %lf checksum %lf %63s", &s, &sum, status) == 3 &&
      strcmp(status, "cudaSuccess")) s = -1;
  if (p) pclose(p);
  *checksum = sum;
  return s;
}

/* The same launches through the library: axpy(y, x, 0.5, n) on y = x = i % 17. */
static double library_loop(const char *ptx_path, int reps, int blocks, double *checksum) {
  gr_config cfg;
  gr_config_default(&cfg);
  gr_context *ctx = gr_context_create(&cfg);
  gr_module *m;
  double best = -1;
  if (gr_module_load(ctx, ptx_path, NULL, 0, &m)) { fprintf(stderr, "bench runtime: %s\n", gr_error(ctx)); gr_context_destroy(ctx); return -1; }
  int n = blocks * 256;
  float *h = malloc(sizeof(float) * (size_t)n);
  for (int i = 0; i < n; i++) h[i] = (float)(i % 17);
  gr_ptr x, y;
  gr_malloc(ctx, sizeof(float) * (size_t)n, "x", &x);
  gr_malloc(ctx, sizeof(float) * (size_t)n, "y", &y);
  gr_memcpy_htod(ctx, x, h, sizeof(float) * (size_t)n);
  gr_memcpy_htod(ctx, y, h, sizeof(float) * (size_t)n);
  gr_arg args[] = {gr_arg_ptr(y), gr_arg_ptr(x), gr_arg_f32(0.5f), gr_arg_i32(n)};
  gr_dim3 g = {(unsigned)blocks, 1, 1}, b = {256, 1, 1};
  int rc = gr_launch(m, "axpy", g, b, 0, args, 4);   /* as the program's first, untimed launch */
  double t0 = gr_now();
  for (int r = 0; r < reps && rc == GR_OK; r++) rc = gr_launch(m, "axpy", g, b, 0, args, 4);
  if (rc == GR_OK) best = gr_now() - t0;
  else fprintf(stderr, "bench runtime: %s\n", gr_error(ctx));
  gr_memcpy_dtoh(ctx, h, y, sizeof(float) * (size_t)n);
  double sum = 0;
  for (int i = 0; i < n; i++) sum += h[i];
  *checksum = sum;
  free(h);
  gr_context_destroy(ctx);
  return best;
}

int runtime_bench(const char *src, const char *build) {
  printf("\ngpurace's CUDA runtime (issue 41): the same launches under `gpurace exec` and through the library's\n"
         "gr_launch as `gpurace run` launches, the same PTX, the launch loops alone, the best of 3, measured in this run\n");
  char prog[4096], ptx[4096], cmd[8192], gpurace[4096];
  snprintf(prog, sizeof prog, "%s/bench/launches", build);
  snprintf(ptx, sizeof ptx, "%s/bench/launches.ptx", build);
  snprintf(gpurace, sizeof gpurace, "%s/gpurace", build);
  snprintf(cmd, sizeof cmd, "GR_BUILDDIR='%s' '%s/scripts/nvcc.sh' -cudart shared -o '%s' '%s/bench/programs/launches.cu' >/dev/null 2>&1",
           build, src, prog, src);
  if (system(cmd) != 0) { printf("skipped: no nvcc to build bench/programs/launches.cu (scripts/nvcc.sh)\n"); return 0; }
  /* the PTX the runtime runs, read from the program as the runtime reads it */
  uint8_t *data;
  size_t len;
  int shared;
  char err[512];
  if (fatbin_read_program(prog, &data, &len, &shared, NULL, err, sizeof err) || !data) { printf("error: %s\n", err); return 1; }
  size_t tl;
  char *text = fatbin_ptx(data, len, 100000, &tl, NULL, err, sizeof err);
  free(data);
  if (!text) { printf("error: %s\n", err); return 1; }
  FILE *f = fopen(ptx, "w");
  if (!f) { free(text); return 1; }
  fwrite(text, 1, tl, f);
  fclose(f);
  free(text);
  static const struct { const char *name; int reps, blocks; } cases[] = {
    {"1000 launches of 1 block x 256", 1000, 1},
    {"100 launches of 64 x 256", 100, 64},
    {"10 launches of 1024 x 256", 10, 1024},
  };
  printf("%-32s %14s %14s %14s %10s\n", "program", "exec (s)", "library (s)", "per launch", "exec/lib");
  int bad = 0;
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    double be = 1e30, bl = 1e30, se = 0, sl = 0;
    for (int rep = 0; rep < 3; rep++) {
      double te = exec_loop(gpurace, prog, cases[c].reps, cases[c].blocks, &se);
      double tlib = library_loop(ptx, cases[c].reps, cases[c].blocks, &sl);
      if (te < 0 || tlib < 0) { be = -1; break; }
      if (te < be) be = te;
      if (tlib < bl) bl = tlib;
    }
    if (be < 0) { printf("%-32s error\n", cases[c].name); bad = 1; continue; }
    if (se != sl) { printf("%-32s results differ: checksum %.1f under exec, %.1f through the library\n", cases[c].name, se, sl); bad = 1; continue; }
    printf("%-32s %14.6f %14.6f %11.2f us %9.3fx\n", cases[c].name, be, bl, be / cases[c].reps * 1e6, be / bl);
  }
  printf("exec/lib = what the runtime adds: argument reading, mirrors, the call's lock (goal: under 1.10x)\n");
  return bad;
}
