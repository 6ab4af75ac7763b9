/* textcache: see textcache.h.  A list is enough: a process keeps a text
 * per file, defines and compiler, and a hash of the key spares the
 * comparison of keys that hold whole files. */
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct text_entry {
  text_entry *next;
  uint64_t hash;
  char *key, *text;
  size_t klen, n;
};

static text_entry *find(text_cache *c, const void *key, size_t klen, uint64_t h) {
  for (text_entry *e = c->head; e; e = e->next)
    if (e->hash == h && e->klen == klen && !memcmp(e->key, key, klen)) return e;
  return NULL;
}

char *text_cache_get(text_cache *c, const void *key, size_t klen, size_t *n) {
  uint64_t h = hash_bytes(key, klen);
  char *out = NULL;
  pthread_mutex_lock(&c->lock);
  text_entry *e = find(c, key, klen, h);
  if (e) {
    out = xmalloc(e->n + 1);
    memcpy(out, e->text, e->n + 1);
    *n = e->n;
  }
  pthread_mutex_unlock(&c->lock);
  return out;
}

static void entry_free(text_entry *e) {
  free(e->key);
  free(e->text);
  free(e);
}

void text_cache_put(text_cache *c, const void *key, size_t klen, const char *text, size_t n) {
  if (klen + n > c->max / 4) return;
  uint64_t h = hash_bytes(key, klen);
  text_entry *e = xcalloc(1, sizeof *e);
  e->hash = h;
  e->key = xmalloc(klen ? klen : 1);
  memcpy(e->key, key, klen);
  e->klen = klen;
  e->text = xmalloc(n + 1);
  memcpy(e->text, text, n);
  e->text[n] = 0;
  e->n = n;
  pthread_mutex_lock(&c->lock);
  if (find(c, key, klen, h)) {   /* another thread kept it first */
    pthread_mutex_unlock(&c->lock);
    entry_free(e);
    return;
  }
  e->next = c->head;
  c->head = e;
  c->bytes += klen + n;
  while (c->bytes > c->max) {   /* the oldest goes: the list's tail */
    text_entry **last = &c->head;
    while ((*last)->next) last = &(*last)->next;
    text_entry *old = *last;
    *last = NULL;
    c->bytes -= old->klen + old->n;
    entry_free(old);
  }
  pthread_mutex_unlock(&c->lock);
}

void text_key_file(bytes *k, const char *path, const char *text, size_t len, const char *const *defines, int ndefines) {
  bytes_put(k, path, strlen(path) + 1);
  bytes_put(k, &ndefines, sizeof ndefines);
  for (int d = 0; d < ndefines; d++) bytes_put(k, defines[d], strlen(defines[d]) + 1);
  bytes_put(k, text, len);
}
