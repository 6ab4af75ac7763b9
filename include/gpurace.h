/* gpurace.h: the public interface of the emulator.
 *
 * A context is an emulated GPU: a number of SMs, a seeded scheduler, and
 * global memory.  Modules are loaded into it from kernel files (CUDA C
 * subset, preprocessed by the system cpp with the given -D defines).
 * Buffers are allocated in global memory and addressed by gr_ptr, a device
 * address.  Launches run a kernel to completion.  Everything is
 * deterministic: the same configuration, seed and inputs give the same run.
 *
 * Errors: every call returns GR_OK or an error code; gr_error() gives the
 * message ("file:line:col: error: ..." where there is a source position).
 *
 * The second half of this header is the engine API that detectors build on:
 * events for every memory access, fence, barrier and divergence, snapshots
 * of the whole machine, and per-warp memory views.
 */
#ifndef GPURACE_H
#define GPURACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the installed library exports: the declarations of this header and
 * of detectors.h, each marked GR_API.  Everything else of the library is
 * built hidden and made local to it (Makefile.am's libgpurace.a;
 * tests/layers.sh checks that the two sets are one). */
#if defined(__GNUC__)
#define GR_API __attribute__((visibility("default")))
#else
#define GR_API
#endif

/* Status codes; the CLI uses them as exit statuses. */
enum {
  GR_OK = 0,
  GR_ECHECK = 1,   /* a //@ check did not hold */
  GR_EINPUT = 2,   /* bad input or usage: syntax error, unknown kernel, wrong arguments */
  GR_EEMU = 3      /* emulation error: invalid access, deadlock, barrier divergence, step limit, trap */
};

typedef uint64_t gr_ptr;                     /* a device address; 0 is null */
typedef struct { unsigned x, y, z; } gr_dim3;

typedef enum { GR_SCHED_RR, GR_SCHED_RANDOM } gr_sched;

/* The memory model of global memory (docs/memory-model.md).  sc: every
 * access goes straight to memory in issue order.  weak: store buffers,
 * pending loads, per-SM queues and incoherent L1s in front of L2, with
 * scoped fences and atomics; every choice drawn from the seed. */
typedef enum { GR_MEMORY_SC, GR_MEMORY_WEAK } gr_memory;

/* Where launches run: the emulator, or a real NVIDIA GPU through NVRTC and
 * the driver API (cuda/; built when configure finds CUDA).  The host API is
 * the same on both; the engine API below (events, snapshots, views,
 * exploration) exists on the emulator only. */
typedef enum { GR_BACKEND_EMU, GR_BACKEND_CUDA } gr_backend;

/* How the lanes of a warp are scheduled.  lockstep: pre-Volta SIMT, one
 * program counter per warp, divergent paths run one after the other and
 * reconverge at the branch's immediate post-dominator.  its: independent
 * thread scheduling (Volta and later): every lane has its own program
 * counter, the scheduler runs any group of lanes at one instruction, or
 * some of them, so divergent paths interleave and converged lanes drift
 * apart; lanes wait for each other only at __syncwarp, __syncthreads and
 * the *_sync intrinsics. */
typedef enum { GR_WARPS_LOCKSTEP, GR_WARPS_ITS } gr_warps;

/* What reads a .cu kernel file: gpurace's own CUDA-subset front end, or
 * the CUDA compiler (NVRTC, or nvcc found by path) to PTX, which the PTX
 * front end lowers.  A .ptx file is always read as PTX. */
/* auto: the subset where it reads the file, else the CUDA compiler's PTX */
typedef enum { GR_CC_SUBSET, GR_CC_NVRTC, GR_CC_NVCC, GR_CC_AUTO } gr_cc;

/* What executes a kernel's instructions on the emulator: the interpreter
 * (the reference), compiled code (the kernel's KIR as C, compiled by the
 * system's C compiler, cached on disk: exactly the interpreter's run, see
 * docs/engine.md), or auto: compiled code where it is cached already or
 * the launch runs long enough to pay for the compiler. */
typedef enum { GR_ENGINE_INTERP, GR_ENGINE_COMPILED, GR_ENGINE_AUTO } gr_engine;

