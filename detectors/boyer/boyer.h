/* boyer: the analyses of Boyer, Skadron and Weimer, "Automated Dynamic
 * Analysis of CUDA Programs" (STMCS 2008), on shared memory.
 *   boyer        race hazards: per-location read and write counters since
 *                the last barrier, and each thread's own counts; a thread
 *                flags a location read and written, by it and by another
 *                thread (RAW or WAR); --boyer-waw adds write-after-write.
 *   boyer-banks  bank conflicts of every shared-memory instruction, per
 *                source line, with 16 banks over half-warps (the paper's
 *                hardware) and 32 banks over a warp (current hardware).
 * See docs/detectors.md. */
#ifndef GR_BOYER_H
#define GR_BOYER_H

#include "detectors.h"

void *boyer_create(gr_context *ctx, const det_options *o, race_log *log, const char *name);
void boyer_on_event(void *self, const gr_event *ev);
void boyer_destroy(void *self);

void *boyer_banks_create(gr_context *ctx, const det_options *o, race_log *log, const char *name);
void boyer_banks_on_event(void *self, const gr_event *ev);
void boyer_banks_destroy(void *self);
void boyer_banks_summary(void *self, FILE *out);

/* The conflict degree of one request: the most distinct 4-byte words that
 * the active lanes of `mask` touch in one of `banks` banks (1 when no two
 * different words share a bank; 0 when no lane is active). */
int boyer_bank_degree(const uint64_t *addr, uint32_t mask, int size, int banks);

#endif
