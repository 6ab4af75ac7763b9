/* Texts kept on disk across runs, each with the conditions it holds under
 * (util.h).  An entry is one file, written whole to a temporary name and
 * renamed (readers see an entry complete or not at all; two writers of one
 * key leave one of two equal texts):
 *
 *   "gpurace-cache 2\n", then three sections, each a u64 length and its
 *   bytes: the key, the conditions, the text; then a u64 hash of all that
 *   precedes it.
 *
 * A condition is a byte, a u32 length and a path, then 'F': the file's
 * size and two 64-bit hashes of its contents; 'D': the folder's device,
 * inode, modification and change times (an entry made, removed or renamed
 * in it changes both; the change time also where the modification time
 * was then set back, as tar, rsync -t and touch -d do); 'N': nothing (the
 * path must not exist).  An entry is
 * taken only where its key is the caller's, byte for byte (a hash names
 * the file, it never decides a hit), its checksum holds, and every
 * condition still does: a damaged, foreign or stale entry is a miss. */
#define _XOPEN_SOURCE 700   /* realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

static const char magic[] = "gpurace-cache 2\n";

void disk_cache_dir(const char *dir, char *out, size_t n) {
  const char *x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (dir && *dir) snprintf(out, n, "%s", dir);
  else if (x && *x) snprintf(out, n, "%s/gpurace", x);
  else if (home && *home) snprintf(out, n, "%s/.cache/gpurace", home);
  else snprintf(out, n, "/tmp/gpurace-cache-%u", (unsigned)getuid());
}

int disk_mkdirs(const char *path) {
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) return -1;
  for (char *p = buf + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      if (mkdir(buf, 0755) && errno != EEXIST) return -1;
      *p = '/';
    }
  return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

int disk_cache_sub(const char *dir, const char *kind, char *out, size_t n) {
  char top[4000];
  disk_cache_dir(dir, top, sizeof top);
  snprintf(out, n, "%s/%s", top, kind);
  if (disk_mkdirs(out) || access(out, W_OK)) { out[0] = 0; return -1; }
  return 0;
}

int disk_regular_file(const char *path) {
  struct stat st;
  return !stat(path, &st) && S_ISREG(st.st_mode) && strncmp(path, "/dev/", 5) && strncmp(path, "/proc/", 6);
}

/* The second, independent hash of a file's contents: with hash_bytes, 128
 * bits, so that a header edited to other bytes of the same size is never
 * taken for the old one. */
static uint64_t hash2(const void *p, size_t n) { return hash_fnv(HASH_FNV_SEED, p, n); }

/* A whole file of at most max bytes (malloc'd, NUL-terminated), or NULL. */
static char *read_all(const char *path, size_t max, size_t *n) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return NULL;
  struct stat st;
  if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > max) { close(fd); return NULL; }
  size_t want = (size_t)st.st_size, got = 0;
  char *buf = xmalloc(want + 1);
  while (got < want) {
    ssize_t r = read(fd, buf + got, want - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += (size_t)r;
  }
  close(fd);
  if (got != want) { free(buf); return NULL; }
  buf[got] = 0;
  *n = got;
  return buf;
}

static void put_u64(bytes *b, uint64_t v) { bytes_put(b, &v, sizeof v); }

static void put_path(bytes *c, char type, const char *path) {
  uint32_t n = (uint32_t)strlen(path);
  bytes_put(c, &type, 1);
  bytes_put(c, &n, sizeof n);
  bytes_put(c, path, n);
}

void disk_cond_file(bytes *c, const char *path, const void *text, size_t n) {
  put_path(c, 'F', path);
  put_u64(c, n);
  put_u64(c, hash_bytes(text, n));
  put_u64(c, hash2(text, n));
}

void disk_cond_path(bytes *c, const char *path) {
  struct stat st;
  if (stat(path, &st)) {
    put_path(c, 'N', path);
    return;
  }
  put_path(c, 'D', path);
  put_u64(c, (uint64_t)st.st_dev);
  put_u64(c, (uint64_t)st.st_ino);
  put_u64(c, (uint64_t)st.st_mtim.tv_sec);
  put_u64(c, (uint64_t)st.st_mtim.tv_nsec);
  put_u64(c, (uint64_t)st.st_ctim.tv_sec);
  put_u64(c, (uint64_t)st.st_ctim.tv_nsec);
}

/* A reader of an entry's bytes that fails, rather than reads past them. */
typedef struct { const uint8_t *p; size_t n, at; int bad; } rd;

static uint64_t get_u64(rd *r) {
  uint64_t v = 0;
  if (r->n - r->at < sizeof v) { r->bad = 1; r->at = r->n; return 0; }
  memcpy(&v, r->p + r->at, sizeof v);
  r->at += sizeof v;
  return v;
}