typedef struct {
  int sms;                    /* streaming multiprocessors (default 4) */
  uint64_t seed;              /* scheduler seed (default 1) */
  gr_sched sched;             /* warp scheduling policy (default round-robin) */
  uint64_t max_steps;         /* warp instructions per launch before giving up (default 100M) */
  int max_blocks_per_sm;      /* residency limits (defaults 16 blocks, 2048 threads, 100 KiB) */
  int max_threads_per_sm;
  uint32_t shared_per_sm;
  gr_memory memory;           /* default sc, or weak where GPURACE_MEMORY=weak is set */
  gr_backend backend;         /* default emu */
  gr_warps warps;             /* default lockstep */
  gr_cc cc;                   /* default auto, or what GPURACE_CC=subset|nvrtc|nvcc says */
  char cc_flags[256];         /* more options for the CUDA compiler, space-separated (-G, -O0, -arch=sm_90) */
  char include_path[1024];    /* directories both front ends search for #include, ':'-separated (-I DIR) */
  uint64_t max_code;          /* KIR instructions of one kernel after inlining (default 2^20) */
  uint64_t max_source;        /* bytes of a kernel file and of its preprocessed text (default 64 MiB) */
  int max_nesting;            /* levels of nesting in kernel source (default 200, at most 1000) */
  uint64_t max_memory;        /* bytes of global memory a context may hold (default 8 GiB) */
  int keep_going;             /* a memory error is reported and the access dropped (a load yields 0);
                                 the launch runs on and fails at its end with every error */
  int one_per_turn;           /* never run a warp's own instructions ahead of its turns (simt.h),
                                 under ITS step converged warps by the general path too, and
                                 perform every access lane by lane: the same run, slower; for
                                 testing that it is the same (GPURACE_ONE_PER_TURN=1) */
  gr_engine engine;           /* default interp, or what GPURACE_ENGINE says */
  char jit_cache[512];        /* the compiled engine's disk cache ("": $XDG_CACHE_HOME/gpurace) */
} gr_config;

/* The run options, each declared once (host/options.c; the detectors'
 * by det_option_at, detectors.h): the command line's spelling, its value
 * (NULL: a flag), the environment variable that sets its default for every
 * context of the process (NULL: none; a flag's takes 1 or 0), and its help,
 * lines separated by '\n'.  scope: what reads it (a launch; the front end,
 * which `gpurace ir` runs too; a detector).  Every command's help and
 * docs/commands.md are checked against this list (tests/options.sh). */
typedef enum { GR_OPT_RUN, GR_OPT_FRONT, GR_OPT_DETECTOR } gr_option_scope;
typedef struct {
  const char *name, *arg, *env, *help;
  gr_option_scope scope;
} gr_option;
/* The k-th option of a configuration, or NULL past the last. */
GR_API const gr_option *gr_option_at(size_t k);

/* Fills in the defaults, then the environment's: GPURACE_MEMORY=weak makes
 * weak memory the default of every context, so that a whole test suite
 * runs under it; so GPURACE_SEED, GPURACE_WARPS and every option
 * gr_option_at names with a variable.  A variable with a bad value is left
 * out here: gr_config_env says which. */
GR_API void gr_config_default(gr_config *cfg);
/* GR_OK, or GR_EINPUT with the message when a variable of the options has
 * a bad value. */
GR_API int gr_config_env(char *err, size_t errlen);
/* One command-line option of a configuration, shared by every front end
 * (gr_option_at lists them).  Returns the number of words taken (2: `opt`
 * and `val`; 1 for a flag), 0 when `opt` is not one of them, -1 on a
 * missing (NULL) or bad value, with the message in err. */
GR_API int gr_config_option(gr_config *cfg, const char *opt, const char *val, char *err, size_t errlen);

typedef struct gr_context gr_context;
typedef struct gr_module gr_module;

/* A context on the CUDA backend opens the GPU here; where that fails (no
 * backend built, no driver, no GPU) every later call fails with the
 * reason, and gr_context_ok says so at once. */
GR_API gr_context *gr_context_create(const gr_config *cfg);
GR_API void gr_context_destroy(gr_context *ctx);
GR_API int gr_context_ok(const gr_context *ctx);   /* GR_OK, or the error of the backend's start */
/* The device: "emulator" or the GPU's name, architecture and driver. */
GR_API const char *gr_context_device(const gr_context *ctx);
GR_API const char *gr_error(const gr_context *ctx);
GR_API const gr_config *gr_context_config(const gr_context *ctx);

/* Loads a kernel file through the preprocessor; defines are "NAME" or
 * "NAME=VALUE".  The module lives until the context is destroyed. */
