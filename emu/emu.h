/* emu: the emulated GPU, the folder's one public face.
 *
 * An emu_dev is a device that runs KIR: SMs, a seeded scheduler, warps in
 * lockstep or with independent thread scheduling, global memory in the sc
 * or weak model (wmem.h), observers of every access, snapshots, per-warp
 * views and exhaustive exploration.  It knows KIR and the API's types
 * (gpurace.h) and nothing of what chooses it: the host layer (host/) makes
 * one for a context on the emulator backend and forwards the API to it.
 *
 * Errors: a call that fails returns a GR_E* status and writes its message
 * into the buffer the device was made with ("file:line:col: error: ...").
 * After a --keep-going launch that met memory errors, emu_log gives the
 * whole log instead. */
#ifndef GR_EMU_H
#define GR_EMU_H

#include <stddef.h>
#include <stdint.h>

#include "gpurace.h"
#include "kir.h"

typedef struct emu_dev emu_dev;
typedef struct emu_module emu_module;

/* A device with the configuration cfg (copied; its fields already
 * defaulted), writing its errors into err (errlen bytes), which must
 * outlive it. */
emu_dev *emu_new(const gr_config *cfg, char *err, size_t errlen);
void emu_free(emu_dev *e);
/* A later seed for the next launches (sampled litmus runs). */
void emu_reseed(emu_dev *e, uint64_t seed);
/* The --keep-going log of the last launch, or NULL when the error buffer
 * holds the last error; emu_log_forget makes it NULL (another error came). */
const char *emu_log(const emu_dev *e);
void emu_log_forget(emu_dev *e);
/* Device printf's text since the last call, written to out and forgotten;
 * its bytes. */
size_t emu_output(emu_dev *e, FILE *out);

/* Global memory (as gr_malloc and friends). */
int emu_malloc(emu_dev *e, size_t bytes, const char *name, gr_ptr *out);
int emu_free_ptr(emu_dev *e, gr_ptr p);
int emu_htod(emu_dev *e, gr_ptr dst, const void *src, size_t n);
int emu_dtoh(emu_dev *e, void *dst, gr_ptr src, size_t n);
int emu_memset(emu_dev *e, gr_ptr dst, int v, size_t n);
/* The bytes of [addr, addr+n) of global memory, or NULL with an error. */
uint8_t *emu_global_span(emu_dev *e, gr_ptr addr, uint64_t n);
size_t emu_allocation_count(const emu_dev *e);
int emu_allocation_info(const emu_dev *e, size_t id, uint64_t *size, const char **name);
/* A live allocation's new name, for reports. */
int emu_allocation_rename(emu_dev *e, size_t id, const char *name);
int emu_describe_address(const emu_dev *e, gr_ptr addr, const char **name, uint64_t *offset);

/* A module on the device: km's __device__ variables allocated and
 * initialised (their addresses in gaddr, km->nglobals of them).  km, path
 * and gaddr are borrowed and must outlive the module. */
int emu_module_load(emu_dev *e, const kir_module *km, const char *path, gr_ptr *gaddr, emu_module **out);
void emu_module_free(emu_module *m);
const kir_module *emu_module_kir(const emu_module *m);

/* Runs kernel f of the module to completion: args holds one value per
 * parameter, converted to its type (gr_arg's bits), and argdata the bytes
 * of each struct parameter (NULL for the others).  The caller has checked
 * the grid, the block and the argument count. */
int emu_launch(emu_module *m, const kir_func *f, gr_dim3 grid, gr_dim3 block, size_t dyn_shared, unsigned flags, const uint64_t *args,
               const void *const *argdata);
/* Statistics of the last launch. */
void emu_stats(const emu_dev *e, gr_stats *out);

/* The engine API of gpurace.h, on the device. */
int emu_observe(emu_dev *e, const gr_observer *obs);
void emu_unobserve(emu_dev *e, int handle);
void emu_launch_fail(emu_dev *e, int code, const char *msg);
gr_snapshot *emu_snapshot_take(emu_dev *e);
gr_snapshot *emu_snapshot_take_block(emu_dev *e, uint32_t block);
int emu_snapshot_restore(emu_dev *e, const gr_snapshot *snap);
int emu_view_add(emu_dev *e, uint32_t warp, gr_ptr base, size_t len, void *copy);
void emu_view_clear(emu_dev *e, uint32_t warp);
void emu_explore(emu_dev *e, gr_explore *x);

/* Trace runs (the axiomatic checker): global loads and atomics take their
 * values from supply (thread: the block's linear index and the thread's
 * index in it), each atomic's result goes to rmw_result, and global memory
 * is left untouched.  NULL supply: back to memory. */
typedef uint64_t (*emu_supply_fn)(void *user, uint32_t block, uint32_t thread, uint64_t addr, int size);
typedef void (*emu_rmw_fn)(void *user, uint32_t block, uint32_t thread, uint64_t value, int stored);
void emu_supply(emu_dev *e, emu_supply_fn supply, emu_rmw_fn rmw_result, void *user);

/* ---------------------------------------------------------------- split searches
 * (explore.c) An exhaustive search split into subtrees, across threads and
 * processes (tools/litmus.c). */

/* One choice of a run: the alternative taken, of n. */
typedef struct { int choice, n; } explore_step;

typedef struct explore_set explore_set;

/* A search split into subtrees (explore_split in litmus.c).  The frontier
 * mode is a search cut at a horizon of `depth` choices: each run stops at
 * the first scheduling point past them; states above it are recorded in
 * set (and prune as in any search).  explore_at_frontier then gives the
 * run's choices and the state at the horizon (1), or says the run ended
 * above it (0; *prefix is then the whole run), or stopped at a known state
 * (-1).  gr_explore_next goes on to the next prefix. */
gr_explore *explore_new_frontier(explore_set *set, size_t depth);
int explore_at_frontier(const gr_explore *x, const explore_step **prefix, size_t *len, const uint8_t **key, size_t *klen);
/* The visited states of a search: exact (keys compared byte for byte),
 * bounded by max_states, shared by the searches of the subtrees of one
 * process, on any of its threads.  A complete search's set is the set of
 * states reachable at scheduling points whatever the order of the search,
 * so its count is too. */
explore_set *explore_set_new(uint64_t max_states);
void explore_set_free(explore_set *s);
uint64_t explore_set_count(const explore_set *s);
int explore_set_full(const explore_set *s);       /* a state was refused at the bound */
/* 1: key added; 0: there already; -1: refused at the bound.  h: hash_bytes(key, len). */
int explore_set_add(explore_set *s, const void *key, size_t len, uint64_t h);
int explore_set_has(explore_set *s, const void *key, size_t len, uint64_t h);
void explore_set_each(const explore_set *s, void (*fn)(void *user, const uint8_t *key, size_t len), void *user);

/* The subtree under a prefix, recording its states in set: every run
 * replays the prefix, and the search never backtracks into it.  Its root
 * is the scheduling point `skip` points after the prefix's last choice
 * (a point that offers one alternative makes no choice). */
gr_explore *explore_new_subtree(explore_set *set, const explore_step *prefix, size_t len, uint64_t skip);

/* Across processes, each state belongs to one (its hash modulo nshards):
 * a search that meets another's state stops there and hands it, with the
 * choices that lead to it, to fn, for the owner to explore (after skip
 * more scheduling points than the choices take: see explore_new_subtree). */
typedef void (*explore_forward_fn)(void *user, const void *key, size_t len, const explore_step *prefix, size_t plen,
                                   uint64_t skip);
void explore_set_owner(gr_explore *x, int shard, int nshards, explore_forward_fn fn, void *user);

#endif
