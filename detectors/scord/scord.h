/* scord: the ScoRD detector (Kamath, George and Basu, "ScoRD: A Scoped Race
 * Detector for GPUs", ISCA 2020) as a golden model: its 8-byte metadata per
 * tracked granule, its fence file, lock tables and bloom filters, and its
 * software metadata cache, with the bounded counters and hashes of the
 * hardware design (so its false positives and negatives are the design's).
 * See docs/detectors.md. */
#ifndef GR_SCORD_H
#define GR_SCORD_H

#include "detectors.h"

void *scord_create_cached(gr_context *ctx, const det_options *o, race_log *log, const char *name);
void *scord_create_nocache(gr_context *ctx, const det_options *o, race_log *log, const char *name);
void scord_on_event(void *self, const gr_event *ev);
void scord_destroy(void *self);

/* The metadata word, exposed for the unit tests of its encoding. */
typedef struct {
  unsigned modified, blk_shared, dev_shared, is_atom, block_scope, strong;
  unsigned blk_fence, dev_fence;   /* 6 bits each */
  unsigned barrier;                /* 8 bits */
  unsigned bloom;                  /* 16 bits: two 8-bit bins */
  unsigned tag;                    /* 4 bits */
  unsigned warp;                   /* 5 bits: warp in block */
  unsigned block;                  /* 13 bits */
} scord_md;
uint64_t scord_md_pack(const scord_md *m);
void scord_md_unpack(uint64_t w, scord_md *m);
/* The 16-bit bloom filter of one lock (word address, scope key). */
unsigned scord_lock_bloom(uint64_t lock_word, uint64_t key);

#endif