GR_API int gr_module_load(gr_context *ctx, const char *path, const char *const *defines, int ndefines, gr_module **out);
/* Compiles source text without preprocessing (used by tests and fuzzing). */
GR_API int gr_module_load_source(gr_context *ctx, const char *name, const char *src, size_t len, gr_module **out);
/* Prints the module's KIR. */
GR_API void gr_module_print_ir(const gr_module *mod, FILE *out);
/* The front end that read the module: "subset", "nvrtc", "nvcc" or "ptx";
 * where --cc auto passed the CUDA-subset front end by, *why (if not NULL)
 * is what the subset said, else NULL. */
GR_API const char *gr_module_front(const gr_module *mod, const char **why);
/* Device address and size of a __device__ variable of the module. */
GR_API int gr_module_global(gr_module *mod, const char *name, gr_ptr *addr, size_t *size);

/* Kernel signature queries, for drivers that bind arguments by name. */
typedef enum { GR_BOOL, GR_I8, GR_U8, GR_I16, GR_U16, GR_I32, GR_U32, GR_I64, GR_U64, GR_F32, GR_F64, GR_PTR, GR_STRUCT } gr_type;
GR_API int gr_kernel_count(const gr_module *mod);
GR_API const char *gr_kernel_name(const gr_module *mod, int k);   /* as C++ names it; NULL past the last */
GR_API int gr_kernel_nparams(gr_module *mod, const char *kernel);   /* -1 if there is no such kernel */
GR_API int gr_kernel_param(gr_module *mod, const char *kernel, int k, const char **name, gr_type *type, gr_type *pointee);
GR_API int gr_type_size(gr_type t);   /* 0 for GR_STRUCT: see gr_kernel_param_struct */
/* A struct parameter passed by value: its size, and its scalar leaves
 * (fields, array elements, nested structs) in declaration order, each with
 * its offset and type, as //@ arg NAME = {V, ...} fills them. */
GR_API int gr_kernel_param_struct(gr_module *mod, const char *kernel, int k, size_t *size, int *nleaves,
                           const uint32_t **offsets, const gr_type **types);
GR_API const char *gr_type_name(gr_type t);

/* Global memory.  Allocations are zero-filled and 256-byte aligned; an
 * access outside every live allocation is an emulation error. */
GR_API int gr_malloc(gr_context *ctx, size_t bytes, const char *name, gr_ptr *out);
GR_API int gr_free(gr_context *ctx, gr_ptr p);
GR_API int gr_memcpy_htod(gr_context *ctx, gr_ptr dst, const void *src, size_t n);
GR_API int gr_memcpy_dtoh(gr_context *ctx, void *dst, gr_ptr src, size_t n);
GR_API int gr_memset(gr_context *ctx, gr_ptr dst, int value, size_t n);

/* Kernel arguments: a value and its type, converted to the parameter's type. */
typedef struct { gr_type type; uint64_t bits; const void *data; size_t size; } gr_arg;   /* data, size: GR_STRUCT */
GR_API gr_arg gr_arg_i32(int32_t v);
GR_API gr_arg gr_arg_u32(uint32_t v);
GR_API gr_arg gr_arg_i64(int64_t v);
GR_API gr_arg gr_arg_u64(uint64_t v);
GR_API gr_arg gr_arg_f32(float v);
GR_API gr_arg gr_arg_f64(double v);
GR_API gr_arg gr_arg_ptr(gr_ptr p);
GR_API gr_arg gr_arg_struct(const void *bytes, size_t size);   /* a struct by value; the bytes are copied at launch */

/* Runs kernel<<<grid, block, dyn_shared>>>(args...) to completion. */
GR_API int gr_launch(gr_module *mod, const char *kernel, gr_dim3 grid, gr_dim3 block, size_t dyn_shared,
              const gr_arg *args, int nargs);
/* gr_launch with flags: GR_LAUNCH_COOPERATIVE is cudaLaunchCooperativeKernel
 * (every block resident at once, and a grid workspace for
 * cooperative_groups::this_grid().sync(); a grid larger than the device
 * holds at once is refused, as CUDA refuses it). */
#define GR_LAUNCH_COOPERATIVE 1u
GR_API int gr_launch_ex(gr_module *mod, const char *kernel, gr_dim3 grid, gr_dim3 block, size_t dyn_shared, unsigned flags,
                        const gr_arg *args, int nargs);

/* The text the device's printf calls have printed since the last call
 * (the emulator's; a GPU prints its own), written to out and forgotten;
 * its bytes.  Each lane's call is one piece, the lanes of a warp in lane
 * order, in the order the run issued them: the same for the same seed. */
