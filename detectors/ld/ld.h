/* ld: the value-based two-pass race detector of Li et al., "LD: Low-Overhead
 * GPU Race Detection Without Access Monitoring" (TACO 2017), as a golden
 * model on the emulator.
 *
 * LD watches no access.  It privatises the data a region may race on (a
 * per-unit memory view of every target), runs the region, and compares
 * values: two units that changed one byte race write-write (pass 1); a unit
 * that, rerun on the union of the others' results, ends with a different
 * copy read something another unit wrote (pass 2, read-write).  Blocks are
 * checked against each other over the whole kernel (the global AP region),
 * then the warps of each block between its barriers (local AP regions),
 * with the block's shared memory and its view of global memory privatised
 * per warp.  Execution is steered through whole-machine snapshots (to run
 * the kernel again) and block snapshots (to run a region again), so ld
 * runs alone: it cannot share a run with other detectors.
 *
 * See docs/detectors.md, section "ld", for the runs, the options and what
 * LD cannot see. */
#ifndef GR_LD_H
#define GR_LD_H

#include "detectors.h"

void *ld_create(gr_context *ctx, const det_options *o, race_log *log, const char *name);
void ld_on_event(void *self, const gr_event *ev);
void ld_destroy(void *self);
void ld_summary(void *self, FILE *out);
/* Options that contradict each other: -1 with the message in err. */
int ld_check_options(const det_options *o, char *err, size_t n);

/* What one detector instance found, for benchmarks and tests. */
enum { LD_PH_TARGETS, LD_PH_INIT, LD_PH_PASS1, LD_PH_CHECK, LD_PH_INIT2, LD_PH_PASS2, LD_PH_CHECK2, LD_PH_COPYBACK, LD_NPHASES };
typedef struct {
  uint64_t ww_bytes, rw_bytes;  /* racy bytes found (a byte counts once per region) */
  uint64_t intra_bytes;         /* intra-warp write-write: bytes */
  uint64_t shared_bytes_racy, global_bytes_racy;
  uint64_t units;               /* distinct warps and blocks named in a race */
  uint64_t addresses;           /* distinct racy addresses (bytes) */
  uint64_t regions, racy_regions;   /* AP regions analysed and found racy (global and local) */
  int block_rounds, warp_rounds;    /* rounds of the last launch */
  int block_copies, warp_copies;    /* private copies: of global targets per round; per resident block */
  uint64_t copy_bytes_peak;         /* the most bytes of private copies held at once */
  uint64_t merge_conflicts;         /* bytes two units wrote, merged by order (the deterministic mode,
                                       and the blocks' copies at the end of the inter-warp run) */
  uint64_t first_round_ww;          /* rounds: bit r set when pass 1 of inter-block round r found a race */
  double seconds[LD_NPHASES];       /* with --ld-timing: the breakdown of the paper's Figure 8 */
} ld_stats;
void ld_get_stats(void *self, ld_stats *out);
const char *ld_phase_name(int phase);

#endif
