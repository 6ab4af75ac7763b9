/* The registry: every detector of the project, one line each. */
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
   scord_create_cached, scord_on_event, scord_destroy, NULL, 0, NULL},
  {"scord-nocache", "ScoRD base design: one metadata entry per tracked granule, no cache",
   scord_create_nocache, scord_on_event, scord_destroy, NULL, 0, NULL},
  {"hb", "exact happens-before oracle, global and shared memory, byte granularity (model from --hb-model, default scord)",
   hb_create, hb_on_event, hb_destroy, NULL, 0, NULL},
  {"hb-ptx", "the hb oracle in the PTX memory model (thread granularity, causality order, morally strong)",
   hb_create_ptx, hb_on_event, hb_destroy, NULL, 0, NULL},
  {"boyer", "Boyer et al. (2008): shared-memory RAW/WAR hazards from read/write counters between barriers (--boyer-waw adds WAW)",
   boyer_create, boyer_on_event, boyer_destroy, NULL, 0, NULL},
  {"boyer-banks", "Boyer et al. (2008): shared-memory bank conflicts per source line, 16 banks/half-warp and 32 banks/warp",
   boyer_banks_create, boyer_banks_on_event, boyer_banks_destroy, boyer_banks_summary, 0, NULL},
  {"ld", "LD (TACO 2017): value-based two-pass checking on private copies, inter-block then inter-warp; runs alone",
   ld_create, ld_on_event, ld_destroy, ld_summary, 1, ld_check_options},
  {"loopdep", "loop kernels (//@ loop): the exact oracle of violated cross-iteration dependencies (iterations in two warps, or out of sequential order in one)",
   loopdep_create, loopdep_on_event, loopdep_destroy, loopdep_summary, 0, NULL},
  {"wise", "WISE (Liu et al.): speculative reads and writes on write and read shadows, with the intra-warp cases lockstep allows",
   wise_create, wise_on_event, wise_destroy, wise_summary, 0, NULL},
  {"wise-fp", "WISE without its intra-warp cases: every other iteration's access is a dependency",
   wise_create_fp, wise_on_event, wise_destroy, wise_summary, 0, NULL},
  {"twopass", "two-pass inspector (Liu et al.): a WAW pass, then a RAW/WAR pass, on 64-bit shadows with intra-warp timestamps",
   twopass_create, twopass_on_event, twopass_destroy, twopass_summary, 0, NULL},
  {"twopass-fp", "the two-pass inspector without its intra-warp cases",
   twopass_create_fp, twopass_on_event, twopass_destroy, twopass_summary, 0, NULL},
  {"paragon", "Paragon, the baseline: read and write sets per thread, compared pairwise; any two iterations on one address with a write",
   paragon_create, paragon_on_event, paragon_destroy, paragon_summary, 0, NULL},
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

static int ld_option(det_options *o, const char *opt, const char *val, char *err, size_t n) {
  if (!strcmp(opt, "--ld-deterministic")) { o->ld_deterministic = 1; return 1; }
  if (!strcmp(opt, "--ld-timing")) { o->ld_timing = 1; return 1; }
  if (strcmp(opt, "--ld-targets") && strcmp(opt, "--ld-copies") && strcmp(opt, "--ld-shuffle") && strcmp(opt, "--ld-rounds")) return 0;
  if (!val) { snprintf(err, n, "option '%s' needs a value", opt); return -1; }
  uint64_t v;
  if (!strcmp(opt, "--ld-targets")) {
    if (!val[0] || val[0] == ',' || val[strlen(val) - 1] == ',' || strstr(val, ",,")) {
      snprintf(err, n, "--ld-targets takes buffer names separated by commas, not '%s'", val);
      return -1;
    }
    o->ld_targets = val;
  } else if (!strcmp(opt, "--ld-copies")) {
    if (!parse_count(val, 2, &v)) { snprintf(err, n, "--ld-copies takes a number of copies, 2 or more, not '%s'", val); return -1; }
    o->ld_copies = (int)v;
  } else if (!strcmp(opt, "--ld-shuffle")) {
    if (!parse_count(val, 1, &v)) { snprintf(err, n, "--ld-shuffle takes a seed, 1 or more, not '%s'", val); return -1; }
    o->ld_shuffle = v;
  } else {
    if (!parse_count(val, 1, &v) || v > 64) { snprintf(err, n, "--ld-rounds takes a number of rounds from 1 to 64, not '%s'", val); return -1; }
    o->ld_rounds = (int)v;
  }
  return 2;
}

int det_options_option(det_options *o, const char *opt, const char *val, char *err, size_t n) {
  if (!strcmp(opt, "--boyer-waw")) { o->boyer_waw = 1; return 1; }
  if (!strncmp(opt, "--ld-", 5)) return ld_option(o, opt, val, err, n);
  if (!strcmp(opt, "--loop-arrays")) {
    if (!val || !*val || *val == '-') { snprintf(err, n, "--loop-arrays takes buffer names (A,B,...)"); return -1; }
    o->loop_arrays = val;
    return 2;
  }
  if (strcmp(opt, "--scord-granularity") && strcmp(opt, "--hb-model") && strcmp(opt, "--hb-max-memory") &&
      strcmp(opt, "--scord-device-memory"))
    return 0;
  if (!val) { snprintf(err, n, "option '%s' needs a value", opt); return -1; }
  if (!strcmp(opt, "--scord-device-memory")) {
    uint64_t kib;
    if (!parse_count(val, 1, &kib) || kib > ((uint64_t)1 << 40)) {
      snprintf(err, n, "--scord-device-memory takes a size in KiB (1 or more), not '%s'", val);
      return -1;
    }
    o->scord_device_memory = kib << 10;
    return 2;
  }
  if (!strcmp(opt, "--hb-max-memory")) {
    uint64_t mib;
    if (!parse_count(val, 1, &mib) || mib > ((uint64_t)1 << 40)) {
      snprintf(err, n, "--hb-max-memory takes a size in MiB (1 or more), not '%s'", val);
      return -1;
    }
    o->hb_max_memory = mib << 20;
    return 2;
  }
  if (!strcmp(opt, "--hb-model")) {
    if (!strcmp(val, "scord")) o->hb_model = HB_MODEL_SCORD;
    else if (!strcmp(val, "ptx")) o->hb_model = HB_MODEL_PTX;
    else { snprintf(err, n, "--hb-model takes scord or ptx, not '%s'", val); return -1; }
    return 2;
  }
  if (!strcmp(val, "4") || !strcmp(val, "8") || !strcmp(val, "16")) o->scord_granularity = atoi(val);
  else { snprintf(err, n, "--scord-granularity takes 4, 8 or 16, not '%s'", val); return -1; }
  return 2;
}

typedef struct { const detector_kind *kind; void *self; int handle; } attached;

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
    gr_observer obs = {k->on_event, a->self};
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