static const uint8_t *get_bytes(rd *r, uint64_t len) {
  if (r->bad || len > r->n - r->at) { r->bad = 1; r->at = r->n; return NULL; }
  const uint8_t *p = r->p + r->at;
  r->at += (size_t)len;
  return p;
}

/* Whether every condition of c (len bytes) holds now. */
static int conds_hold(const uint8_t *c, size_t len) {
  rd r = {c, len, 0, 0};
  while (r.at < r.n && !r.bad) {
    const uint8_t *type = get_bytes(&r, 1);
    uint32_t pl = 0;
    const uint8_t *pp = get_bytes(&r, sizeof pl);
    if (!type || !pp) return 0;
    memcpy(&pl, pp, sizeof pl);
    const uint8_t *name = get_bytes(&r, pl);
    if (!name || pl >= 4096) return 0;
    char path[4096];
    memcpy(path, name, pl);
    path[pl] = 0;
    struct stat st;
    if (*type == 'N') {
      if (!stat(path, &st)) return 0;
    } else if (*type == 'D') {
      uint64_t dev = get_u64(&r), ino = get_u64(&r), sec = get_u64(&r), nsec = get_u64(&r), csec = get_u64(&r), cnsec = get_u64(&r);
      if (r.bad || stat(path, &st) || (uint64_t)st.st_dev != dev || (uint64_t)st.st_ino != ino ||
          (uint64_t)st.st_mtim.tv_sec != sec || (uint64_t)st.st_mtim.tv_nsec != nsec || (uint64_t)st.st_ctim.tv_sec != csec ||
          (uint64_t)st.st_ctim.tv_nsec != cnsec)
        return 0;
    } else if (*type == 'F') {
      uint64_t size = get_u64(&r), h1 = get_u64(&r), h2 = get_u64(&r);
      if (r.bad || stat(path, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size != size) return 0;
      size_t n = 0;
      char *text = read_all(path, (size_t)size, &n);
      int same = text && n == size && hash_bytes(text, n) == h1 && hash2(text, n) == h2;
      free(text);
      if (!same) return 0;
    } else {
      return 0;
    }
  }
  return !r.bad;
}

static void entry_path(const char *dir, const char *kind, const void *key, size_t klen, char *out, size_t n) {
  snprintf(out, n, "%s/%s-%016llx", dir, kind, (unsigned long long)hash_bytes(key, klen));
}

char *disk_cache_get(const char *dir, const char *kind, const void *key, size_t klen, size_t *n) {
  char path[4200];
  entry_path(dir, kind, key, klen, path, sizeof path);
  size_t len = 0;
  char *buf = read_all(path, (size_t)1 << 30, &len);
  if (!buf) return NULL;
  char *text = NULL;
  rd r = {(const uint8_t *)buf, len, 0, 0};
  const uint8_t *m = get_bytes(&r, sizeof magic - 1);
  uint64_t kl = get_u64(&r);
  const uint8_t *k = get_bytes(&r, kl);
  uint64_t cl = get_u64(&r);
  const uint8_t *c = get_bytes(&r, cl);
  uint64_t tl = get_u64(&r);
  const uint8_t *t = get_bytes(&r, tl);
  size_t body = r.at;
  uint64_t sum = get_u64(&r);
  if (!r.bad && r.at == len && !memcmp(m, magic, sizeof magic - 1) && kl == klen && !memcmp(k, key, klen) &&
      sum == hash_bytes(buf, body) && conds_hold(c, (size_t)cl)) {
    text = xmalloc((size_t)tl + 1);
    memcpy(text, t, (size_t)tl);
    text[tl] = 0;
    *n = (size_t)tl;
    /* the trim removes the least recently taken first */
    utimensat(AT_FDCWD, path, NULL, 0);
  }
  free(buf);
  return text;
}

void disk_trim(const char *dir, const char *kind, const char *suffix, uint64_t max) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct ent { char name[64]; time_t t; off_t size; } *v = NULL;
  size_t nv = 0, cap = 0, kl = strlen(kind), sl = strlen(suffix);
  uint64_t total = 0;
  time_t now = time(NULL);
  struct dirent *de;
  while ((de = readdir(d))) {
    char p[4200];
    struct stat st;
    size_t len = strlen(de->d_name);
    if (len >= sizeof v->name || len < kl + 1 + sl || strncmp(de->d_name, kind, kl) || de->d_name[kl] != '-') continue;
    snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
    if (stat(p, &st)) continue;
    const char *mid = de->d_name + kl + 1;
    size_t ml = len - kl - 1 - sl;
    if (strcmp(de->d_name + len - sl, suffix) || memchr(mid, '.', ml)) {
      /* a writer's file (a temporary, a compile's text or log) an hour old: its process died */
      if (now - st.st_mtime > 3600) unlink(p);
      continue;
    }
    if (nv == cap) v = xrealloc(v, (cap = cap ? 2 * cap : 64) * sizeof *v);
    memcpy(v[nv].name, de->d_name, len + 1);
    v[nv].t = st.st_atime > st.st_mtime ? st.st_atime : st.st_mtime;
    v[nv].size = st.st_size;
    total += (uint64_t)st.st_size;
    nv++;
  }
  closedir(d);
  while (total > max && nv) {
    size_t old = 0;
    for (size_t k = 1; k < nv; k++) if (v[k].t < v[old].t) old = k;
    char p[4200];
    snprintf(p, sizeof p, "%s/%s", dir, v[old].name);
    unlink(p);
    total -= (uint64_t)v[old].size;
    v[old] = v[--nv];
  }
  free(v);
}

