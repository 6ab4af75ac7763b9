/* context: a context and a module as the host layer holds them, private to
 * host/ (gpurace.h declares them opaque).  A context owns its device,
 * reached through host_device_ops, and the modules' KIR. */
#ifndef GR_HOST_CONTEXT_H
#define GR_HOST_CONTEXT_H

#include "device.h"
#include "emu.h"
#include "gpurace.h"
#include "kir.h"
#include "util.h"

struct gr_module {
  gr_context *ctx;
  kir_module *km;
  gr_ptr *gaddr;      /* device address of each module global */
  char *path;
  void *dm;           /* the device's module */
  const char *front;  /* the front end that read it: subset, nvrtc, nvcc or ptx */
  char *front_why;    /* --cc auto passed the subset by: what it said (malloc'd), else NULL */
};

#define HOST_ERR_MAX 1024

struct gr_context {
  gr_config cfg;
  char err[HOST_ERR_MAX];
  const host_device_ops *ops;
  void *dev;          /* NULL where the backend could not start */
  emu_dev *emu;       /* dev, on the emulator; NULL on a GPU */
  int backend_rc;     /* the backend could not start: every call fails with backend_err */
  char backend_err[HOST_ERR_MAX];
  vec modules;        /* gr_module * */
  gr_stats stats;     /* of the last launch */
};

#endif
