/* toolkit: where the CUDA toolkit is (a system install, or the wheels
 * scripts/setup.sh puts in the project's .venv), and nvcc by path for
 * `--cc nvcc`.  None of it needs CUDA headers at build time, so it is built
 * everywhere; where no nvcc is found, asking for it says where it was
 * looked for. */
#define _DEFAULT_SOURCE   /* mkstemps */
#include "config.h"

#include <errno.h>
#include <glob.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend.h"
#include "front.h"
#include "util.h"

#ifndef GR_CUDA_PATH
#define GR_CUDA_PATH "/usr/local/cuda"
#endif

extern char **environ;

static int executable(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

/* The toolkit's roots, most specific first: $CUDA_HOME, the project's
 * environment (nvidia-cuda-* wheels unpack to site-packages/nvidia/cuNN),
 * the CUDA path configure found.  Each has bin/, include/ and lib/ or
 * lib64/.  Computed once; the list ends with NULL. */
const char *const *cuda_toolkit_roots(void) {
  static char *roots[16];
  static int done;
  if (done) return (const char *const *)roots;
  done = 1;
  int n = 0;
  const char *home = getenv("CUDA_HOME");
  if (home && *home) roots[n++] = xstrdup(home);
  const char *venvs[] = {getenv("GPURACE_VENV"), GR_SRCDIR "/.venv"};
  for (int k = 0; k < 2; k++) {
    if (!venvs[k] || !*venvs[k]) continue;
    char pat[4096];
    snprintf(pat, sizeof pat, "%s/lib/python3*/site-packages/nvidia/cu[0-9]*", venvs[k]);
    glob_t g;
    if (glob(pat, 0, NULL, &g) == 0)
      for (size_t i = 0; i < g.gl_pathc && n < 14; i++) roots[n++] = xstrdup(g.gl_pathv[i]);
    globfree(&g);
  }
  roots[n++] = xstrdup(GR_CUDA_PATH);
  roots[n] = NULL;
  return (const char *const *)roots;
}

/* $GPURACE_NVCC, $PATH, then the toolkit's roots. */
static char *find_nvcc(void) {
  const char *env = getenv("GPURACE_NVCC");
  if (env && *env) return executable(env) ? xstrdup(env) : NULL;
  const char *path = getenv("PATH");
  if (path) {
    char *p = xstrdup(path);
    for (char *save = NULL, *d = strtok_r(p, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
      char *c = xmalloc(strlen(d) + 8);
      sprintf(c, "%s/nvcc", d);
      if (executable(c)) { free(p); return c; }
      free(c);
    }
    free(p);
  }
  for (const char *const *r = cuda_toolkit_roots(); *r; r++) {
    char *c = xmalloc(strlen(*r) + 16);
    sprintf(c, "%s/bin/nvcc", *r);
    if (executable(c)) return c;
    free(c);
  }
  return NULL;
}

int cuda_nvcc_found(void) {
  char *n = find_nvcc();
  free(n);
  return n != NULL;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  vec b;
  vec_init(&b, 1);
  int c;
  while ((c = fgetc(f)) != EOF) *(char *)vec_push(&b) = (char)c;
  fclose(f);
  *(char *)vec_push(&b) = 0;
  *len = b.len - 1;
  return b.data;
}

int cuda_compile_ptx_nvcc(const char *path, const char *const *defines, int ndefines, const char *flags,
                          char **ptx, size_t *len, char *err, size_t errlen) {
  *ptx = NULL;
  char *nvcc = find_nvcc();
  if (!nvcc) {
    snprintf(err, errlen, "%s: error: --cc nvcc: no nvcc ($GPURACE_NVCC, $PATH, $CUDA_HOME/bin, %s/.venv from scripts/setup.sh, %s/bin)",
             path, GR_SRCDIR, GR_CUDA_PATH);
    return GR_EINPUT;
  }
  char out[] = "/tmp/gpurace-nvcc-XXXXXX.ptx", log[] = "/tmp/gpurace-nvcc-XXXXXX.log";
  int fo = mkstemps(out, 4), fl = mkstemps(log, 4);
  if (fo < 0 || fl < 0) {
    snprintf(err, errlen, "%s: error: --cc nvcc: cannot create a temporary file: %s", path, strerror(errno));
    if (fo >= 0) { close(fo); unlink(out); }
    if (fl >= 0) { close(fl); unlink(log); }
    free(nvcc);
    return GR_EINPUT;
  }
  close(fo);
  vec argv;
  vec_init(&argv, sizeof(char *));
  *(char **)vec_push(&argv) = xstrdup(nvcc);
  *(char **)vec_push(&argv) = xstrdup("--ptx");
  *(char **)vec_push(&argv) = xstrdup("-lineinfo");
  *(char **)vec_push(&argv) = xstrdup("-fmad=false");   /* as the subset front end rounds: a*b+c twice */
  if (!flags || !(strstr(flags, "-arch") || strstr(flags, "--gpu-architecture")))
    *(char **)vec_push(&argv) = xstrdup("-arch=sm_" GR_CC_ARCH);
  char buf[4200];
  const char *slash = strrchr(path, '/');
  if (slash) snprintf(buf, sizeof buf, "-I%.*s", (int)(slash - path), path);
  else snprintf(buf, sizeof buf, "-I.");
  *(char **)vec_push(&argv) = xstrdup(buf);
  for (int k = 0; k < ndefines; k++) { snprintf(buf, sizeof buf, "-D%s", defines[k]); *(char **)vec_push(&argv) = xstrdup(buf); }
  char *fc = flags ? xstrdup(flags) : NULL;
  for (char *save = NULL, *t = fc ? strtok_r(fc, " ", &save) : NULL; t; t = strtok_r(NULL, " ", &save))
    *(char **)vec_push(&argv) = xstrdup(t);
  free(fc);
  *(char **)vec_push(&argv) = xstrdup("-o");
  *(char **)vec_push(&argv) = xstrdup(out);
  /* a file name starting with '-' would read as an option */
  snprintf(buf, sizeof buf, "%s%s", path[0] == '-' ? "./" : "", path);
  *(char **)vec_push(&argv) = xstrdup(buf);
  *(char **)vec_push(&argv) = NULL;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fl, 1);
  posix_spawn_file_actions_adddup2(&fa, fl, 2);
  pid_t pid;
  int rc = GR_OK;
  int e = posix_spawn(&pid, nvcc, &fa, NULL, (char *const *)argv.data, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fl);
  int status = 0;
  if (e) { snprintf(err, errlen, "%s: error: --cc nvcc: cannot run %s: %s", path, nvcc, strerror(e)); rc = GR_EINPUT; }
  else if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    size_t n = 0;
    char *msg = slurp(log, &n);
    while (msg && n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == ' ')) msg[--n] = 0;
    snprintf(err, errlen, "%s: error: nvcc failed (%s):\n%s", path, WIFEXITED(status) ? "exit status" : "killed", msg && *msg ? msg : "(no output)");
    free(msg);
    rc = GR_EINPUT;
  } else {
    *ptx = slurp(out, len);
    if (!*ptx) { snprintf(err, errlen, "%s: error: nvcc wrote no PTX", path); rc = GR_EINPUT; }
  }
  unlink(out);
  unlink(log);
  for (size_t k = 0; k + 1 < argv.len; k++) free(*(char **)vec_at(&argv, k));
  vec_free(&argv);
  free(nvcc);
  return rc;
}