GR_API size_t gr_device_output(gr_context *ctx, FILE *out);

typedef struct {
  uint64_t warp_steps;            /* warp instructions issued */
  uint64_t thread_instructions;   /* sum of active lanes over those */
  uint64_t divergences;           /* branches that split a warp */
  uint64_t barriers;              /* block barriers completed */
  uint64_t memory_actions;        /* weak memory: drains and deferred loads performed in the background */
  /* weak memory: lanes' global accesses performed at L2 at once, where no
   * thread can tell (docs/memory-model.md); and launches that met an access
   * outside its address's roots, and stopped performing accesses at once
   * (weak) and loads of allocations nothing writes ahead of their turns */
  uint64_t memory_at_once, memory_at_once_stopped;
  /* lanes' memory operations in global ([0]) and shared ([1]) memory, by
   * kind (GR_LOAD, GR_STORE, GR_ATOMIC), and their bytes; a warp's access
   * is counted in the space of its first lane's address, a load left
   * pending when it performs */
  uint64_t mem_ops[2][3], mem_bytes[2][3];
  /* the engine: 1 where the launch's stretches ran as compiled code; the
   * seconds the C compiler took in this launch (0 where a cache had the
   * code); where compiled code was asked for and not used, why */
  int compiled;
  double compile_seconds;
  /* of the launches that ran compiled code, those that no schedule can
   * tell apart, run a warp at a time (docs/engine.md) */
  int whole;
  /* entries where compiled code ran nothing because a register it holds
   * as one value for the warp had different values in its lanes (under
   * ITS, lanes that drifted apart; under lockstep, never: engines.sh) */
  uint64_t compiled_declined;
  char engine_note[256];
} gr_stats;
/* Statistics of the last launch. */
GR_API void gr_last_stats(const gr_context *ctx, gr_stats *out);

/* ---------------------------------------------------------------- engine API */

typedef enum {
  GR_EV_LAUNCH_BEGIN, GR_EV_LAUNCH_END,
  GR_EV_ACCESS,        /* one warp instruction's memory accesses (see below for weak loads) */
  GR_EV_FENCE,
  GR_EV_BARRIER,       /* a block barrier completed (all live warps arrived) */
  GR_EV_SYNCWARP,
  GR_EV_DIVERGE,       /* a branch split the warp's active lanes */
  GR_EV_RECONVERGE,    /* split lanes met again at the reconvergence point */
  GR_EV_BLOCK_BEGIN, GR_EV_BLOCK_END,
  GR_EV_ARRIVE,        /* lanes of one warp (mask) arrived at a block barrier; GR_EV_BARRIER follows when all have */
  /* Asynchronous copies (PTX cp.async).  ISSUE: lanes (mask) issued
   * copies; what their threads know now, the copies know.  The copies'
   * accesses come later as ACCESS events with async_copy set (a global
   * load, then a shared store, per copy), when they perform: at the wait
   * that waits for them, or at the thread's exit.  WAIT: lanes (mask)
   * waited; what their performed copies did, they know now. */
  GR_EV_ASYNC_ISSUE, GR_EV_ASYNC_WAIT,
  /* Only to observers with GR_OBSERVE_SKIP_RACE_FREE (below), once, before
   * LAUNCH_END: the launch left accesses unshown as ones that cannot
   * race, then an address fell outside what its pointer was proved to
   * point into, so that proof does not hold, and an access that could
   * race with them reached their allocation. */
  GR_EV_UNSEEN
} gr_event_kind;

typedef enum { GR_LOAD, GR_STORE, GR_ATOMIC } gr_access_kind;
typedef enum { GR_SPACE_GLOBAL = 1, GR_SPACE_SHARED = 2, GR_SPACE_LOCAL = 3 } gr_space;
typedef enum { GR_SCOPE_BLOCK, GR_SCOPE_DEVICE, GR_SCOPE_SYSTEM } gr_scope;
/* The memory order of an access (PTX .relaxed, .acquire, .release,
 * .acq_rel: plain and volatile accesses are relaxed) or a fence (fence.sc
 * or fence.acq_rel; the __threadfence family is fence.sc). */
typedef enum { GR_ORDER_RELAXED, GR_ORDER_ACQUIRE, GR_ORDER_RELEASE, GR_ORDER_ACQ_REL, GR_ORDER_SC } gr_order;

