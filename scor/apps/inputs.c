/* inputs: glibc's rand(), the R-MAT graphs and divide() of the ScoR
 * applications (inputs.h). */
#include <stdlib.h>

#include "inputs.h"

/* glibc's TYPE_3 generator: 31 words of state seeded by a Lehmer
 * generator (Schrage's method), the first 310 outputs discarded, then
 * r[i] = r[i-31] + r[i-3] and output r[i] >> 1. */
void glibc_srand(glibc_rand *g, uint32_t seed) {
  int32_t r[31];
  r[0] = seed ? (int32_t)seed : 1;
  for (int i = 1; i < 31; i++) {
    int32_t hi = r[i - 1] / 127773, lo = r[i - 1] % 127773;
    int32_t word = 16807 * lo - 2836 * hi;
    if (word < 0) word += 2147483647;
    r[i] = word;
  }
  for (int i = 0; i < 31; i++) g->r[i] = r[i];
  for (int i = 31; i < 34; i++) g->r[i] = g->r[i - 31];
  g->i = 0;   /* the next value goes over the oldest of the ring's 34 */
  for (int k = 0; k < 310; k++) glibc_rand_next(g);
}

int glibc_rand_next(glibc_rand *g) {
  /* the ring holds the last 34 values; g->i is where the next one goes */
  int i = g->i;
  uint32_t v = (uint32_t)g->r[(i + 34 - 31) % 34] + (uint32_t)g->r[(i + 34 - 3) % 34];
  g->r[i] = (int32_t)v;
  g->i = (i + 1) % 34;
  return (int)(v >> 1);
}

typedef struct { int u, v; } edge;

static int edge_cmp(const void *x, const void *y) {
  const edge *a = x, *b = y;
  return a->u != b->u ? (a->u > b->u) - (a->u < b->u) : (a->v > b->v) - (a->v < b->v);
}

