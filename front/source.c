/* source: kernel files as nvcc's device pass reads them.  A file is read
 * once (it may be a pipe or a FIFO) and bounded; the preprocessor runs in
 * C++ mode with __CUDACC__, __NVCC__ and __CUDA_ARCH__ defined, the
 * project's include directory first and its cuda_runtime.h included, as
 * nvcc includes the toolkit's; the child gets bounded memory and CPU time,
 * its output is bounded, and its first error is the message. */
#define _GNU_SOURCE   /* realpath, pipe2, vfork */
#include "front.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#ifndef GR_KERNEL_CPP
#define GR_KERNEL_CPP "cpp"
#endif
#include "util.h"

extern char **environ;

char *source_read_file(const char *path, size_t max, size_t *len, char *err, size_t errlen) {
  if (!max) max = SOURCE_MAX;
  int fd = open(path, O_RDONLY);
  if (fd < 0) { snprintf(err, errlen, "%s: error: cannot open file: %s", path, strerror(errno)); return NULL; }
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
    close(fd);
    snprintf(err, errlen, "%s: error: is a directory, not a kernel file", path);
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char *buf = xmalloc(cap);
  for (;;) {
    if (cap - n < 2) {
      if (cap > max) break;
      cap *= 2;
      buf = xrealloc(buf, cap);
    }
    ssize_t r = read(fd, buf + n, cap - n - 1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      snprintf(err, errlen, "%s: error: cannot read file: %s", path, strerror(errno));
      close(fd); free(buf);
      return NULL;
    }
    if (r == 0) break;
    n += (size_t)r;
    if (n > max) break;
  }
  close(fd);
  if (n > max) {
    snprintf(err, errlen, "%s: error: the file is larger than %zu bytes (raise the bound with --max-source)", path, max);
    free(buf);
    return NULL;
  }
  buf[n] = 0;
  if (len) *len = n;
  return buf;
}

/* The folder of the running executable, with a '/' at its end ("" where
 * /proc cannot tell). */
static void exe_dir(char *buf, size_t n) {
  ssize_t k = readlink("/proc/self/exe", buf, n - 1);
  if (k <= 0 || (size_t)k >= n - 1) { buf[0] = 0; return; }
  buf[k] = 0;
  char *slash = strrchr(buf, '/');
  if (slash) slash[1] = 0; else buf[0] = 0;
}

/* Where the device pass's headers are, in this order: $GPURACE_INCLUDE;
 * beside the executable, so that a copied build or bundle finds its own
 * (front/include in a build tree or bundle, ../share/gpurace/include
 * installed); the source tree it was built from; the installed copy. */
static char include_dir[4096];
static pthread_once_t include_once = PTHREAD_ONCE_INIT;

static int has_headers(const char *dir) {
  char p[4200];
  snprintf(p, sizeof p, "%s/cuda_runtime.h", dir);
  return access(p, R_OK) == 0;
}

static void find_include_dir(void) {
  char exe[4096];
  exe_dir(exe, sizeof exe);
  static const char *const beside[] = {"front/include", "../share/gpurace/include"};
  for (size_t k = 0; exe[0] && k < sizeof beside / sizeof *beside; k++) {
    char cand[sizeof include_dir];
    if (snprintf(cand, sizeof cand, "%s%s", exe, beside[k]) >= (int)sizeof cand) continue;   /* a folder too deep to name */
    if (has_headers(cand)) { snprintf(include_dir, sizeof include_dir, "%s", cand); return; }
  }
#ifdef GR_SOURCE_INCLUDE
  if (has_headers(GR_SOURCE_INCLUDE)) { snprintf(include_dir, sizeof include_dir, "%s", GR_SOURCE_INCLUDE); return; }
#endif
#ifdef GR_INSTALL_INCLUDE
  snprintf(include_dir, sizeof include_dir, "%s", GR_INSTALL_INCLUDE);
#else
  snprintf(include_dir, sizeof include_dir, "front/include");
#endif
}

const char *source_include_dir(void) {
  const char *env = getenv("GPURACE_INCLUDE");
  if (env && *env) return env;
  pthread_once(&include_once, find_include_dir);
  return include_dir;
}

