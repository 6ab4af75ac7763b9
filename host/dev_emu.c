/* dev_emu: the emulator (emu.h) as the host layer's device. */
#include "device.h"
#include "emu.h"

static void e_close(void *d) { emu_free(d); }
static const char *e_describe(const void *d) { (void)d; return "emulator"; }
static int e_malloc(void *d, size_t bytes, const char *name, gr_ptr *out) { return emu_malloc(d, bytes, name, out); }
static int e_free(void *d, gr_ptr p) { return emu_free_ptr(d, p); }
static int e_htod(void *d, gr_ptr dst, const void *src, size_t n) { return emu_htod(d, dst, src, n); }
static int e_dtoh(void *d, void *dst, gr_ptr src, size_t n) { return emu_dtoh(d, dst, src, n); }
static int e_memset(void *d, gr_ptr dst, int v, size_t n) { return emu_memset(d, dst, v, n); }
static void e_stats(const void *d, gr_stats *out) { emu_stats(d, out); }
static void e_module_free(void *m) { emu_module_free(m); }

static int e_module_load(void *d, const kir_module *km, const char *path, const char *const *defines, int ndefines,
                         gr_ptr *gaddr, void **out) {
  (void)defines, (void)ndefines;   /* the emulator runs the KIR it is given */
  emu_module *m = NULL;
  int rc = emu_module_load(d, km, path, gaddr, &m);
  *out = m;
  return rc;
}

/* The emulator's module knows its KIR: kernel is an index into it. */
static int e_launch(void *d, void *m, int kernel, gr_dim3 grid, gr_dim3 block, size_t dyn_shared, unsigned flags,
                    const uint64_t *args, const void *const *argdata) {
  (void)d;
  return emu_launch(m, emu_module_kir(m)->funcs[kernel], grid, block, dyn_shared, flags, args, argdata);
}

static const host_device_ops emu_ops = {e_close, e_describe, e_malloc, e_free, e_htod, e_dtoh, e_memset,
                                        e_module_load, e_module_free, e_launch, e_stats};

int dev_emu_open(const gr_config *cfg, char *err, size_t errlen, const host_device_ops **ops, void **dev) {
  *ops = &emu_ops;
  *dev = emu_new(cfg, err, errlen);
  return GR_OK;
}
