/* device: the one interface through which the host layer drives a backend,
 * private to host/.  Each backend is adapted to it in a file of its own
 * (dev_emu.c: the emulator, emu.h; dev_cuda.c: a GPU, backend.h), so that
 * neither backend knows the host layer or the other.  Every operation
 * returns GR_OK or a GR_E* status with its message in the error buffer the
 * device was opened with. */
#ifndef GR_HOST_DEVICE_H
#define GR_HOST_DEVICE_H

#include <stddef.h>

#include "gpurace.h"
#include "kir.h"

typedef struct host_device_ops {
  void (*close)(void *dev);
  const char *(*describe)(const void *dev);
  int (*malloc)(void *dev, size_t bytes, const char *name, gr_ptr *out);
  int (*free)(void *dev, gr_ptr p);
  int (*htod)(void *dev, gr_ptr dst, const void *src, size_t n);
  int (*dtoh)(void *dev, void *dst, gr_ptr src, size_t n);
  int (*memset)(void *dev, gr_ptr dst, int v, size_t n);
  /* The module km, compiled from path with defines where the device
   * compiles kernel files itself; the addresses of its __device__ variables
   * go to gaddr.  km, path and gaddr outlive the device's module. */
  int (*module_load)(void *dev, const kir_module *km, const char *path, const char *const *defines, int ndefines,
                     gr_ptr *gaddr, void **out);
  void (*module_free)(void *mod);
  /* Kernel km->funcs[kernel], its arguments converted (args: each value in
   * its parameter's type; argdata: a struct parameter's bytes, else NULL);
   * flags: GR_LAUNCH_*. */
  int (*launch)(void *dev, void *mod, int kernel, gr_dim3 grid, gr_dim3 block, size_t dyn_shared, unsigned flags,
                const uint64_t *args, const void *const *argdata);
  void (*stats)(const void *dev, gr_stats *out);
} host_device_ops;

/* The backends.  Each opens its device for cfg, or fails with the reason
 * in err (then *dev is NULL). */
int dev_emu_open(const gr_config *cfg, char *err, size_t errlen, const host_device_ops **ops, void **dev);
int dev_cuda_open(const gr_config *cfg, char *err, size_t errlen, const host_device_ops **ops, void **dev);

#endif
