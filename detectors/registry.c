/* The registry: every detector of the project, one line each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "detectors.h"
#include "boyer/boyer.h"
#include "hb/hb.h"
#include "ld/ld.h"
#include "loops/loops.h"
#include "scord/scord.h"
#include "util.h"

static const detector_kind registry[] = {
  {"scord", "ScoRD (ISCA 2020): scoped races from per-word metadata, with the 16-word metadata cache",
   scord_create_cached, scord_on_event, scord_destroy, NULL, 0, NULL, 0, 0},
  {"scord-nocache", "ScoRD base design: one metadata entry per tracked granule, no cache",
   scord_create_nocache, scord_on_event, scord_destroy, NULL, 0, NULL, 0, 0},
  {"hb", "exact happens-before oracle, global and shared memory, byte granularity (model from --hb-model, default scord)",
   hb_create, hb_on_event, hb_destroy, NULL, 0, NULL, 1, 1},
  {"hb-ptx", "the hb oracle in the PTX memory model (thread granularity, causality order, morally strong)",
   hb_create_ptx, hb_on_event, hb_destroy, NULL, 0, NULL, 1, 1},
  {"boyer", "Boyer et al. (2008): shared-memory RAW/WAR hazards from read/write counters between barriers (--boyer-waw adds WAW)",
   boyer_create, boyer_on_event, boyer_destroy, NULL, 0, NULL, 0, 0},
  {"boyer-banks", "Boyer et al. (2008): shared-memory bank conflicts per source line, 16 banks/half-warp and 32 banks/warp",
   boyer_banks_create, boyer_banks_on_event, boyer_banks_destroy, boyer_banks_summary, 0, NULL, 0, 0},
  {"ld", "LD (TACO 2017): value-based two-pass checking on private copies, inter-block then inter-warp; runs alone",
   ld_create, ld_on_event, ld_destroy, ld_summary, 1, ld_check_options, 0, 0},
  {"loopdep", "loop kernels (//@ loop): the exact oracle of violated cross-iteration dependencies (iterations in two warps, or out of sequential order in one)",
   loopdep_create, loopdep_on_event, loopdep_destroy, loopdep_summary, 0, NULL, 0, 0},
  {"wise", "WISE (Liu et al.): speculative reads and writes on write and read shadows, with the intra-warp cases lockstep allows",
   wise_create, wise_on_event, wise_destroy, wise_summary, 0, NULL, 0, 0},
  {"wise-fp", "WISE without its intra-warp cases: every other iteration's access is a dependency",
   wise_create_fp, wise_on_event, wise_destroy, wise_summary, 0, NULL, 0, 0},
  {"twopass", "two-pass inspector (Liu et al.): a WAW pass, then a RAW/WAR pass, on 64-bit shadows with intra-warp timestamps",
   twopass_create, twopass_on_event, twopass_destroy, twopass_summary, 0, NULL, 0, 0},
  {"twopass-fp", "the two-pass inspector without its intra-warp cases",
   twopass_create_fp, twopass_on_event, twopass_destroy, twopass_summary, 0, NULL, 0, 0},
  {"paragon", "Paragon, the baseline: read and write sets per thread, compared pairwise; any two iterations on one address with a write",
   paragon_create, paragon_on_event, paragon_destroy, paragon_summary, 0, NULL, 0, 0},
};

#define NKINDS (sizeof registry / sizeof registry[0])

const detector_kind *detector_at(size_t k) { return k < NKINDS ? &registry[k] : NULL; }

const detector_kind *detector_lookup(const char *name) {
  for (size_t k = 0; k < NKINDS; k++) if (!strcmp(registry[k].name, name)) return &registry[k];
  return NULL;
}

void det_options_default(det_options *o) {
  memset(o, 0, sizeof *o);
  o->scord_granularity = 4;
  o->hb_model = HB_MODEL_SCORD;
  o->scord_device_memory = (uint64_t)1536 << 20;
}

/* A whole number of at least `min`. */
static int parse_count(const char *val, uint64_t min, uint64_t *out) {
  char *e;
  if (!val[0] || val[0] == '-') return 0;
  unsigned long long v = strtoull(val, &e, 10);
  if (*e || v < min || v > 1000000000ull) return 0;
  *out = v;
  return 1;
}

#define SETTER(fn) static int fn(det_options *o, const char *v, const char *name, char *err, size_t n)
#define BAD(...) do { snprintf(err, n, __VA_ARGS__); return -1; } while (0)