typedef struct {
  gr_event_kind kind;
  /* who: linear block id and coordinates, warp (global id and index in block) */
  uint32_t block, warp, warp_in_block;
  gr_dim3 block_idx;
  uint32_t mask;               /* active lanes (ACCESS, FENCE, DIVERGE: lanes taking the branch in `taken`) */
  uint32_t taken;              /* DIVERGE: lanes that took the branch */
  const char *file;            /* source position of the instruction */
  int line, col;
  int pc;
  /* ACCESS */
  gr_access_kind access;
  gr_space space;
  int size;                    /* bytes per lane */
  int is_volatile;             /* a strong access: volatile, atomic, or __nv_atomic_* (PTX .relaxed and stronger) */
  int async_copy;              /* performed by the lanes' asynchronous copies (cp.async), not by their threads */
  int atomic_op;               /* for GR_ATOMIC: 0 add, 1 sub, 2 exch, 3 min, 4 max, 5 inc, 6 dec, 7 cas, 8 and, 9 or, 10 xor */
  gr_scope scope;              /* strong accesses (volatile: system) and fences */
  gr_order order;              /* accesses (relaxed unless __nv_atomic_* says otherwise) and fences (SC or ACQ_REL) */
  const uint64_t *addr;        /* [32] per lane, valid where mask has the lane */
  const uint64_t *value;       /* [32] value loaded, stored, or (atomics) the old value */
  const uint64_t *operand;     /* atomics [32]: the operand (exch: new value; cas: compare value) */
  const uint64_t *operand2;    /* atomics [32]: cas: the value swapped in */
  /* every event: the launch (events without an instruction, such as the
   * launch and block begin and end, give the kernel's declaration as
   * their source position) */
  const char *kernel;
  gr_dim3 grid, blockdim;
  uint32_t shared_bytes;       /* shared memory per block, static and dynamic */
} gr_event;

/* Under weak memory a global load may perform after later instructions of
 * its thread: its ACCESS event comes when it performs (when memory was
 * read), for the lanes that performed together.  Stores, atomics and SC
 * loads are reported when they issue. */
typedef struct {
  void (*on_event)(void *user, const gr_event *ev);
  void *user;
  unsigned flags;   /* GR_OBSERVE_*: 0 for every event */
} gr_observer;

/* The observer needs no ACCESS event of an access that cannot race, by
 * where every kernel pointer comes from (emu/prov.h): a plain load from
 * an allocation that no instruction of the launch can write, and a
 * reduction (a relaxed atomic add, and, or, xor, min or max of integers,
 * device scope or wider, its result unused) of an allocation that only
 * reductions of one kind reach, in a kernel without fences (after a
 * fence, a reduction carries what its thread knew to the next thread
 * that reduces and fences: in the PTX model it orders); and a plain load of shared memory in a
 * barrier interval in which no thread of the block writes shared memory
 * and no copy to it is in flight (every write of the block is then
 * ordered before or after it by a barrier).  Such loads are then performed in a warp's run ahead of its
 * turns, as with no observer.  And a launch none of whose accesses can
 * race (every load one of the first kind, every store a plain store to an
 * allocation that no instruction of the launch reads, no two threads an
 * address, and nothing else but arithmetic and branches: emu/whole.h)
 * gives the observer its LAUNCH_BEGIN and LAUNCH_END and no other event
 * (the compiled engine runs it a warp at a time).  Under sequentially
 * consistent memory, while every observer of the context says so; the
 * proof is checked at every access it does not trust, and GR_EV_UNSEEN
 * says where it failed. */
#define GR_OBSERVE_SKIP_RACE_FREE 1u

/* An observer stops the launch in progress: it ends, and gr_launch
 * returns `code` with msg as gr_error.  For a detector that cannot go on
 * (LD given a target that does not exist).  No effect outside a launch or
 * after the launch failed. */
GR_API void gr_launch_fail(gr_context *ctx, int code, const char *msg);

/* Attaches an observer to every later launch; returns a handle >= 0. */
GR_API int gr_observe(gr_context *ctx, const gr_observer *obs);
GR_API void gr_unobserve(gr_context *ctx, int handle);

/* Snapshots: the whole machine state (global memory, and during a launch
 * every resident block's shared and local memory and warp state).  A
 * restore requested from an observer takes effect after the current
 * instruction, so a detector can re-run a region. */