int source_check_headers(char *err, size_t errlen) {
  const char *inc = source_include_dir();
  if (has_headers(inc)) return 0;
  snprintf(err, errlen, "error: gpurace's device headers are missing: no cuda_runtime.h in %s (set GPURACE_INCLUDE to gpurace's include folder: front/include in a build, share/gpurace/include installed)", inc);
  return -1;
}

/* cpp's message for a failure: its first "error:" line, which a long chain
 * of "In file included from" lines (a self-#include) would otherwise hide. */
static void cpp_message(const char *path, char *ebuf, size_t en, char *err, size_t errlen) {
  while (en && ebuf[en - 1] == '\n') ebuf[--en] = 0;
  char *line = ebuf, *pick = NULL, *first = NULL;
  while (line && *line) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = 0;
    if (!first && *line) first = line;
    if (!pick && strstr(line, "error:")) pick = line;
    if (nl) *nl = '\n';
    line = nl ? nl + 1 : NULL;
  }
  char *show = pick ? pick : first;
  if (show) { char *nl = strchr(show, '\n'); if (nl) *nl = 0; }
  if (pick) snprintf(err, errlen, "%s", pick);
  else snprintf(err, errlen, "%s: error: the preprocessor failed%s%s%s", path, show ? " (" : "", show ? show : "", show ? ")" : "");
}

static int toolkit_dir(const char *dir);

/* Where the preprocessor was in its output buf (n bytes): "FILE:LINE:1"
 * from its last line marker ('# LINE "FILE"') and the lines after it. */
static void pp_where(const char *buf, size_t n, const char *path, char *where, size_t wn) {
  size_t mark = n;
  for (size_t i = n; i > 0; i--)
    if (buf[i - 1] == '#' && (i == 1 || buf[i - 2] == '\n') && i < n && buf[i] == ' ' && i + 1 < n && buf[i + 1] >= '0' && buf[i + 1] <= '9') {
      mark = i - 1;
      break;
    }
  if (mark == n) { snprintf(where, wn, "%s", path); return; }
  long line = atol(buf + mark + 2);
  const char *q1 = memchr(buf + mark, '"', n - mark), *eol = memchr(buf + mark, '\n', n - mark);
  const char *q2 = q1 && eol && q1 < eol ? memchr(q1 + 1, '"', (size_t)(eol - q1 - 1)) : NULL;
  for (const char *c = eol; c && c < buf + n; c = memchr(c + 1, '\n', (size_t)(buf + n - c - 1))) line++;
  if (eol) line--;   /* the marker names the line that follows it */
  if (q2) snprintf(where, wn, "%.*s:%ld:1", (int)(q2 - q1 - 1), q1 + 1, line);
  else snprintf(where, wn, "%s:%ld:1", path, line);
}

/* Runs the kernel preprocessor as nvcc's device pass would, and captures
 * its output, at most `max` bytes of it. */
