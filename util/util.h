/* util: arenas, growable arrays, diagnostics, a seeded RNG and allocation
 * that dies on exhaustion, shared by every folder, and the
 * process's cache of computed texts.  The bottom layer: it includes no
 * other folder.  Not part of the installed interface. */
#ifndef GR_UTIL_H
#define GR_UTIL_H

#include <pthread.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* An arena owns every allocation of one compilation: the front end bails out
 * of errors with longjmp, and freeing the arena is then the whole clean-up. */
typedef struct arena_block arena_block;
typedef struct { arena_block *head; } arena;

void *arena_alloc(arena *a, size_t n);          /* zero-filled */
char *arena_strndup(arena *a, const char *s, size_t n);
char *arena_printf(arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A growing string (p NUL-terminated once anything was written; free(p)). */
typedef struct { char *p; size_t n, cap; } strbuf;
void strbuf_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void arena_free(arena *a);

/* Growable array of fixed-size items, malloc-backed. */
typedef struct { void *data; size_t len, cap, item; arena *ar; } vec;
void vec_init(vec *v, size_t item);
/* An arena-backed vector needs no freeing: error paths that longjmp leak nothing. */
void vec_init_arena(vec *v, size_t item, arena *a);
void *vec_push(vec *v);                          /* returns zeroed new slot */
void *vec_at(const vec *v, size_t i);
void vec_free(vec *v);

/* A growable byte string (state keys of exhaustive runs). */
typedef struct { uint8_t *p; size_t len, cap; } bytes;
void bytes_reserve(bytes *b, size_t n);   /* room for n more bytes */
/* inline: a state key is built from thousands of 8-byte pieces, whose
 * copies the compiler then makes without a call */
/* A 64-bit hash of n bytes, eight at a time, every input bit spread over
 * the low bits. */
uint64_t hash_bytes(const void *key, size_t n);
/* FNV-1a, 64 bits, of n bytes, going on from h (HASH_FNV_SEED to start):
 * byte at a time, so a hash of pieces is the hash of their concatenation
 * (the digests gr_digest_bytes prints, the compiled engine's keys, the
 * disk cache's second hash of a file). */
#define HASH_FNV_SEED 0xcbf29ce484222325ull
uint64_t hash_fnv(uint64_t h, const void *p, size_t n);
static inline void bytes_put(bytes *b, const void *p, size_t n) {
  if (b->len + n > b->cap) bytes_reserve(b, n);
  memcpy(b->p + b->len, p, n);
  b->len += n;
}

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t m);
/* xcalloc on a 64-byte boundary (a cache line): for arrays that vector
 * loops read, which then never load across two lines; free() frees it */
void *xcalloc_lines(size_t n, size_t m);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* Whether the n bytes at t hold the string w anywhere. */
int text_has(const char *t, size_t n, const char *w);

/* A source position: file name (interned, lives as long as the module),
 * 1-based line and column. */
typedef struct { const char *file; int line, col; } srcpos;

/* Diagnostics: the first error of a compilation, as "file:line:col: error: msg". */
typedef struct {
  jmp_buf *bail;       /* where to longjmp on error, or NULL */
  char msg[1024];
  int failed;
  int ill_formed;      /* the error is one of C++ itself, not of the subset: no skipped host declaration hides it */
} diag;