typedef struct gr_snapshot gr_snapshot;
GR_API gr_snapshot *gr_snapshot_take(gr_context *ctx);
GR_API int gr_snapshot_restore(gr_context *ctx, const gr_snapshot *snap);
GR_API void gr_snapshot_free(gr_snapshot *snap);
/* A whole-machine snapshot taken at LAUNCH_BEGIN holds no block: restoring
 * it runs the kernel again from its first block, on the global memory of
 * that moment.
 *
 * A block snapshot holds one resident block (linear id `block`): its warps
 * and shared memory, not global memory.  Restoring it, during the launch
 * that took it, puts that block back while the others run on; its warps
 * keep the memory views they have, and a restore requested at the block's
 * BLOCK_END keeps the block resident to run again.  NULL with gr_error
 * set when no launch is running or the block is not resident. */
GR_API gr_snapshot *gr_snapshot_take_block(gr_context *ctx, uint32_t block);

/* Per-warp memory views: accesses of warp `warp` (global warp id) to
 * [base, base+len) go to `copy` instead, so a detector can privatise data.
 * base is a global address, or a shared one (KIR's shared space: the
 * address of shared offset 0 is gr_shared_base()), which privatises the
 * warp's block's shared memory.  Accesses through a view bypass the weak
 * memory system: a private copy has one writer.  Valid during a launch;
 * cleared at its end and by whole-machine restores. */
GR_API gr_ptr gr_shared_base(void);
GR_API int gr_view_add(gr_context *ctx, uint32_t warp, gr_ptr base, size_t len, void *copy);
GR_API void gr_view_clear(gr_context *ctx, uint32_t warp);

/* Exhaustive exploration.  A context given an explorer draws every choice
 * of its launches (which warp issues, and in weak memory every buffer,
 * queue, load and L1 choice) from it instead of the seed.  Run the launch,
 * read its outcome unless gr_explore_last_pruned says the run stopped at a
 * state an earlier run had reached, and repeat while gr_explore_next gives
 * 1.  Between runs the caller restores the initial memory.  Only memory
 * operations, fences and barriers are interleaving points; other
 * instructions of a warp run on to the next of them (they touch nothing
 * another warp can see). */
typedef struct gr_explore gr_explore;
typedef struct {
  uint64_t runs, pruned_runs, states;   /* split searches: summed over the subtrees */
  uint64_t subtrees;          /* split searches: how many */
  int complete;               /* the whole space was explored within the state bound */
  int nondeterministic;       /* a replay diverged: an engine bug, the result is void */
} gr_explore_info;
GR_API gr_explore *gr_explore_new(uint64_t max_states);
GR_API void gr_explore_free(gr_explore *x);
GR_API void gr_context_explore(gr_context *ctx, gr_explore *x);   /* NULL: back to sampled runs */
GR_API int gr_explore_next(gr_explore *x);
GR_API int gr_explore_last_pruned(const gr_explore *x);
GR_API void gr_explore_stats(const gr_explore *x, gr_explore_info *out);

/* Allocations (buffers and __device__ variables), for detectors that lay
 * out shadow memory: ids 1..gr_allocation_count in creation order;
 * gr_allocation_info fails for a freed one.  gr_allocation_id gives the id
 * of a global address (0 for other spaces); its offset is (uint32_t)addr. */
GR_API size_t gr_allocation_count(const gr_context *ctx);
GR_API int gr_allocation_info(const gr_context *ctx, size_t id, uint64_t *size, const char **name);
GR_API size_t gr_allocation_id(gr_ptr addr);
GR_API gr_ptr gr_allocation_base(size_t id);   /* the address of offset 0 of allocation id */

/* Decodes a device address for reports: the allocation's name and offset. */
GR_API int gr_describe_address(const gr_context *ctx, gr_ptr addr, const char **name, uint64_t *offset);

/* A monotonic clock in seconds, for timings the tools print on request. */
GR_API double gr_now(void);

/* ---------------------------------------------------------------- kernel files */

/* A self-running kernel file: its //@ directives (launch, buffer, arg,
 * expect, check) parsed, run and checked.  See README.md for the syntax. */
typedef struct gr_script gr_script;

GR_API int gr_script_load(gr_context *ctx, const char *path, const char *const *defines, int ndefines, gr_script **out);
GR_API void gr_script_free(gr_script *s);
/* Parses and checks only the //@ directives of source text (no compilation):
 * for tools and fuzzing.  GR_OK or GR_EINPUT with "name:line:col: error: ...". */