static char *run_cpp(const char *path, const char *const *defines, int ndef, const char *include_path, size_t max, size_t *outlen,
                     char *err, size_t errlen, char *verbose, size_t vn) {
  int ninc = 0;
  for (const char *q = include_path; q && *q; q++) ninc += *q == ':';
  ninc += include_path && *include_path ? 1 : 0;
  char **argv = xcalloc((size_t)ndef + (size_t)ninc + 20, sizeof(char *));
  char **owned = xcalloc((size_t)ndef + (size_t)ninc + 3, sizeof(char *));
  int ac = 0, no = 0;
  argv[ac++] = (char *)GR_KERNEL_CPP;
  if (verbose) argv[ac++] = (char *)"-v";   /* its search list and programs, on stderr (cpp_search) */
  argv[ac++] = (char *)"-x";
  argv[ac++] = (char *)"c++";
  argv[ac++] = (char *)"-std=c++17";
  argv[ac++] = (char *)"-D__CUDACC__";
  argv[ac++] = (char *)"-D__NVCC__";
  argv[ac++] = (char *)"-D__GPURACE__";
  {
    char b[64];
    snprintf(b, sizeof b, "-D__CUDA_ARCH__=%d", SOURCE_CUDA_ARCH);
    owned[no++] = xstrdup(b);
    argv[ac++] = owned[no - 1];
  }
  const char *inc = source_include_dir();
  if (source_check_headers(err, errlen)) {
    free(argv);
    free(owned);
    return NULL;
  }
  size_t il = strlen(inc) + 3;
  owned[no] = xmalloc(il);
  snprintf(owned[no], il, "-I%s", inc);
  argv[ac++] = owned[no++];
  /* the user's directories after gpurace's device headers, which stand
   * in for CUDA's (-I is searched in order; the file's own folder first) */
  for (const char *q = include_path; q && *q;) {
    const char *e = strchr(q, ':');
    size_t n = e ? (size_t)(e - q) : strlen(q);
    if (n) {
      owned[no] = xmalloc(n + 3);
      snprintf(owned[no], n + 3, "-I%.*s", (int)n, q);
      argv[ac++] = owned[no++];
    }
    q += n + (e != NULL);
  }
  argv[ac++] = (char *)"-include";
  argv[ac++] = (char *)"cuda_runtime.h";
  char **defs = xcalloc((size_t)ndef + 1, sizeof(char *));
  for (int k = 0; k < ndef; k++) {
    size_t l = strlen(defines[k]) + 3;
    defs[k] = xmalloc(l);
    snprintf(defs[k], l, "-D%s", defines[k]);
    argv[ac++] = defs[k];
  }
  argv[ac++] = (char *)path;
  argv[ac] = NULL;
  int out[2] = {-1, -1}, errp[2] = {-1, -1};
  char *result = NULL, *buf = NULL;
  /* close-on-exec: a preprocessor another thread starts must not hold this
   * one's pipes open (the dup2s below give the child its own three) */
  if (pipe2(out, O_CLOEXEC) || pipe2(errp, O_CLOEXEC)) { snprintf(err, errlen, "error: cannot create a pipe for the preprocessor"); goto done; }
  /* the child gets bounded memory and CPU time: cpp reads an included file
   * whole before it writes a byte, so an #include of /dev/zero would grow
   * without bound, and output bounds alone cannot stop it */
  size_t as_limit = max * 32 < ((size_t)2 << 30) ? ((size_t)2 << 30) : max * 32;
  int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
  /* vfork, not fork: it runs no library's fork handlers, and Z3's (loaded
   * by `gpurace check` and BabyCUDA's property test) locked and unlocked
   * its mutexes for ~0.5 G instructions a fork, nine tenths of the
   * property test's time; nor does it copy the page tables.  The child
   * sets its limits before it execs cpp (set from outside once cpp runs,
   * a loaded machine let cpp pass them first), and touches nothing of the
   * parent's memory it shares. */
  pid_t pid = vfork();
  if (pid == 0) {
    struct rlimit rl = {(rlim_t)as_limit, (rlim_t)as_limit};
    setrlimit(RLIMIT_AS, &rl);
    struct rlimit cpu = {60, 60};
    setrlimit(RLIMIT_CPU, &cpu);
    if (devnull >= 0) dup2(devnull, 0);
    dup2(out[1], 1);
    dup2(errp[1], 2);
    execvp(argv[0], argv);
    static const char msg[] = "error: cannot run the kernel preprocessor\n";
    ssize_t wr = write(2, msg, sizeof msg - 1);
    (void)wr;
    _exit(127);
  }
  int rc = pid < 0 ? errno : 0;
  if (devnull >= 0) close(devnull);
  close(out[1]); close(errp[1]);
  if (rc) {
    snprintf(err, errlen, "error: cannot run the preprocessor '%s': %s", argv[0], strerror(rc));
    close(out[0]); close(errp[0]);
    goto done;
  }
  /* both pipes at once, so that neither can fill and stall the other; the
   * output is bounded, so that an #include of /dev/zero cannot grow forever */
  size_t cap = 65536, n = 0, en = 0;
  buf = xmalloc(cap);
  char ebuf[16384];
  int open_out = 1, open_err = 1, too_big = 0;
  while (open_out || open_err) {
    struct pollfd pf[2];
    int np = 0;
    if (open_out) { pf[np].fd = out[0]; pf[np].events = POLLIN; np++; }
    if (open_err) { pf[np].fd = errp[0]; pf[np].events = POLLIN; np++; }
    if (poll(pf, (nfds_t)np, -1) < 0) { if (errno == EINTR) continue; break; }
    for (int k = 0; k < np; k++) {
      if (!(pf[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      if (pf[k].fd == out[0]) {
        if (cap - n < 4096) { cap *= 2; buf = xrealloc(buf, cap); }
        ssize_t r = read(out[0], buf + n, cap - n - 1);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) { open_out = 0; continue; }
        n += (size_t)r;
        if (n > max) { too_big = 1; open_out = open_err = 0; }
      } else {
        char sink[4096];
        ssize_t r = read(errp[0], en < sizeof ebuf - 1 ? ebuf + en : sink,
                         en < sizeof ebuf - 1 ? sizeof ebuf - 1 - en : sizeof sink);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) { open_err = 0; continue; }
        if (en < sizeof ebuf - 1) en += (size_t)r;
      }
    }
  }
  if (too_big) kill(pid, SIGKILL);
  buf[n < cap ? n : cap - 1] = 0;
  ebuf[en] = 0;
  if (verbose) snprintf(verbose, vn, "%s", ebuf);
  close(out[0]); close(errp[0]);
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
  if (too_big) {
    char where[4200];
    pp_where(buf, n < cap ? n : cap - 1, path, where, sizeof where);
    snprintf(err, errlen, "%s: error: the preprocessed text exceeds %zu bytes here (an #include of a device, or macros that expand without end?); raise the bound with --max-source", where, max);
    goto done;
  }
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    if (strstr(ebuf, "out of memory") || strstr(ebuf, "memory exhausted") || (WIFSIGNALED(st) && (WTERMSIG(st) == SIGKILL || WTERMSIG(st) == SIGSEGV))) {
      char where[4200];
      pp_where(buf, n < cap ? n : cap - 1, path, where, sizeof where);
      snprintf(err, errlen, "%s: error: the preprocessor ran out of its %zu MiB of memory expanding the file here; raise the bound with --max-source (it gets 32 times that)", where, as_limit >> 20);
      goto done;
    }
    if (WIFSIGNALED(st) && WTERMSIG(st) == SIGXCPU) {
      snprintf(err, errlen, "%s: error: the preprocessor ran out of its 60 s of CPU time (macros that expand without end?)", path);
      goto done;
    }
    cpp_message(path, ebuf, en, err, errlen);
    /* an error inside CUDA's own headers: they are the CUDA compiler's to read */
    char file[4096];
    const char *colon = strchr(err, ':');
    if (colon && (size_t)(colon - err) < sizeof file) {
      snprintf(file, sizeof file, "%.*s", (int)(colon - err), err);
      char *slash = strrchr(file, '/');
      if (slash) {
        *slash = 0;
        if (toolkit_dir(file)) {
          char was[2048];
          snprintf(was, sizeof was, "%s", err);
          snprintf(err, errlen, "%s: error: the CUDA toolkit's headers it includes are for the CUDA compiler, not the CUDA-subset front end (--cc nvcc or --cc nvrtc; --cc auto chooses); the preprocessor said: %s", path, was);
        }
      }
    }
    goto done;
  }
  result = buf;
  buf = NULL;
  *outlen = n;
done:
  free(buf);
  for (int k = 0; k < ndef; k++) free(defs[k]);
  for (int k = 0; k < no; k++) free(owned[k]);
  free(defs);
  free(owned);
  free(argv);
  return result;
}

