/* Sparse vector clocks: see vclock.h. */
#include "vclock.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

static void heap_add(vc_heap *hp, int64_t d) {
  hp->bytes += (uint64_t)d;
  if (hp->bytes > hp->peak) hp->peak = hp->bytes;
}

vclock *vc_new(vc_heap *hp, uint32_t n, vclock *parent) {
  vclock *v = xmalloc(sizeof *v + (size_t)n * sizeof(vc_ent));
  v->refs = 1;
  v->n = n;
  v->block = UINT32_MAX;
  v->gen = 0;
  v->parent = parent ? vc_ref(parent) : NULL;
  heap_add(hp, (int64_t)(sizeof *v + (size_t)n * sizeof(vc_ent)));
  return v;
}

vclock *vc_ref(vclock *v) {
  if (v) v->refs++;
  return v;
}

void vc_unref(vc_heap *hp, vclock *v) {
  while (v && --v->refs == 0) {
    vclock *p = v->parent;
    heap_add(hp, -(int64_t)(sizeof *v + (size_t)v->n * sizeof(vc_ent)));
    free(v);
    v = p;
  }
}

uint32_t vc_find(const vc_ent *e, uint32_t n, uint32_t agent) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (e[mid].agent < agent) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && e[lo].agent == agent ? e[lo].clock : 0;
}

uint32_t vc_get(const vclock *v, uint32_t agent) {
  if (!v) return 0;
  uint32_t c = vc_find(v->e, v->n, agent);
  if (v->parent) {
    uint32_t p = vc_find(v->parent->e, v->parent->n, agent);
    if (p > c) c = p;
  }
  return c;
}

void vc_list_join(vc_heap *hp, vc_list *dst, const vc_ent *src, uint32_t n, const vclock *base) {
  /* the entries that add something, then one merge */
  uint32_t add = 0;
  for (uint32_t i = 0; i < n; i++) {
    if (base && vc_get(base, src[i].agent) >= src[i].clock) continue;
    if (vc_find(dst->e, dst->n, src[i].agent) >= src[i].clock) continue;
    add++;
  }
  if (!add) return;
  uint32_t cap = dst->n + add;
  vc_ent *out = xmalloc((size_t)cap * sizeof *out);
  uint32_t i = 0, j = 0, k = 0;
  while (i < dst->n || j < n) {
    if (j < n && base && vc_get(base, src[j].agent) >= src[j].clock) { j++; continue; }
    if (j == n || (i < dst->n && dst->e[i].agent < src[j].agent)) out[k++] = dst->e[i++];
    else if (i == dst->n || src[j].agent < dst->e[i].agent) out[k++] = src[j++];
    else {
      out[k] = dst->e[i++];
      if (src[j].clock > out[k].clock) out[k].clock = src[j].clock;
      k++;
      j++;
    }
  }
  heap_add(hp, (int64_t)cap * (int64_t)sizeof *out - (int64_t)dst->cap * (int64_t)sizeof *out);
  free(dst->e);
  dst->e = out;
  dst->n = k;
  dst->cap = cap;
}

void vc_list_free(vc_heap *hp, vc_list *l) {
  heap_add(hp, -(int64_t)l->cap * (int64_t)sizeof *l->e);
  free(l->e);
  l->e = NULL;
  l->n = l->cap = 0;
}