GR_API int gr_script_check_directives(gr_context *ctx, const char *name, const char *text, size_t len);
/* Allocates and initialises the buffers, then runs the launch. */
GR_API int gr_script_run(gr_script *s);
/* Prints a buffer or __device__ variable by name; GR_EINPUT if unknown. */
GR_API int gr_script_dump(gr_script *s, const char *name, FILE *out);
/* Prints every buffer of the file, in the order of its directives. */
GR_API int gr_script_dump_all(gr_script *s, FILE *out);
/* Prints "digest NAME BYTES HASH" for every buffer, then every __device__
 * variable: the FNV-1a 64-bit hash of its raw bytes.  Two runs (two
 * backends) whose digests match ended with the same memory, byte for byte. */
GR_API int gr_script_digest(gr_script *s, FILE *out);
/* The FNV-1a 64-bit hash of n bytes, the digest above. */
GR_API uint64_t gr_digest_bytes(const void *p, size_t n);
/* Evaluates every check; prints one line per check; GR_ECHECK if one failed. */
GR_API int gr_script_check(gr_script *s, FILE *out);
/* Restores every buffer and __device__ variable to its initial value, so
 * that the file can run again in the same context. */
GR_API int gr_script_reset(gr_script *s);
/* The expected verdict: 1 race, 0 no race, -1 not stated.  For
 * "expect race if KNOB...", 1 when one of the knobs was among the defines
 * the file was loaded with (NAME or NAME=VALUE, as #ifdef sees it). */
GR_API int gr_script_expect_race(const gr_script *s);
/* A loop kernel's //@ loop ARRAY... (comma-separated), or NULL.  Its
 * `//@ expect dependency` / `nodependency` is gr_script_expect_race's 1 / 0. */
GR_API const char *gr_script_loop_arrays(const gr_script *s);
/* The knobs of "expect race if KNOB...", in order. */
GR_API int gr_script_knob_count(const gr_script *s);
GR_API const char *gr_script_knob(const gr_script *s, int k);
/* The value of a //@ meta KEY VALUE line, or NULL. */
GR_API const char *gr_script_meta(const gr_script *s, const char *key);
GR_API gr_module *gr_script_module(gr_script *s);
/* The statistics of the last gr_script_run, summed over its launches. */
GR_API void gr_script_stats(const gr_script *s, gr_stats *out);

/* ---------------------------------------------------------------- litmus tests */

/* A litmus file adds:
 *   //@ litmus ID W|B|G|bBwW,...           placement: one warp, one block, one thread per block,
 *                                          or each thread's block and warp (placement 'M')
 *   //@ observe VAR=NAME[INDEX] ...        the outcome, read after the run
 *   //@ outcome VAR=VALUE ... VERDICT      the weak outcome and its verdict */
typedef enum { GR_VERDICT_NONE, GR_FORBIDDEN, GR_ALLOWED_REQUIRED, GR_ALLOWED_OPTIONAL } gr_verdict;
GR_API const char *gr_verdict_name(gr_verdict v);

typedef struct {
  uint64_t runs;          /* sampled runs (default 10000) */
  uint64_t seed;          /* run k uses seed + k (default 1) */
  int exhaustive;         /* enumerate every schedule and memory choice instead */
  uint64_t max_states;    /* exhaustive: bound on distinct states (default 2000000) */
  int sms;                /* SMs (default 4) */
  gr_warps warps;         /* warp scheduling (default lockstep) */
  double max_seconds;     /* exhaustive: bound on the search's time (default 600); hitting it fails the test */
  FILE *progress;         /* exhaustive: a progress line every 10 s goes here (NULL: none) */
  /* An exhaustive search is split into subtrees that depend on the test
   * alone, explored on every thread.  Across processes (MPI ranks), this
   * one explores the states it owns (by their hash, shard of nshards) and
   * hands the others' to them; the processes exchange what they found
   * with alltoall, so that each ends
   * with the whole result: the same bytes however many threads and
   * processes ran it.  alltoall (every process calls it together) sends
   * send[j] (sendlen[j] bytes) to process j and sets *recv (malloc'd) to
   * what each process sent here, in process order, each after its length
   * as 8 bytes; 0, or -1 with a message in err.  nshards 0 or 1: alone.
   * Sampled runs split the same way: process j runs the j-th contiguous
   * part of the seeds, and each merges the parts in seed order. */
  int shard, nshards;
  int (*alltoall)(void *user, const void *const *send, const size_t *sendlen, void **recv, size_t *recvlen, char *err,
                  size_t errlen);
  void *alltoall_user;
} gr_litmus_opts;
GR_API void gr_litmus_opts_default(gr_litmus_opts *o);