/* A kernel file that is not a regular file (a pipe, a FIFO, /dev/stdin) is
 * read once, by the caller; the preprocessor then reads a temporary copy
 * that starts with a line marker naming the original. */
static char *copy_for_cpp(const char *path, const char *text, size_t len, char *err, size_t errlen) {
  const char *dir = getenv("TMPDIR");
  if (!dir || !*dir) dir = "/tmp";
  size_t pl = strlen(dir) + 32;
  char *tmp = xmalloc(pl);
  snprintf(tmp, pl, "%s/gpurace-XXXXXX", dir);
  int fd = mkstemp(tmp);
  if (fd < 0) { snprintf(err, errlen, "%s: error: cannot create a temporary copy for the preprocessor: %s", path, strerror(errno)); free(tmp); return NULL; }
  FILE *f = fdopen(fd, "wb");
  int ok = f != NULL;
  if (ok) {
    fputs("# 1 \"", f);
    for (const char *c = path; *c; c++) { if (*c == '"' || *c == '\\') fputc('\\', f); fputc(*c, f); }
    fputs("\"\n", f);
    ok = fwrite(text, 1, len, f) == len;
    ok = (fclose(f) == 0) && ok;
  } else close(fd);
  if (!ok) { snprintf(err, errlen, "%s: error: cannot write a temporary copy for the preprocessor", path); unlink(tmp); free(tmp); return NULL; }
  return tmp;
}


