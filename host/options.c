/* options: the run options of a context (gr_config), each declared once
 * here: its command-line spelling, its value, the environment variable
 * that sets its default for every context of a process, and its help.
 * The command line (gr_config_option), the environment (gr_config_default,
 * gr_config_env), the help of every command and the test that compares
 * them with the documentation (tests/options.sh) all read this table. */
#include "host.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int opt_u64(const char *val, uint64_t lo, uint64_t hi, uint64_t *out) {
  if (!val || !*val || *val == '-') return 0;
  char *e;
  errno = 0;
  unsigned long long v = strtoull(val, &e, 0);
  if (*e || errno || v < lo || v > hi) return 0;
  *out = v;
  return 1;
}

/* One of words (NULL-terminated) as its index, or -1. */
static int opt_word(const char *val, const char *const *words) {
  for (int k = 0; words[k]; k++) if (!strcmp(val, words[k])) return k;
  return -1;
}

#define SETTER(fn) static int fn(gr_config *c, const char *v, const char *name, char *err, size_t n)
#define BAD(...) do { snprintf(err, n, __VA_ARGS__); return -1; } while (0)

SETTER(set_seed) {
  uint64_t x;
  if (!opt_u64(v, 0, UINT64_MAX, &x)) BAD("%s needs a non-negative integer, not '%s'", name, v);
  c->seed = x;
  return 0;
}
SETTER(set_sched) {
  static const char *const w[] = {"rr", "random", NULL};
  int k = opt_word(v, w);
  if (k < 0) BAD("%s takes rr or random, not '%s'", name, v);
  c->sched = k ? GR_SCHED_RANDOM : GR_SCHED_RR;
  return 0;
}
SETTER(set_memory) {
  static const char *const w[] = {"sc", "weak", NULL};
  int k = opt_word(v, w);
  if (k < 0) BAD("%s takes sc or weak, not '%s'", name, v);
  c->memory = k ? GR_MEMORY_WEAK : GR_MEMORY_SC;
  return 0;
}
SETTER(set_sms) {
  uint64_t x;
  if (!opt_u64(v, 1, 1024, &x)) BAD("%s needs an integer from 1 to 1024, not '%s'", name, v);
  c->sms = (int)x;
  return 0;
}
SETTER(set_warps) {
  static const char *const w[] = {"lockstep", "its", NULL};
  int k = opt_word(v, w);
  if (k < 0) BAD("%s takes lockstep or its, not '%s'", name, v);
  c->warps = k ? GR_WARPS_ITS : GR_WARPS_LOCKSTEP;
  return 0;
}
SETTER(set_cc) {
  static const char *const w[] = {"subset", "nvrtc", "nvcc", "auto", NULL};
  int k = opt_word(v, w);
  if (k < 0) BAD("%s takes auto, subset, nvrtc or nvcc, not '%s'", name, v);
  c->cc = k == 0 ? GR_CC_SUBSET : k == 1 ? GR_CC_NVRTC : k == 2 ? GR_CC_NVCC : GR_CC_AUTO;
  return 0;
}
SETTER(set_cc_flags) {
  if (strlen(v) >= sizeof c->cc_flags) BAD("%s: at most %zu characters", name, sizeof c->cc_flags - 1);
  snprintf(c->cc_flags, sizeof c->cc_flags, "%s", v);
  return 0;
}
SETTER(set_max_steps) {
  uint64_t x;
  if (!opt_u64(v, 1, UINT64_MAX, &x)) BAD("%s needs a positive integer, not '%s'", name, v);
  c->max_steps = x;
  return 0;
}
SETTER(set_keep_going) {
  (void)v, (void)name, (void)err, (void)n;
  c->keep_going = 1;
  return 0;
}
SETTER(set_one_per_turn) {
  (void)v, (void)name, (void)err, (void)n;
  c->one_per_turn = 1;
  return 0;
}
SETTER(set_max_code) {
  uint64_t x;
  if (!opt_u64(v, 1, (uint64_t)1 << 30, &x)) BAD("%s needs an integer from 1 to 2^30, not '%s'", name, v);
  c->max_code = x;
  return 0;
}
SETTER(set_max_source) {
  uint64_t x;
  if (!opt_u64(v, 1, (uint64_t)1 << 34, &x)) BAD("%s needs a byte count from 1 to 2^34, not '%s'", name, v);
  c->max_source = x;
  return 0;
}
SETTER(set_max_nesting) {
  uint64_t x;
  if (!opt_u64(v, 1, 1000, &x)) BAD("%s needs an integer from 1 to 1000 (the C stack's share), not '%s'", name, v);
  c->max_nesting = (int)x;
  return 0;
}
SETTER(set_max_memory) {
  uint64_t x;
  if (!opt_u64(v, 1, UINT64_MAX, &x)) BAD("%s needs a positive byte count, not '%s'", name, v);
  c->max_memory = x;
  return 0;
}
SETTER(set_backend) {
  static const char *const w[] = {"emu", "cuda", NULL};
  int k = opt_word(v, w);
  if (k < 0) BAD("%s takes emu or cuda, not '%s'", name, v);
  c->backend = k ? GR_BACKEND_CUDA : GR_BACKEND_EMU;
  return 0;
}
SETTER(set_engine) {
  static const char *const w[] = {"interp", "compiled", "auto", NULL};
  int k = opt_word(v, w);
  if (k < 0) BAD("%s takes interp, compiled or auto, not '%s'", name, v);
  c->engine = k == 0 ? GR_ENGINE_INTERP : k == 1 ? GR_ENGINE_COMPILED : GR_ENGINE_AUTO;
  return 0;
}
SETTER(set_jit_cache) {
  if (!*v || strlen(v) >= sizeof c->jit_cache) BAD("%s needs a folder of at most %zu characters", name, sizeof c->jit_cache - 1);
  snprintf(c->jit_cache, sizeof c->jit_cache, "%s", v);
  return 0;
}