_Noreturn void diag_fail(diag *d, srcpos p, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* xoshiro256** seeded by splitmix64: fast, good, and identical on every host. */
typedef struct { uint64_t s[4]; } rng;
void rng_seed(rng *r, uint64_t seed);
uint64_t rng_next(rng *r);
uint32_t rng_below(rng *r, uint32_t n);         /* uniform in [0, n) */

/* ---------------------------------------------------------------- textcache
 *
 * Texts a process computed once and asks for again (the
 * preprocessor's output, the CUDA compiler's PTX), kept under a key of
 * bytes that names everything the text came from.  Thread-safe (a verdict
 * table loads files on every core); bounded, the oldest text dropped
 * first (textcache.c). */
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

/* ---------------------------------------------------------------- diskcache
 *
 * Texts kept on disk across runs (diskcache.c), each with the conditions
 * under which it is still the text its key names: files whose contents
 * went into it, folders in which a new file would have changed it (their
 * entries unchanged), paths that must not exist.  An entry whose key is
 * not the caller's byte for byte, that is damaged, or whose conditions no
 * longer hold is a miss, never a wrong text. */

/* The cache's folder: dir where it is not empty, else
 * $XDG_CACHE_HOME/gpurace, ~/.cache/gpurace, /tmp/gpurace-cache-UID. */
void disk_cache_dir(const char *dir, char *out, size_t n);
int disk_mkdirs(const char *path);   /* mkdir -p: 0, or -1 with errno */
/* The cache's folder kind (pp, ptx) in dir (disk_cache_dir's), made, in
 * out: 0, or -1 (out "") where it cannot be made or written, so that
 * nothing is kept there (a miss at every run would ask for its
 * conditions every time). */
int disk_cache_sub(const char *dir, const char *kind, char *out, size_t n);
/* Whether path names a regular file of its own, whose identity the cache
 * can hold a text to: not a pipe, nor /dev/stdin or /proc/... linked to
 * another. */
int disk_regular_file(const char *path);
/* Conditions, appended to c: the file at path has these n bytes; the
 * file or folder at path is the one there now, unchanged since (its
 * device, inode, modification and change times: a folder's entries, a
 * program), or, where nothing is there, still nothing. */
void disk_cond_file(bytes *c, const char *path, const void *text, size_t n);
void disk_cond_path(bytes *c, const char *path);
/* The text of kind under key in dir (malloc'd, NUL-terminated, its length
 * in *n), or NULL. */
char *disk_cache_get(const char *dir, const char *kind, const void *key, size_t klen, size_t *n);
/* Keeps text under key with its conditions (silently not, where dir cannot
 * be written); at one put in 16, removes the least recently used entries
 * of kind while they hold more than max bytes. */
void disk_cache_put(const char *dir, const char *kind, const void *key, size_t klen, const bytes *conds, const char *text,
                    size_t n, uint64_t max);
/* Removes the least recently used entries of kind in dir (files named
 * KIND-NAME followed by suffix, NAME without a '.') while they hold more
 * than max bytes, and the other files named KIND-... (a writer's, whose
 * process died) once they are an hour old. */
void disk_trim(const char *dir, const char *kind, const char *suffix, uint64_t max);

/* A compiler whose dependencies are not known (NVRTC says nothing of the
 * headers it read) is keyed by the trees it may read from.  Appends to k
 * the identity of the tree at root: each file, folder and link below it,
 * by path in name order, with its type, device, inode, size and
 * modification and change times (links only to targets inside the
 * tree); with scan, every regular file's #include lines are also checked
 * to stay in the tree (disk_includes_stay), and a link is refused (its ..
 * would climb from where it points).  0, or -1 where the
 * tree cannot be vouched for: a folder that cannot be read, a link out of
 * it, an include that may leave it, more than *budget entries (counted
 * down, so that one budget bounds several trees) or more than 8 MiB to
 * scan.  Files outside the tree that an unscanned file reaches (an
 * installed toolkit's, by ..) are not seen. */
int disk_tree_key(bytes *k, const char *root, int scan, size_t *budget);
/* Whether every #include (and #include_next, #import) of text names a
 * file by a relative path that climbs no .. and is written as <x> or
 * "x", not by a macro; and whether the text asks nothing else of the file
 * system or the clock (__has_include, __DATE__, __TIME__, __TIMESTAMP__).
 * A directive it cannot read (a comment before its name) that mentions
 * include is a no. */
int disk_includes_stay(const char *text, size_t n);

#endif