/* Whether dir is a CUDA toolkit's include folder (it has the real
 * cuda_runtime_api.h and crt/), or lies under one; gpurace's own device
 * headers are not. */
static int toolkit_dir(const char *dir) {
  char d[4096], probe[4200];
  char *r = realpath(dir, NULL);
  if (!r) return 0;
  snprintf(d, sizeof d, "%s", r);
  free(r);
  char *own = realpath(source_include_dir(), NULL);
  int hit = 0;
  for (int up = 0; up < 6 && !hit && d[0]; up++) {
    if (own && !strcmp(d, own)) break;
    snprintf(probe, sizeof probe, "%s/cuda_runtime_api.h", d);
    struct stat st;
    if (stat(probe, &st) == 0) {
      snprintf(probe, sizeof probe, "%s/crt", d);
      hit = stat(probe, &st) == 0 && S_ISDIR(st.st_mode);
    }
    char *slash = strrchr(d, '/');
    if (!slash || slash == d) break;
    *slash = 0;
  }
  free(own);
  return hit;
}

/* The folder of path: "." for a bare name, "/" for one at the root. */
static void dir_of(const char *path, char *out, size_t n) {
  const char *slash = strrchr(path, '/');
  if (!slash) snprintf(out, n, ".");
  else if (slash == path) snprintf(out, n, "/");
  else snprintf(out, n, "%.*s", (int)(slash - path), path);
}

/* A line marker of cpp's output ('# LINE "FILE" FLAGS'): the line it
 * gives, the file's name as cpp quotes it (not ended by a NUL), and
 * whether it enters the file (its first flag 1). */
typedef struct {
  long line;
  const char *name;
  size_t namelen;
  int enters;
} pp_marker;

/* The next marker of pp[*i, n) into m, *i past it: 1, or 0 at the end;
 * each other line (a marker without a quoted name counts as one) adds one
 * to *lines where lines is not NULL. */
static int pp_next_marker(const char *pp, size_t n, size_t *i, pp_marker *m, long *lines) {
  while (*i < n) {
    const char *l = pp + *i, *nl = memchr(l, '\n', n - *i);
    size_t len = nl ? (size_t)(nl - l) : n - *i;
    *i += len + 1;
    int mark = len >= 4 && l[0] == '#' && l[1] == ' ' && l[2] >= '0' && l[2] <= '9';
    const char *q1 = mark ? memchr(l, '"', len) : NULL, *q2 = q1 ? memchr(q1 + 1, '"', len - (size_t)(q1 + 1 - l)) : NULL;
    if (!q2) {
      if (lines) ++*lines;
      continue;
    }
    m->line = atol(l + 2);
    m->name = q1 + 1;
    m->namelen = (size_t)(q2 - q1 - 1);
    m->enters = (size_t)(q2 + 3 - l) <= len && q2[1] == ' ' && q2[2] == '1' && ((size_t)(q2 + 3 - l) == len || q2[3] == ' ');
    return 1;
  }
  return 0;
}

/* A file the user's code includes (directly or through headers of its own)
 * that is one of the CUDA toolkit's: the preprocessed text's line markers
 * ('# LINE "FILE" 1' enters FILE) say which, and where.  The subset front
 * end reads gpurace's device headers, not CUDA's: with CUDA's it would see
 * __global__ defined away, or fail deep in libcu++. */