/* -I DIR: appended to the path; the variable gives a ':'-separated list */
SETTER(set_include) {
  size_t have = strlen(c->include_path), add = strlen(v);
  if (!add) BAD("%s needs a directory", name);
  if (have + add + 2 > sizeof c->include_path) BAD("%s: the include path holds at most %zu characters", name, sizeof c->include_path - 1);
  snprintf(c->include_path + have, sizeof c->include_path - have, "%s%s", have ? ":" : "", v);
  return 0;
}

typedef struct {
  gr_option o;
  int (*set)(gr_config *c, const char *v, const char *name, char *err, size_t n);
} config_option;

/* The table.  A flag's environment variable takes 1 (set) or 0. */
static const config_option options[] = {
  {{"--seed", "N", "GPURACE_SEED", "scheduler seed (default 1); same seed, same run", GR_OPT_RUN}, set_seed},
  {{"--sched", "rr|random", "GPURACE_SCHED", "warp scheduling policy (default rr)", GR_OPT_RUN}, set_sched},
  {{"--memory", "sc|weak", "GPURACE_MEMORY", "memory model (default sc)", GR_OPT_RUN}, set_memory},
  {{"--sms", "N", "GPURACE_SMS", "number of SMs (default 4)", GR_OPT_RUN}, set_sms},
  {{"--warps", "lockstep|its", "GPURACE_WARPS",
    "warps in pre-Volta lockstep (default) or with independent\nthread scheduling (every lane its own program counter)", GR_OPT_RUN}, set_warps},
  {{"--cc", "auto|subset|nvrtc|nvcc", "GPURACE_CC",
    "read a .cu file with gpurace's CUDA-subset front end, or compile\nit to PTX with NVRTC or nvcc and run that (any CUDA C++); auto\n(default): the subset where it reads the file, else the CUDA\ncompiler, and says so; a .ptx FILE is always PTX", GR_OPT_FRONT}, set_cc},
  {{"--cc-flags", "FLAGS", "GPURACE_CC_FLAGS", "more options for the CUDA compiler (e.g. -G, -O0, -arch=sm_90)", GR_OPT_FRONT}, set_cc_flags},
  {{"-I", "DIR", "GPURACE_INCLUDE_PATH",
    "search DIR for #include files, in both front ends (repeatable;\n-IDIR too; the variable: directories separated by ':')", GR_OPT_FRONT}, set_include},
  {{"--max-steps", "N", "GPURACE_MAX_STEPS", "give up after N warp instructions (default 100000000)", GR_OPT_RUN}, set_max_steps},
  {{"--keep-going", NULL, "GPURACE_KEEP_GOING",
    "report a memory error, drop the access (a load reads 0) and run\non to the end with every detector; the run still fails (status 3)\nwith every error it met (the first 1000 printed)", GR_OPT_RUN}, set_keep_going},
  {{"--max-code", "N", "GPURACE_MAX_CODE", "refuse a kernel of more than N KIR instructions after inlining\n(default 1048576)", GR_OPT_FRONT}, set_max_code},
  {{"--max-source", "BYTES", "GPURACE_MAX_SOURCE", "refuse a kernel file, or its preprocessed text, larger than\nBYTES (default 67108864)", GR_OPT_FRONT}, set_max_source},
  {{"--max-nesting", "N", "GPURACE_MAX_NESTING", "refuse source nested deeper than N levels (default 200, at most\n1000: the recursive descent's share of the C stack)", GR_OPT_FRONT}, set_max_nesting},
  {{"--max-memory", "BYTES", "GPURACE_MAX_MEMORY", "refuse buffers and __device__ variables beyond BYTES of global\nmemory in all (default 8589934592)", GR_OPT_RUN}, set_max_memory},
  {{"--backend", "emu|cuda", NULL,
    "run on the emulator (default) or on the GPU (NVRTC and the\ndriver API; same output; no detectors, --stats or schedules there)", GR_OPT_RUN}, set_backend},
  {{"--one-per-turn", NULL, "GPURACE_ONE_PER_TURN",
    "never run a warp's own instructions ahead of its turns, and perform\nevery access lane by lane (in hb and hb-ptx too): the same run,\nslower (for testing that it is the same)", GR_OPT_RUN}, set_one_per_turn},
  {{"--engine", "interp|compiled|auto", "GPURACE_ENGINE",
    "execute with the interpreter (default), with the kernel compiled\nto native code by the system's C compiler (the same run, byte for\nbyte; cached on disk), or auto: compiled where cached already or\nwhere the launch runs long enough to pay for the compiler", GR_OPT_RUN}, set_engine},
  {{"--jit-cache", "DIR", "GPURACE_JIT_CACHE",
    "gpurace's disk cache: compiled kernels (at most 256 MiB), the\npreprocessor's outputs (pp/) and NVRTC's PTX (ptx/, at most 64 MiB\neach) (default $XDG_CACHE_HOME/gpurace, else ~/.cache/gpurace)", GR_OPT_RUN}, set_jit_cache},
};
#define NOPTIONS (sizeof options / sizeof *options)