void disk_cache_put(const char *dir, const char *kind, const void *key, size_t klen, const bytes *conds, const char *text,
                    size_t n, uint64_t max) {
  if (disk_mkdirs(dir)) return;
  bytes b = {0};
  bytes_put(&b, magic, sizeof magic - 1);
  put_u64(&b, klen);
  bytes_put(&b, key, klen);
  put_u64(&b, conds->len);
  if (conds->len) bytes_put(&b, conds->p, conds->len);
  put_u64(&b, n);
  bytes_put(&b, text, n);
  put_u64(&b, hash_bytes(b.p, b.len));
  char path[4200], tmp[4300];
  entry_path(dir, kind, key, klen, path, sizeof path);
  /* a name of this writer's own: threads of one process (a verdict table's
   * cells) may write one key at once */
  snprintf(tmp, sizeof tmp, "%s.%d.%lx", path, (int)getpid(), (unsigned long)pthread_self());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  int ok = fd >= 0;
  for (size_t at = 0; ok && at < b.len;) {
    ssize_t w = write(fd, b.p + at, b.len - at);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) ok = 0;
    else at += (size_t)w;
  }
  if (fd >= 0 && close(fd)) ok = 0;
  if (!ok || rename(tmp, path)) unlink(tmp);
  free(b.p);
  /* one put in 16 looks over the folder (a look stats every entry): the
   * bound is passed by at most the entries of 16 puts */
  if (!(hash_bytes(key, klen) >> 60)) disk_trim(dir, kind, "", max);
}

/* ------------------------------------------------------------ trees of headers */

/* Whether name, an #include's, stays in the tree of the folder it is
 * looked for in: not absolute, and no .. climbing above that folder. */
static int name_stays(const char *name, size_t n) {
  int depth = 0;
  if (!n || name[0] == '/') return 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && name[j] != '/') j++;
    if (j - i == 2 && name[i] == '.' && name[i + 1] == '.') {
      if (--depth < 0) return 0;
    } else if (!(j - i == 1 && name[i] == '.') && j > i) {
      depth++;
    }
    i = j + 1;
  }
  return 1;
}

int disk_includes_stay(const char *text, size_t n) {
  /* what reads beyond the files a tree holds: a probe whose name the scan
   * below does not follow, and the clock */
  static const char *const beyond[] = {"__has_include", "__DATE__", "__TIME__", "__TIMESTAMP__", NULL};
  for (int w = 0; beyond[w]; w++)
    if (text_has(text, n, beyond[w])) return 0;
  char line[512];
  for (size_t i = 0; i < n;) {
    /* a logical line (backslash-newlines joined), its first 511 bytes */
    size_t ln = 0;
    while (i < n && text[i] != '\n') {
      if (text[i] == '\\' && i + 1 < n && text[i + 1] == '\n') { i += 2; continue; }
      if (text[i] == '\\' && i + 2 < n && text[i + 1] == '\r' && text[i + 2] == '\n') { i += 3; continue; }
      if (ln < sizeof line - 1) line[ln++] = text[i];
      i++;
    }
    i++;
    line[ln] = 0;
    const char *p = line;
    while (*p == ' ' || *p == '\t' || *p == '\f' || *p == '\v' || *p == '\r') p++;
    if (*p != '#') continue;
    p++;
    while (*p == ' ' || *p == '\t') p++;
    const char *id = p;
    while ((*p >= 'a' && *p <= 'z') || *p == '_') p++;
    size_t il = (size_t)(p - id);
    int inc = (il == 7 && !memcmp(id, "include", 7)) || (il == 12 && !memcmp(id, "include_next", 12)) ||
              (il == 6 && !memcmp(id, "import", 6));
    /* a directive this does not read (a comment before its name, a line
     * cut at 511 bytes) that may be an include: not vouched for */
    if (!inc) {
      if ((il == 0 || ln == sizeof line - 1) && text_has(line, ln, "include")) return 0;
      continue;
    }
    while (*p == ' ' || *p == '\t') p++;
    char close = *p == '<' ? '>' : *p == '"' ? '"' : 0;
    if (!close) return 0;   /* computed: a macro names the file */
    const char *e = strchr(p + 1, close);
    if (!e) return 0;
    /* <x> is looked for in the include path's folders; "x" beside the
     * file first, then as <x>: either way from a folder whose tree is
     * walked (the file's is on the path) */
    if (!name_stays(p + 1, (size_t)(e - p - 1))) return 0;
  }
  return 1;
}