static int toolkit_include(const char *path, const char *pp, size_t n, char *err, size_t errlen) {
  char cur[4096] = "", checked[64][512];
  int nchecked = 0;
  long line = 0;
  size_t i = 0;
  pp_marker mk;
  while (pp_next_marker(pp, n, &i, &mk, &line)) {
    char file[4096];
    snprintf(file, sizeof file, "%.*s", (int)mk.namelen, mk.name);
    if (mk.enters && file[0] != '<' && strcmp(cur, "<command-line>")) {
      char dir[4096];
      dir_of(file, dir, sizeof dir);
      int known = -1;
      for (int k = 0; k < nchecked; k++) if (!strcmp(checked[k] + 1, dir)) known = checked[k][0];
      if (known < 0) {
        known = toolkit_dir(dir);
        size_t dl = strlen(dir);
        if (nchecked < 64 && dl < sizeof checked[0] - 1) {
          checked[nchecked][0] = (char)known;
          memcpy(checked[nchecked] + 1, dir, dl + 1);
          nchecked++;
        }
      }
      if (known) {
        const char *base = strrchr(file, '/');
        snprintf(err, errlen, "%s:%ld:1: error: '#include' of CUDA's own header '%s' (%s): the CUDA-subset front end reads gpurace's device headers, not the toolkit's; compile this file with the CUDA compiler (--cc nvcc or --cc nvrtc; --cc auto chooses)",
                 cur[0] ? cur : path, line > 0 ? line : 1, base ? base + 1 : file, file);
        return 1;
      }
    }
    snprintf(cur, sizeof cur, "%s", file);
    line = mk.line;
  }
  return 0;
}

/* The preprocessed texts of this process: a verdict table loads each file
 * once per cell and seed, and the preprocessor (two processes, cpp and
 * cc1plus) took most of a table's time.  The key names everything that
 * goes into a run (include directory, bound, path, defines, the file's
 * contents); the headers a file includes are taken to stay as they are for
 * the life of the process, as the PTX cache takes them.  Failures are not
 * kept (they are rare, and run again to say the same). */
static text_cache pp_cache = TEXT_CACHE_INIT((size_t)64 << 20);

static bytes pp_key(const char *path, const char *text, size_t len, const char *const *defines, int ndefines,
                    const char *include_path, size_t max) {
  bytes k = {0};
  const char *inc = source_include_dir();
  bytes_put(&k, inc, strlen(inc) + 1);
  bytes_put(&k, include_path ? include_path : "", include_path ? strlen(include_path) + 1 : 1);
  bytes_put(&k, &max, sizeof max);
  text_key_file(&k, path, text, len, defines, ndefines);
  return k;
}

/* ---------------------------------------------------------------- across runs
 *
 * A run of gpurace preprocesses its file again, and cpp's start-up (cc1plus,
 * 35 MB) is most of a short run: about 16 of 23 ms for an example kernel.
 * The disk cache (util.h's diskcache) keeps cpp's output under everything
 * that decides it (the key: the in-process key, the environment cpp reads,
 * the preprocessor's path) and the conditions under which it is still
 * what cpp would print: the preprocessor's programs unchanged, every file
 * it read with the same contents, and no file new or gone at the top of
 * any folder it searches (the file's own, gpurace's headers', the user's,
 * the system's), where an #include could now find another file.  So a
 * file is kept only where every file it read lies at the top of one of
 * those folders (a header in a subfolder could be shadowed by a new file
 * in a subfolder of an earlier one, which no condition watches), and none
 * of them asks what a condition cannot see: __has_include (a file that
 * did not exist), #include_next, the date and time. */

#define PP_DISK_MAX ((uint64_t)64 << 20)

/* What cpp reads from the environment, and which cpp runs. */
static void cpp_env_key(bytes *k) {
  static const char *const vars[] = {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "GCC_EXEC_PREFIX", "COMPILER_PATH",
                                     "SOURCE_DATE_EPOCH", "PATH", "GCC_COMPARE_DEBUG", NULL};
  for (int v = 0; vars[v]; v++) {
    const char *x = getenv(vars[v]);
    bytes_put(k, vars[v], strlen(vars[v]) + 1);
    bytes_put(k, x ? "1" : "0", 1);
    if (x) bytes_put(k, x, strlen(x) + 1);
  }
  bytes_put(k, GR_KERNEL_CPP, sizeof GR_KERNEL_CPP);
}

/* The program cpp names: itself where it has a '/', else the first on PATH. */
static int cpp_program(char *out, size_t n) {
  if (strchr(GR_KERNEL_CPP, '/')) { snprintf(out, n, "%s", GR_KERNEL_CPP); return 0; }
  const char *path = getenv("PATH");
  for (const char *q = path; q && *q;) {
    const char *e = strchr(q, ':');
    size_t len = e ? (size_t)(e - q) : strlen(q);
    snprintf(out, n, "%.*s/%s", (int)len, len ? q : ".", GR_KERNEL_CPP);
    if (!access(out, X_OK)) return 0;
    q += len + (e != NULL);
  }
  return -1;
}

