#include "util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct arena_block { arena_block *next; size_t used, cap; _Alignas(16) unsigned char data[]; };

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) { fputs("gpurace: out of memory\n", stderr); exit(3); }
  return p;
}
void *xcalloc(size_t n, size_t m) {
  void *p = calloc(n ? n : 1, m ? m : 1);
  if (!p) { fputs("gpurace: out of memory\n", stderr); exit(3); }
  return p;
}
void *xcalloc_lines(size_t n, size_t m) {
  if (m && n > (SIZE_MAX - 63) / m) { fputs("gpurace: out of memory\n", stderr); exit(3); }
  size_t bytes = (n * m + 63) & ~(size_t)63;
  void *p = aligned_alloc(64, bytes ? bytes : 64);
  if (!p) { fputs("gpurace: out of memory\n", stderr); exit(3); }
  return memset(p, 0, bytes ? bytes : 64);
}
void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p) { fputs("gpurace: out of memory\n", stderr); exit(3); }
  return p;
}
char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

/* n bytes of the arena, not cleared (a vector's growth copies over them) */
static void *arena_alloc_raw(arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  arena_block *b = a->head;
  if (!b || b->cap - b->used < n) {
    size_t cap = n > 65536 ? n : 65536;
    b = xmalloc(sizeof *b + cap);
    b->next = a->head; b->used = 0; b->cap = cap;
    a->head = b;
  }
  void *p = b->data + b->used;
  b->used += n;
  return p;
}

void *arena_alloc(arena *a, size_t n) { return memset(arena_alloc_raw(a, n), 0, n); }

char *arena_strndup(arena *a, const char *s, size_t n) {
  char *p = arena_alloc(a, n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *arena_printf(arena *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = arena_alloc(a, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

void strbuf_printf(strbuf *b, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
    va_end(ap);
    if (b->p && (size_t)w < b->cap - b->n) { b->n += (size_t)w; return; }
    b->cap = (b->cap + (size_t)w + 1) * 2;
    b->p = xrealloc(b->p, b->cap);
  }
}

void arena_free(arena *a) {
  while (a->head) { arena_block *n = a->head->next; free(a->head); a->head = n; }
}

void vec_init(vec *v, size_t item) { v->data = NULL; v->len = v->cap = 0; v->item = item; v->ar = NULL; }
void vec_init_arena(vec *v, size_t item, arena *a) { vec_init(v, item); v->ar = a; }
void *vec_push(vec *v) {
  if (v->len == v->cap) {
    size_t ncap = v->cap ? v->cap * 2 : 16;
    if (v->ar) {
      void *n = arena_alloc_raw(v->ar, ncap * v->item);   /* each item is cleared as it is pushed */
      if (v->len) memcpy(n, v->data, v->len * v->item);
      v->data = n;
    } else v->data = xrealloc(v->data, ncap * v->item);
    v->cap = ncap;
  }
  void *p = (char *)v->data + v->len++ * v->item;
  return memset(p, 0, v->item);
}
void *vec_at(const vec *v, size_t i) { return (char *)v->data + i * v->item; }
void vec_free(vec *v) { if (!v->ar) free(v->data); v->data = NULL; v->len = v->cap = 0; }

void bytes_reserve(bytes *b, size_t n) {
  if (b->len + n <= b->cap) return;
  while (b->len + n > b->cap) b->cap = b->cap ? b->cap * 2 : 4096;
  b->p = xrealloc(b->p, b->cap);
}

void diag_fail(diag *d, srcpos p, const char *fmt, ...) {
  char body[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  if (!d->failed) {
    if (p.file) snprintf(d->msg, sizeof d->msg, "%s:%d:%d: error: %s", p.file, p.line, p.col, body);
    else snprintf(d->msg, sizeof d->msg, "error: %s", body);
    d->failed = 1;
  }
  if (d->bail) longjmp(*d->bail, 1);
  abort(); /* every caller installs a bail point; reaching here is a bug */
}

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
void rng_seed(rng *r, uint64_t seed) {
  for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}
static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
uint64_t rng_next(rng *r) {
  uint64_t *s = r->s;
  uint64_t res = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
  return res;
}
uint32_t rng_below(rng *r, uint32_t n) {
  /* Lemire's multiply-shift; bias is below 2^-32 and identical on every host. */
  return (uint32_t)(((rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* Eight bytes a step (a byte a step was a quarter of an exhaustive
 * search's time): multiply and fold, then a finaliser that spreads every
 * input bit over the low bits that pick a slot (an exhaustive search's
 * visited set, its owner rank; a text cache's entry). */
uint64_t hash_bytes(const void *key, size_t n) {
  const uint8_t *p = key;
  uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
  size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    uint64_t w;
    memcpy(&w, p + k, 8);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  if (k < n) {
    uint64_t w = 0;
    for (size_t j = 0; k + j < n; j++) w |= (uint64_t)p[k + j] << (8 * j);
    h = (h ^ w) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

uint64_t hash_fnv(uint64_t h, const void *p, size_t n) {
  const uint8_t *s = p;
  for (size_t k = 0; k < n; k++) h = (h ^ s[k]) * 0x100000001b3ull;
  return h;
}

int text_has(const char *t, size_t n, const char *w) {
  size_t wl = strlen(w);
  for (size_t i = 0; i + wl <= n; i++) {
    const char *c = memchr(t + i, w[0], n - wl + 1 - i);
    if (!c) return 0;
    i = (size_t)(c - t);
    if (!memcmp(c, w, wl)) return 1;
  }
  return 0;
}