typedef struct { char *text; uint64_t count, first_seed; int weak; } gr_outcome;

typedef struct {
  char id[32];
  char placement;
  char where[128];           /* the placement as written */
  gr_verdict verdict;
  char weak[256];            /* the weak outcome, as written */
  int exhaustive;
  uint64_t runs, weak_count;
  gr_outcome *outcomes;      /* sorted by text */
  size_t noutcomes;
  gr_explore_info explored;  /* exhaustive runs */
  int pass;
  int timed_out;             /* exhaustive: max_seconds ran out */
  char reason[768];          /* why it failed, or a remark */
  int axiomatic;             /* from gr_litmus_axiomatic: outcomes are the allowed set */
  uint64_t candidates, consistent;   /* axiomatic: candidate executions, and those the axioms allow */
} gr_litmus_result;

/* Runs the litmus file at path: N seeded runs under weak memory and the
 * random scheduler, or the exhaustive exploration.  GR_OK when the test
 * ran (pass or not: see r->pass), else an error with gr_error text in
 * r->reason. */
GR_API int gr_litmus_run(const char *path, const gr_litmus_opts *o, gr_litmus_result *r);
/* Every final memory state of the kernel file at path (any script, its
 * launches and buffers), explored exhaustively under `memory` with the
 * random scheduler's choices: r->outcomes are the distinct states, each
 * written as its 'digest NAME BYTES HASH' lines (gr_script_digest).
 * r->pass: the search completed within o->max_states and o->max_seconds
 * (r->reason says which bound stopped it otherwise). */
GR_API int gr_final_states(const char *path, const gr_litmus_opts *o, gr_memory memory, gr_litmus_result *r);
/* The PTX memory model's verdict on the litmus file at path, computed
 * axiomatically (emu/axiom.c): r->outcomes is the allowed set (count: the
 * consistent candidate executions giving each), r->pass whether the
 * file's verdict agrees with the model's.  Loop-free tests on global
 * memory, up to 64 events per execution. */
GR_API int gr_litmus_axiomatic(const char *path, const gr_litmus_opts *o, gr_litmus_result *r);
/* Compares an exhaustive run's reachable set with the axiomatic allowed
 * set: prints each outcome reachable but forbidden ("beyond PTX") and each
 * allowed but unreachable (a completeness gap) to out (NULL: none), and
 * returns how many are beyond PTX (a soundness failure). */
GR_API int gr_litmus_compare(FILE *out, const gr_litmus_result *op, const gr_litmus_result *ax);
/* The histogram and the verdict line. */
GR_API void gr_litmus_print(FILE *out, const char *path, const gr_litmus_result *r);
GR_API void gr_litmus_result_free(gr_litmus_result *r);

/* ---------------------------------------------------------------- the CUDA backend's tools */

/* 1 when this build has the CUDA backend. */
GR_API int gr_cuda_built(void);
/* Compiles a kernel file with NVRTC for sm_<arch> exactly as the CUDA
 * backend would, without loading or running it: needs NVRTC, not a GPU. */
GR_API int gr_cuda_compile_check(const char *path, const char *const *defines, int ndefines, int arch, char *err, size_t errlen);

/* Runs a litmus file on the GPU: `iterations` instances of the test, many
 * per launch, each on its own copy of the buffers, with the incantations
 * that make weak behaviour likely: thread placement randomised per launch
 * (a test warp's lanes permuted inside a random warp, each test block in
 * its own random block), and the other warps stressing memory.  The
 * histogram goes to r (runs, outcomes, weak_count; pass is left to the
 * caller, who knows the emulator's reachable set).  Compiled with
 * --device-debug, so that the compiler keeps each thread's program order
 * and only the hardware reorders.  GPURACE_HW_SOURCE=1 in the environment
 * prints the instrumented source on stderr. */
typedef struct {
  uint64_t iterations;   /* default 100000; 0: compile the instrumented test for sm_90 and stop (no GPU needed) */
  uint64_t seed;         /* placement seed (default 1) */
  int stress;            /* stress iterations per stressing thread (default 64; 0: none) */
} gr_hw_litmus_opts;
GR_API void gr_hw_litmus_opts_default(gr_hw_litmus_opts *o);
GR_API int gr_litmus_run_hw(const char *path, const gr_hw_litmus_opts *o, gr_litmus_result *r);

#ifdef __cplusplus
}
#endif
#endif