const gr_option *gr_option_at(size_t k) { return k < NOPTIONS ? &options[k].o : NULL; }

int gr_config_option(gr_config *c, const char *opt, const char *val, char *err, size_t n) {
  for (size_t k = 0; k < NOPTIONS; k++) {
    const config_option *o = &options[k];
    /* a one-letter option takes its value attached too (-IDIR) */
    size_t nl = strlen(o->o.name);
    if (nl == 2 && o->o.arg && !strncmp(opt, o->o.name, 2) && opt[2]) return o->set(c, opt + 2, o->o.name, err, n) ? -1 : 1;
    if (strcmp(opt, o->o.name)) continue;
    if (!o->o.arg) return o->set(c, NULL, opt, err, n) ? -1 : 1;
    if (!val) { snprintf(err, n, "option '%s' needs a value", opt); return -1; }
    return o->set(c, val, opt, err, n) ? -1 : 2;
  }
  return 0;
}

/* The environment's value of option o into c: 0, or -1 with the message
 * (naming the variable) in err. */
static int from_env(gr_config *c, const config_option *o, char *err, size_t n) {
  const char *v = o->o.env ? getenv(o->o.env) : NULL;
  if (!v) return 0;
  if (!o->o.arg && (!strcmp(v, "0") || !*v)) return 0;
  if (!o->o.arg && strcmp(v, "1")) { snprintf(err, n, "%s takes 1 or 0, not '%s'", o->o.env, v); return -1; }
  return o->set(c, v, o->o.env, err, n);
}

static void config_defaults(gr_config *c) {
  memset(c, 0, sizeof *c);
  c->sms = 4;
  c->seed = 1;
  c->sched = GR_SCHED_RR;
  c->max_steps = 100000000ull;
  c->max_blocks_per_sm = 16;
  c->max_threads_per_sm = 2048;
  c->shared_per_sm = 100 * 1024;
  c->max_memory = (uint64_t)8 << 30;
  c->memory = GR_MEMORY_SC;
  c->cc = GR_CC_AUTO;
}

/* A variable with a bad value leaves its option at its default here;
 * gr_config_env says which, and every command of the CLI refuses to run
 * with it (never a silent default). */
void gr_config_default(gr_config *c) {
  config_defaults(c);
  char err[256];
  for (size_t k = 0; k < NOPTIONS; k++) from_env(c, &options[k], err, sizeof err);   /* a setter changes nothing on a bad value */
}

int gr_config_env(char *err, size_t n) {
  gr_config c;
  config_defaults(&c);
  for (size_t k = 0; k < NOPTIONS; k++)
    if (from_env(&c, &options[k], err, n)) return GR_EINPUT;
  return GR_OK;
}