/* The folders cpp searches and the programs it runs, as conditions (kept
 * on disk too: asking cpp costs a run of it), and the folders' names, each
 * NUL-terminated, in dirs.  -1 where cpp's answer cannot be read. */
static int cpp_search(const char *root, const char *include_path, bytes *conds, bytes *dirs) {
  bytes key = {0};
  const char *inc = source_include_dir();
  bytes_put(&key, "search", 7);
  bytes_put(&key, inc, strlen(inc) + 1);
  bytes_put(&key, include_path ? include_path : "", include_path ? strlen(include_path) + 1 : 1);
  cpp_env_key(&key);
  size_t n;
  char *text = disk_cache_get(root, "search", key.p, key.len, &n);
  int rc = -1;
  if (text) {
    /* the text: the folders, then the conditions */
    const char *sep = memchr(text, '\n', n);
    if (sep) {
      bytes_put(dirs, text, (size_t)(sep - text));
      bytes_put(conds, sep + 1, n - (size_t)(sep - text) - 1);
      rc = 0;
    }
    free(text);
    free(key.p);
    return rc;
  }
  char *v = xmalloc(16384), err[256], prog[4096];
  size_t on;
  char *out = run_cpp("/dev/null", NULL, 0, include_path, SOURCE_MAX, &on, err, sizeof err, v, 16384);
  bytes c = {0}, d = {0};
  int in_list = 0, have_cc1 = 0;
  for (char *line = v; out && *line;) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = 0;
    const char *q;
    if (!strncmp(line, "ignoring nonexistent directory \"", 32) && (q = strrchr(line, '"')) > line + 32) {
      char dir[4096];
      snprintf(dir, sizeof dir, "%.*s", (int)(q - line - 32), line + 32);
      disk_cond_path(&c, dir);   /* where it appears, it is searched */
    } else if (strstr(line, "search starts here:")) {
      in_list = 1;
    } else if (!strcmp(line, "End of search list.")) {
      in_list = 0;
    } else if (in_list && line[0] == ' ') {
      if (strchr(line + 1, ' ')) { rc = -2; break; }   /* "(framework directory)" and such: not a folder's name alone */
      disk_cond_path(&c, line + 1);
      bytes_put(&d, line + 1, strlen(line + 1) + 1);
    } else if (line[0] == ' ' && strstr(line, " -E ")) {
      /* the compiler proper the driver ran: its program is part of what prints */
      char cc1[4096];
      snprintf(cc1, sizeof cc1, "%s", line + 1);
      char *sp = strchr(cc1, ' ');
      if (sp) *sp = 0;
      disk_cond_path(&c, cc1);
      have_cc1 = 1;
    }
    line = nl ? nl + 1 : line + strlen(line);
  }
  if (out && rc != -2 && have_cc1 && d.len && !cpp_program(prog, sizeof prog)) {
    disk_cond_path(&c, prog);
    bytes t = {0};
    bytes_put(&t, d.p, d.len);
    bytes_put(&t, "\n", 1);
    bytes_put(&t, c.p, c.len);
    disk_cache_put(root, "search", key.p, key.len, &c, (const char *)t.p, t.len, PP_DISK_MAX);
    free(t.p);
    bytes_put(dirs, d.p, d.len);
    bytes_put(conds, c.p, c.len);
    rc = 0;
  }
  free(out);
  free(v);
  free(c.p);
  free(d.p);
  free(key.p);
  return rc < 0 ? -1 : 0;
}

/* Whether path changed at t0 (cpp's start) or later, or within the two
 * seconds before (a file system's clock may be coarse): then cpp may have
 * read it as it was before a change that its conditions would record. */
static int too_new(const char *path, const struct timespec *t0) {
  struct stat st;
  if (stat(path, &st)) return 0;
  return st.st_mtim.tv_sec > t0->tv_sec - 2;
}

static int asks_beyond(const char *text, size_t n) {
  static const char *const words[] = {"__has_include", "include_next", "__DATE__", "__TIME__", "__TIMESTAMP__", NULL};
  for (int w = 0; words[w]; w++)
    if (text_has(text, n, words[w])) return 1;
  return 0;
}

