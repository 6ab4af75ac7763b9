/* paragon: the baseline (Samadi et al., Paragon), as the paper describes
 * it (Section V): the speculative run logs a read set and a write set per
 * thread, and a count of reads and writes per element; the comparison
 * phase has each thread compare each of its write entries with its own
 * sets (the O(r w) step per thread the paper charges it with) to tell its
 * own accesses of the element from other iterations'; the decision phase
 * sums the conflicts.  A dependency is any pair of iterations on one
 * address with a write, whatever their order, so intra-warp accesses in
 * sequential order are dependencies too (its false positives).
 * kernels/loops/paragon.cuh is the same as instrumented CUDA.
 *
 * The sets are kept as Paragon sizes them: t threads x the largest number
 * of reads (writes) of one thread, plus the two counters of every element
 * touched, so the summary gives that memory; the comparison phase's work
 * is its entry comparisons, sum over threads of (r_i + w_i) w_i, counted;
 * the verdict comes from the entries sorted by address, each address's
 * first writer against the other iterations' entries, which finds the
 * same pairs. */
#include <stdlib.h>
#include <string.h>

#include "loops.h"
#include "util.h"

typedef struct {
  loop_arrays arrays;
  race_log *log;
  const char *name;
  vec log_entries;         /* loop_access: the read and write sets, in the order they were logged */
  pc_table pcs;
  uint64_t threads, max_reads, max_writes, reads, writes, comparisons, conflicts, elements;
} paragon;

void *paragon_create(gr_context *ctx, const det_options *o, race_log *log, const char *name) {
  paragon *p = xcalloc(1, sizeof *p);
  loop_arrays_init(&p->arrays, ctx, o);
  p->log = log;
  p->name = name;
  vec_init(&p->log_entries, sizeof(loop_access));
  return p;
}

void paragon_destroy(void *self) {
  paragon *p = self;
  loop_arrays_free(&p->arrays);
  vec_free(&p->log_entries);
  pc_table_free(&p->pcs);
  free(p);
}

static int cmp_entry(const void *a, const void *b) {
  const loop_access *x = a, *y = b;
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  if (x->iter != y->iter) return x->iter < y->iter ? -1 : 1;
  return (int)y->write - (int)x->write;
}

/* The comparison and decision phases. */
static void compare(paragon *p) {
  loop_access *e = p->log_entries.data;
  size_t n = p->log_entries.len;
  /* per thread: its reads and writes (the sets' sizes) */
  if (n > 1) qsort(e, n, sizeof *e, cmp_entry);
  for (size_t a = 0; a < n;) {
    size_t b = a;
    const loop_access *w = NULL;
    while (b < n && e[b].addr == e[a].addr) {
      if (e[b].write && !w) w = &e[b];
      b++;
    }
    p->elements++;
    if (w)
      for (size_t k = a; k < b; k++) {
        if (e[k].iter == w->iter) continue;
        p->conflicts++;
        const loop_access *first = w->iter < e[k].iter ? w : &e[k], *second = first == w ? &e[k] : w;
        loop_report(p->log, p->name, first->write && second->write ? "WAW" : first->write ? "RAW" : "WAR", &p->pcs, first,
                    second);
      }
    a = b;
  }
  p->log_entries.len = 0;
}

void paragon_on_event(void *self, const gr_event *ev) {
  paragon *p = self;
  if (ev->kind == GR_EV_LAUNCH_BEGIN) {
    p->log_entries.len = 0;
    p->threads = (uint64_t)ev->grid.x * ev->grid.y * ev->grid.z * ev->blockdim.x * ev->blockdim.y * ev->blockdim.z;
    p->reads = p->writes = p->max_reads = p->max_writes = 0;
    return;
  }
  if (ev->kind == GR_EV_LAUNCH_END) {
    /* the largest set of one thread sizes every thread's */
    loop_access *e = p->log_entries.data;
    size_t n = p->log_entries.len;
    uint64_t *rc = xcalloc(p->threads ? p->threads : 1, sizeof *rc), *wc = xcalloc(p->threads ? p->threads : 1, sizeof *wc);
    for (size_t k = 0; k < n; k++) {
      if (e[k].iter >= p->threads) continue;
      if (e[k].write) { if (++wc[e[k].iter] > p->max_writes) p->max_writes = wc[e[k].iter]; }
      else if (++rc[e[k].iter] > p->max_reads) p->max_reads = rc[e[k].iter];
    }
    p->comparisons = 0;
    for (uint64_t t = 0; t < p->threads; t++) p->comparisons += (rc[t] + wc[t]) * wc[t];
    free(rc);
    free(wc);
    p->elements = 0;
    compare(p);
    return;
  }
  loop_lane ln[32];
  int n = loop_lanes(&p->arrays, &p->pcs, ev, ln);
  for (int j = 0; j < n; j++)
    for (int k = 0; k < 2; k++) {
      int write = k == 1;
      if (write ? ev->access == GR_LOAD : ev->access == GR_STORE) continue;
      loop_access_of(vec_push(&p->log_entries), ev, ln[j].lane, ln[j].buffer, ln[j].offset, write);
      if (write) p->writes++;
      else p->reads++;
    }
}

void paragon_summary(void *self, FILE *out) {
  paragon *p = self;
  fprintf(out, "%s: %llu reads and %llu writes logged; sets of %llu threads x (%llu reads + %llu writes) x 8 bytes + "
          "counters of %llu elements x 8 bytes = %llu bytes; %llu entry comparisons; %llu conflicting pairs\n", p->name,
          (unsigned long long)p->reads, (unsigned long long)p->writes, (unsigned long long)p->threads,
          (unsigned long long)p->max_reads, (unsigned long long)p->max_writes, (unsigned long long)p->elements,
          (unsigned long long)(p->threads * (p->max_reads + p->max_writes) * 8 + p->elements * 8),
          (unsigned long long)p->comparisons, (unsigned long long)p->conflicts);
}
