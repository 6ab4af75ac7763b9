/* textcache: texts a process computed once and asks for again (the
 * preprocessor's output, the CUDA compiler's PTX), kept under a key of
 * bytes that names everything the text came from.  Thread-safe (a verdict
 * table loads files on every core); bounded, the oldest text dropped
 * first. */
#ifndef GR_TEXTCACHE_H
#define GR_TEXTCACHE_H

#include <pthread.h>
#include <stddef.h>

#include "util.h"

typedef struct text_entry text_entry;
typedef struct {
  pthread_mutex_t lock;
  text_entry *head;   /* newest first */
  size_t bytes, max;  /* keys and texts held; the bound on them */
} text_cache;

#define TEXT_CACHE_INIT(max_bytes) {PTHREAD_MUTEX_INITIALIZER, NULL, 0, (max_bytes)}

/* A malloc'd, NUL-terminated copy of the text kept under key (klen bytes),
 * its length in *n; NULL if there is none. */
char *text_cache_get(text_cache *c, const void *key, size_t klen, size_t *n);

/* Keeps copies of key and text (n bytes) unless the key is there already
 * or the pair is larger than a quarter of the bound. */
void text_cache_put(text_cache *c, const void *key, size_t klen, const char *text, size_t n);

/* Puts what a kernel file gives any text computed from it into a key: its
 * path, its defines and its contents (the caller adds the rest: the
 * compiler, its options). */
void text_key_file(bytes *k, const char *path, const char *text, size_t len, const char *const *defines, int ndefines);

#endif