typedef struct {
  bytes rec;            /* the entries' records, hashed at the end */
  size_t budget;        /* entries left */
  size_t scan_left;     /* bytes left to scan */
  int scan;
  char root[4096];      /* the root's real path */
} tree_walk;

static int name_cmp(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

static void put_stat(bytes *b, const struct stat *st) {
  put_u64(b, (uint64_t)st->st_mode);
  put_u64(b, (uint64_t)st->st_dev);
  put_u64(b, (uint64_t)st->st_ino);
  put_u64(b, (uint64_t)st->st_size);
  put_u64(b, (uint64_t)st->st_mtim.tv_sec);
  put_u64(b, (uint64_t)st->st_mtim.tv_nsec);
  put_u64(b, (uint64_t)st->st_ctim.tv_sec);
  put_u64(b, (uint64_t)st->st_ctim.tv_nsec);
}

/* The folder at rel below the root (rel "" for the root), depth deep. */
static int walk_dir(tree_walk *w, const char *rel, int depth) {
  char dir[8300];
  snprintf(dir, sizeof dir, "%s%s%s", w->root, *rel ? "/" : "", rel);
  struct dirent **ents = NULL;
  int n = scandir(dir, &ents, NULL, name_cmp);
  if (n < 0) return -1;
  int rc = 0;
  for (int k = 0; k < n; k++) {
    const char *nm = ents[k]->d_name;
    if (rc || !strcmp(nm, ".") || !strcmp(nm, "..")) continue;
    if (!w->budget || depth >= 32) { rc = -1; continue; }
    w->budget--;
    char sub[4200], path[8300];
    if (snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", nm) >= (int)sizeof sub) { rc = -1; continue; }
    snprintf(path, sizeof path, "%s/%s", w->root, sub);
    struct stat st;
    if (lstat(path, &st)) { rc = -1; continue; }
    if (S_ISLNK(st.st_mode)) {
      /* a link is taken only to a target in the tree (walked as itself),
       * whose path is recorded; and not in a scanned tree, whose .. the
       * scan counts by names: from where a link points, .. climbs by
       * the target's folders */
      char real[4096];
      size_t rl = strlen(w->root);
      if (w->scan || !realpath(path, real) || strncmp(real, w->root, rl) || (real[rl] != '/' && real[rl] != 0)) { rc = -1; continue; }
      put_path(&w->rec, 'L', sub);
      put_stat(&w->rec, &st);
      put_path(&w->rec, 'T', real + rl);
      continue;
    }
    put_path(&w->rec, 'E', sub);
    put_stat(&w->rec, &st);
    if (S_ISDIR(st.st_mode)) rc = walk_dir(w, sub, depth + 1);
    else if (w->scan && S_ISREG(st.st_mode)) {
      if ((uint64_t)st.st_size > w->scan_left) { rc = -1; continue; }
      size_t len = 0;
      char *text = read_all(path, (size_t)st.st_size, &len);
      if (!text) { rc = -1; continue; }
      w->scan_left -= len;
      if (!disk_includes_stay(text, len)) rc = -1;
      free(text);
    }
  }
  for (int k = 0; k < n; k++) free(ents[k]);
  free(ents);
  return rc;
}

int disk_tree_key(bytes *k, const char *root, int scan, size_t *budget) {
  tree_walk w = {{0}, *budget, (size_t)8 << 20, scan, ""};
  struct stat st;
  if (!realpath(root, w.root) || stat(w.root, &st) || !S_ISDIR(st.st_mode)) return -1;
  put_path(&w.rec, 'R', w.root);
  put_stat(&w.rec, &st);
  int rc = walk_dir(&w, "", 0);
  *budget = w.budget;
  if (!rc) {
    put_u64(k, (uint64_t)w.rec.len);
    put_u64(k, hash_bytes(w.rec.p, w.rec.len));
    put_u64(k, hash2(w.rec.p, w.rec.len));
  }
  free(w.rec.p);
  return rc;
}