SETTER(set_granularity) {
  if (strcmp(v, "4") && strcmp(v, "8") && strcmp(v, "16")) BAD("%s takes 4, 8 or 16, not '%s'", name, v);
  o->scord_granularity = atoi(v);
  return 0;
}
SETTER(set_device_memory) {
  uint64_t kib;
  if (!parse_count(v, 1, &kib) || kib > ((uint64_t)1 << 40)) BAD("%s takes a size in KiB (1 or more), not '%s'", name, v);
  o->scord_device_memory = kib << 10;
  return 0;
}
SETTER(set_hb_model) {
  if (!strcmp(v, "scord")) o->hb_model = HB_MODEL_SCORD;
  else if (!strcmp(v, "ptx")) o->hb_model = HB_MODEL_PTX;
  else BAD("%s takes scord or ptx, not '%s'", name, v);
  return 0;
}
SETTER(set_hb_max_memory) {
  uint64_t mib;
  if (!parse_count(v, 1, &mib) || mib > ((uint64_t)1 << 40)) BAD("%s takes a size in MiB (1 or more), not '%s'", name, v);
  o->hb_max_memory = mib << 20;
  return 0;
}
SETTER(set_boyer_waw) { (void)v, (void)name, (void)err, (void)n; o->boyer_waw = 1; return 0; }
SETTER(set_ld_targets) {
  if (!v[0] || v[0] == ',' || v[strlen(v) - 1] == ',' || strstr(v, ",,")) BAD("%s takes buffer names separated by commas, not '%s'", name, v);
  o->ld_targets = v;
  return 0;
}
SETTER(set_ld_copies) {
  uint64_t x;
  if (!parse_count(v, 2, &x)) BAD("%s takes a number of copies, 2 or more, not '%s'", name, v);
  o->ld_copies = (int)x;
  return 0;
}
SETTER(set_ld_shuffle) {
  uint64_t x;
  if (!parse_count(v, 1, &x)) BAD("%s takes a seed, 1 or more, not '%s'", name, v);
  o->ld_shuffle = x;
  return 0;
}
SETTER(set_ld_rounds) {
  uint64_t x;
  if (!parse_count(v, 1, &x) || x > 64) BAD("%s takes a number of rounds from 1 to 64, not '%s'", name, v);
  o->ld_rounds = (int)x;
  return 0;
}
SETTER(set_ld_deterministic) { (void)v, (void)name, (void)err, (void)n; o->ld_deterministic = 1; return 0; }
SETTER(set_ld_timing) { (void)v, (void)name, (void)err, (void)n; o->ld_timing = 1; return 0; }
SETTER(set_loop_arrays) {
  if (!*v || *v == '-') BAD("%s takes buffer names (A,B,...)", name);
  o->loop_arrays = v;
  return 0;
}

/* The detectors' options, each declared once (gr_option_at's kind). */
static const struct {
  gr_option o;
  int (*set)(det_options *o, const char *v, const char *name, char *err, size_t n);
} options[] = {
  {{"--scord-granularity", "4|8|16", NULL, "bytes per ScoRD metadata entry (default 4)", GR_OPT_DETECTOR}, set_granularity},
  {{"--hb-model", "scord|ptx", NULL, "semantics of the hb detector (default scord)", GR_OPT_DETECTOR}, set_hb_model},
  {{"--scord-device-memory", "KIB", NULL,
    "the device memory scord's metadata cache covers (default\n1.5 GiB; granules a sixteenth of it apart share an entry)", GR_OPT_DETECTOR}, set_device_memory},
  {{"--hb-max-memory", "MIB", NULL,
    "hb and hb-ptx stop watching a launch whose detector state\npasses MIB MiB, and the run fails as not watched (default:\nno bound)", GR_OPT_DETECTOR}, set_hb_max_memory},
  {{"--boyer-waw", NULL, NULL, "the boyer detector also reports write-after-write hazards", GR_OPT_DETECTOR}, set_boyer_waw},
  {{"--ld-targets", "LIST", NULL,
    "ld privatises these buffers and __device__ variables (default:\nevery one the kernel writes, found by a plain run)", GR_OPT_DETECTOR}, set_ld_targets},
  {{"--ld-copies", "M", NULL,
    "ld: M private copies per pass (2 or more); rounds regroup the\nunits so that any race is found within ceil(log_M N) rounds", GR_OPT_DETECTOR}, set_ld_copies},
  {{"--ld-shuffle", "SEED", NULL, "ld: regroup at random each round (with --ld-rounds K rounds)", GR_OPT_DETECTOR}, set_ld_shuffle},
  {{"--ld-rounds", "K", NULL, "ld with --ld-shuffle: the number of rounds (default ceil(log_M N))", GR_OPT_DETECTOR}, set_ld_rounds},
  {{"--ld-deterministic", NULL, NULL,
    "ld merges the copies in warp order instead of checking: the\nresult is the same on every seed, racy kernels included", GR_OPT_DETECTOR}, set_ld_deterministic},
  {{"--ld-timing", NULL, NULL, "ld adds the time of each phase to its summary", GR_OPT_DETECTOR}, set_ld_timing},
  {{"--loop-arrays", "LIST", NULL,
    "loopdep, wise, wise-fp, paragon: the loop's arrays (default:\nthe file's //@ loop line)", GR_OPT_DETECTOR}, set_loop_arrays},
};
#define NOPTIONS (sizeof options / sizeof *options)

