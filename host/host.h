/* host: the host layer's face to the folders above it (detectors, tools,
 * the CLI), beside the installed API it implements (gpurace.h).  Not
 * installed.
 *
 * The host layer owns contexts, modules, buffers and launches, and
 * chooses the backend that runs them (the emulator, emu/, or a GPU, cuda/)
 * through one device interface (device.h); it compiles kernel files with
 * the front ends (front/) or the CUDA compiler, and runs //@ scripts
 * (script.c). */
#ifndef GR_HOST_H
#define GR_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "gpurace.h"
#include "kir.h"

typedef struct emu_dev emu_dev;   /* emu.h (C11 allows the typedef twice) */

/* The context's error: fmt's message, returned as code. */
int host_fail(gr_context *ctx, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The context's emulator, or NULL on a GPU: for tools that drive the
 * emulator beyond the API (the axiomatic checker's trace runs). */
emu_dev *host_emu(gr_context *ctx);
/* A later seed for the context's next launches (sampled litmus runs). */
void host_reseed(gr_context *ctx, uint64_t seed);
/* An allocation's new name (the emulator's), for reports. */
int host_allocation_rename(gr_context *ctx, gr_ptr p, const char *name);
/* A module's KIR. */
const kir_module *host_module_kir(const gr_module *mod);

/* gr_module_load on text the caller has read already (NULL: read the file),
 * so that a kernel file that is a pipe is read once; arch: the oldest
 * architecture the file compiles for (//@ arch sm_NN), 0 for the default. */
int host_module_load_text(gr_context *ctx, const char *path, const char *text, size_t len, const char *const *defines, int ndefines,
                          int arch, gr_module **out);

/* ---------------------------------------------------------------- scripts (script.c) */

/* For the litmus runner: the test's header, and the observed outcome after
 * a run ("r1=1 r2=0"), with whether it is the weak one. */
void script_litmus(const gr_script *s, char *id, size_t idn, char *placement, gr_verdict *v, const char **weak);
int script_outcome(gr_script *s, char *buf, size_t n, int *is_weak);
/* The placement as written: W, B, G or a list bBwW,... (placement 'M'). */
const char *script_placement(const gr_script *s);
/* For the axiomatic checker: where each observed value lives. */
size_t script_nobserves(const gr_script *s);
int script_observed(gr_script *s, size_t k, gr_ptr *addr, int *size);
/* For the hardware litmus harness and the checkers: allocate and
 * initialise every buffer without launching; the buffers in directive
 * order; the launch. */
int script_prepare(gr_script *s);
size_t script_nbuffers(const gr_script *s);
gr_context *script_context(const gr_script *s);
void script_buffer(const gr_script *s, size_t k, const char **name, gr_ptr *ptr, size_t *bytes);
const char *script_launch(const gr_script *s, gr_dim3 *grid, gr_dim3 *block);
size_t script_nargs(const gr_script *s);
/* BabyCUDA's checker: an integer scalar argument's value (1 if found), and
 * the //@ assume lines (the condition's text and its line). */
int script_arg_int(const gr_script *s, const char *name, int64_t *v);
size_t script_nassume(const gr_script *s);
const char *script_assume(const gr_script *s, size_t k, int *line);

#endif