/* The conditions of pp, cpp's output for the regular file at path (text:
 * its contents): -1 where it cannot be kept (above). */
static int pp_conditions(const char *root, const char *path, const char *text, size_t len, const char *include_path,
                         const char *pp, size_t n, const struct timespec *t0, bytes *conds) {
  bytes dirs = {0};
  if (asks_beyond(text, len) || cpp_search(root, include_path, conds, &dirs)) { free(dirs.p); return -1; }
  char mine[4096];
  dir_of(path, mine, sizeof mine);
  disk_cond_path(conds, mine);
  int rc = too_new(mine, t0);
  for (const char *d = (const char *)dirs.p; !rc && d < (const char *)dirs.p + dirs.len; d += strlen(d) + 1) rc = too_new(d, t0);
  size_t i = 0;
  pp_marker mk;
  while (!rc && pp_next_marker(pp, n, &i, &mk, NULL)) {
    if (!mk.enters || mk.name[0] == '<') continue;
    char file[4096], dir[4096];
    if (mk.namelen >= sizeof file || memchr(mk.name, '\\', mk.namelen)) { rc = -1; break; }
    snprintf(file, sizeof file, "%.*s", (int)mk.namelen, mk.name);
    dir_of(file, dir, sizeof dir);
    int top = !strcmp(dir, mine);
    for (const char *d = (const char *)dirs.p; !top && d < (const char *)dirs.p + dirs.len; d += strlen(d) + 1) top = !strcmp(d, dir);
    size_t fl;
    char ferr[64];
    char *ft = top ? source_read_file(file, SOURCE_MAX, &fl, ferr, sizeof ferr) : NULL;
    if (!ft || asks_beyond(ft, fl) || too_new(file, t0)) rc = -1;
    else disk_cond_file(conds, file, ft, fl);
    free(ft);
  }
  free(dirs.p);
  return rc;
}

char *source_preprocess(const char *path, const char *text, size_t len, const char *const *defines, int ndefines,
                        const char *include_path, const char *cache_dir, size_t max, size_t *outlen, char *err, size_t errlen) {
  if (!max) max = SOURCE_MAX;
  if (len > max) {
    snprintf(err, errlen, "%s: error: the file is larger than %zu bytes (raise the bound with --max-source)", path, max);
    return NULL;
  }
  bytes key = pp_key(path, text, len, defines, ndefines, include_path, max);
  char *pp = text_cache_get(&pp_cache, key.p, key.len, outlen);
  if (pp) { free(key.p); return pp; }
  char *tmp = NULL;
  /* cpp reads a copy of what was read where the path is no file of its
   * own: a pipe, or /dev/stdin redirected from a file (a link that the
   * preprocessor, its stdin /dev/null, would open as empty) */
  int regular = disk_regular_file(path);
  char root[4096] = "";
  size_t base = key.len;   /* the process's key: without what only the disk's needs */
  if (regular && cache_dir) disk_cache_sub(cache_dir, "pp", root, sizeof root);
  if (root[0]) {
    cpp_env_key(&key);
    pp = disk_cache_get(root, "pp", key.p, key.len, outlen);
    if (pp) {
      text_cache_put(&pp_cache, key.p, base, pp, *outlen);
      free(key.p);
      return pp;
    }
  }
  if (!regular) {
    tmp = copy_for_cpp(path, text, len, err, errlen);
    if (!tmp) { free(key.p); return NULL; }
  }
  struct timespec t0;
  clock_gettime(CLOCK_REALTIME, &t0);
  pp = run_cpp(tmp ? tmp : path, defines, ndefines, include_path, max, outlen, err, errlen, NULL, 0);
  if (tmp) { unlink(tmp); free(tmp); }
  if (pp && toolkit_include(path, pp, *outlen, err, errlen)) { free(pp); pp = NULL; }
  if (pp) {
    text_cache_put(&pp_cache, key.p, base, pp, *outlen);
    bytes conds = {0};
    if (root[0] && !too_new(path, &t0) && !pp_conditions(root, path, text, len, include_path, pp, *outlen, &t0, &conds))
      disk_cache_put(root, "pp", key.p, key.len, &conds, pp, *outlen, PP_DISK_MAX);
    free(conds.p);
  }
  free(key.p);
  return pp;
}