const gr_option *det_option_at(size_t k) { return k < NOPTIONS ? &options[k].o : NULL; }

int det_options_option(det_options *o, const char *opt, const char *val, char *err, size_t n) {
  for (size_t k = 0; k < NOPTIONS; k++) {
    if (strcmp(opt, options[k].o.name)) continue;
    if (!options[k].o.arg) return options[k].set(o, NULL, opt, err, n) ? -1 : 1;
    if (!val) { snprintf(err, n, "option '%s' needs a value", opt); return -1; }
    return options[k].set(o, val, opt, err, n) ? -1 : 2;
  }
  return 0;
}

typedef struct { const detector_kind *kind; void *self; int handle; race_log *log; } attached;

/* Every event on its way to a detector: one that does not model
 * asynchronous copies did not watch a launch that makes them. */
static void dispatch(void *p, const gr_event *ev) {
  attached *a = p;
  if (ev->kind == GR_EV_ASYNC_ISSUE && !a->kind->models_async)
    race_log_unwatched(a->log, a->kind->name, "asynchronous copies (cp.async) are outside its model: it did not watch the launch (hb-ptx models them)");
  a->kind->on_event(a->self, ev);
}

struct detector_set {
  gr_context *ctx;
  attached *d;
  size_t n;
};

static void set_err(char *err, size_t n, const char *fmt, const char *a) {
  if (err && n) snprintf(err, n, fmt, a);
}

int detectors_attach(gr_context *ctx, const char *list, const det_options *o, race_log *log,
                     detector_set **out, char *err, size_t errlen) {
  *out = NULL;
  detector_set *set = xcalloc(1, sizeof *set);
  set->ctx = ctx;
  set->d = xcalloc(NKINDS, sizeof *set->d);
  char name[64];
  const char *p = list;
  while (1) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == 0 || len >= sizeof name) {
      set_err(err, errlen, "bad detector list '%s' (names separated by commas)", list);
      detectors_detach(set);
      return GR_EINPUT;
    }
    memcpy(name, p, len);
    name[len] = 0;
    const detector_kind *k = detector_lookup(name);
    if (!k) {
      set_err(err, errlen, "unknown detector '%s' (see 'gpurace detectors')", name);
      detectors_detach(set);
      return GR_EINPUT;
    }
    for (size_t j = 0; j < set->n; j++) {
      if (set->d[j].kind == k) {
        set_err(err, errlen, "detector '%s' named twice", name);
        detectors_detach(set);
        return GR_EINPUT;
      }
    }
    if (set->n && (k->runs_alone || set->d[0].kind->runs_alone)) {
      set_err(err, errlen, "detector '%s' steers execution and runs alone: give it a run of its own",
              k->runs_alone ? name : set->d[0].kind->name);
      detectors_detach(set);
      return GR_EINPUT;
    }
    char why[256];
    if (k->check_options && k->check_options(o, why, sizeof why)) {
      set_err(err, errlen, "%s", why);
      detectors_detach(set);
      return GR_EINPUT;
    }
    attached *a = &set->d[set->n];
    a->kind = k;
    a->self = k->create(ctx, o, log, k->name);
    a->log = log;
    gr_observer obs = {dispatch, a, k->skip_race_free ? GR_OBSERVE_SKIP_RACE_FREE : 0};
    a->handle = gr_observe(ctx, &obs);
    set->n++;
    if (a->handle < 0) {
      set_err(err, errlen, "%s", gr_error(ctx));
      detectors_detach(set);
      return GR_EINPUT;
    }
    if (!e) break;
    p = e + 1;
  }
  *out = set;
  return GR_OK;
}

void detectors_detach(detector_set *set) {
  if (!set) return;
  for (size_t k = 0; k < set->n; k++) {
    if (set->d[k].handle >= 0) gr_unobserve(set->ctx, set->d[k].handle);
    set->d[k].kind->destroy(set->d[k].self);
  }
  free(set->d);
  free(set);
}

size_t detectors_size(const detector_set *set) { return set->n; }
void *detectors_instance(const detector_set *set, size_t k) { return k < set->n ? set->d[k].self : NULL; }

void detectors_summary(const detector_set *set, FILE *out) {
  for (size_t k = 0; k < set->n; k++)
    if (set->d[k].kind->print_summary) set->d[k].kind->print_summary(set->d[k].self, out);
}
const char *detectors_name(const detector_set *set, size_t k) { return k < set->n ? set->d[k].kind->name : NULL; }