int app_rmat(uint32_t seed, int V, int E, int *u, int *v) {
  if (V < 2 || E < 0 || (double)E > (double)V * (V - 1) / 2) return -1;
  int scale = 0;
  while ((1L << scale) < V) scale++;
  size_t cap = 16;
  while (cap < (size_t)E * 2 + 2) cap <<= 1;
  uint64_t *seen = calloc(cap, sizeof *seen);   /* open addressing, key u * V + v + 1 */
  edge *es = malloc(sizeof *es * (size_t)(E ? E : 1));
  if (!seen || !es) { free(seen); free(es); return -1; }
  glibc_rand g;
  glibc_srand(&g, seed);
  int n = 0;
  for (uint64_t tries = 0; n < E; tries++) {
    if (tries > 1000 * (uint64_t)E + 1000) { free(seen); free(es); return -1; }   /* R-MAT's skew cannot give E distinct edges */
    long r = 0, c = 0;
    for (int l = 0; l < scale; l++) {
      double p = glibc_rand_next(&g) / 2147483648.0;
      int q = p < 0.57 ? 0 : p < 0.76 ? 1 : p < 0.95 ? 2 : 3;
      r = r * 2 + (q >> 1);
      c = c * 2 + (q & 1);
    }
    if (r >= V || c >= V || r == c) continue;
    int a = (int)(r < c ? r : c), b = (int)(r < c ? c : r);
    uint64_t key = (uint64_t)a * (uint64_t)V + (uint64_t)b + 1;
    size_t h = (size_t)(key * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
    while (seen[h] && seen[h] != key) h = (h + 1) & (cap - 1);
    if (seen[h]) continue;
    seen[h] = key;
    es[n].u = a;
    es[n].v = b;
    n++;
  }
  qsort(es, (size_t)E, sizeof *es, edge_cmp);
  for (int k = 0; k < E; k++) { u[k] = es[k].u; v[k] = es[k].v; }
  free(seen);
  free(es);
  return 0;
}

void ref_mm(const int *A, const int *B, int rA, int cA, int cB, int *ref) {
  for (int r = 0; r < rA; r++)
    for (int k = 0; k < cA; k++)
      for (int c = 0; c < cB; c++) ref[r * cB + c] += A[r * cA + k] * B[k * cB + c];
}

static int find(int *p, int x) {
  while (p[x] != x) x = p[x] = p[p[x]];
  return x;
}

int ref_gcon(const int *eu, const int *ev, int V, int E, int *ref) {
  for (int x = 0; x < V; x++) ref[x] = x;
  for (int e = 0; e < E; e++) {
    int r1 = find(ref, eu[e]), r2 = find(ref, ev[e]);
    if (r1 != r2) ref[r1 > r2 ? r1 : r2] = r1 > r2 ? r2 : r1;   /* the smaller id stays the root */
  }
  int comps = 0;
  for (int x = 0; x < V; x++) { ref[x] = find(ref, x); comps += ref[x] == x; }
  return comps;
}

typedef struct { unsigned char height, seed, number; } node;

int ref_uts(int nb, int maxHeight, int avg, int seed, long *nodes, long *leaves) {
  size_t cap = 1024, n = 0;
  node *st = malloc(sizeof *st * cap);
  if (!st) return -1;
  *nodes = nb;
  *leaves = 0;
  for (int i = 0; i < nb; i++) st[n++] = (node){0, (unsigned char)(seed % 255), (unsigned char)((i + 1) % 255)};
  while (n) {
    node p = st[--n];
    unsigned num = ((unsigned)p.seed * p.number + 5u) % 255u;
    int kids = p.height + 1 >= maxHeight ? 0 : (int)(num % (unsigned)(2 * avg - 1)) + 1;
    *nodes += kids;
    if (!kids) ++*leaves;
    if (n + (size_t)kids > cap) {
      node *more = realloc(st, sizeof *st * (cap *= 2));
      if (!more) { free(st); return -1; }
      st = more;
    }
    for (int k = 1; k <= kids; k++) st[n++] = (node){(unsigned char)(p.height + 1), (unsigned char)num, (unsigned char)k};
  }
  free(st);
  return 0;
}

void ref_r110(int *cells, int size, int steps) {
  int *next = malloc(sizeof(int) * (size_t)(size ? size : 1));
  if (!next) abort();
  for (int s = 0; s < steps; s++) {
    for (int c = 0; c < size; c++) {
      int v = 4 * (c > 0 ? cells[c - 1] : 0) + 2 * cells[c] + (c + 1 < size ? cells[c + 1] : 0);
      next[c] = (110 >> v) & 1;
    }
    for (int c = 0; c < size; c++) cells[c] = next[c];
  }
  free(next);
}

double ref_conv(const float *in, const float *filter, int n, int f, float *out) {
  double total = 0;
  for (int o = 0; o < n; o++) {
    float s = 0;
    for (int t = 0; t < f; t++) {
      int i = o - t + f / 2;
      if (i >= 0 && i < n) s += filter[t] * in[i];
    }
    out[o] = s;
    total += s;
  }
  return total;
}

void ref_gcol_check(const int *cset, const int *vcol, int V, const int *eu, const int *ev, int E, int *uncoloured, int *first,
                    int *clashes, int *maxc) {
  *uncoloured = *clashes = *maxc = 0;
  *first = -1;
  for (int x = 0; x < V; x++) {
    int c = cset[x] * 32 + vcol[x];
    if (vcol[x] < 1 || vcol[x] > 32) { ++*uncoloured; if (*first < 0) *first = x; }
    if (c > *maxc) *maxc = c;
  }
  for (int e = 0; e < E; e++) *clashes += cset[eu[e]] == cset[ev[e]] && vcol[eu[e]] == vcol[ev[e]];
}

void app_divide(int n, int nb, int *head, int *tail) {
  int per = n / nb;
  for (int i = 0; i < nb; i++) {
    head[i] = i * per;
    tail[i] = (i + 1) * per;
  }
  tail[nb - 1] = n;
}
