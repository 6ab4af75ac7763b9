/* `gpurace exec [OPTIONS] PROGRAM [ARGS...]`: runs a CUDA program as it
 * is, with gpurace's CUDA runtime (rt/libcudart.so.13) in place of
 * NVIDIA's.  The options become the environment of the program (the
 * registry's GPURACE_* variables, GPURACE_DETECT, GPURACE_LOG), so that
 * every process it starts that loads the runtime is covered too; each such
 * process appends a line of counts to GPURACE_EXEC_STATUS at its exit,
 * which decides --error-exitcode here. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "detectors.h"
#include "exec.h"
#include "fatbin.h"
#include "gpurace.h"

const char *const usage_exec_head =
  "usage: gpurace exec [OPTIONS] [--] PROGRAM [ARGS...]\n"
  "\n"
  "Runs a CUDA program as it is, its GPU the emulator: gpurace's CUDA runtime\n"
  "(libcudart.so.13) stands in for NVIDIA's, reads the PTX nvcc embedded in the\n"
  "program and runs every launch under the options below.  The program must be\n"
  "built with the shared runtime and keep PTX: nvcc -cudart shared (and an -arch\n"
  "or -gencode with a compute_NN, as nvcc's default has); -lineinfo makes reports\n"
  "name source lines.  Its stdin, stdout, stderr and exit status are its own;\n"
  "gpurace's reports go to stderr, and a summary at its exit.\n"
  "\n"
  "options:\n";
const char *const usage_exec_own =
  "  --detect LIST     race detectors to run, comma-separated (see 'gpurace detectors')\n"
  "  --log FILE        gpurace's reports and summaries to FILE (appended) instead of stderr\n"
  "  --error-exitcode N  exit with N when a launch failed, a detector reported a race\n"
  "                    or stopped watching, the program called an API gpurace does not\n"
  "                    support, or no process of it loaded gpurace's runtime\n";
const char *const usage_exec_tail =
  "\n"
  "exit status: the program's (128 + the signal's number where a signal ended it),\n"
  "             or N of --error-exitcode as above; 2 bad usage or a program gpurace\n"
  "             cannot run (static runtime, no PTX: it says how to rebuild)\n";

/* The options exec does not take: what the program's build decided already. */
static const char *const exec_skip[] = {"--backend", "--cc", "--cc-flags", "-I", NULL};
const char *const *exec_skipped_options(void) { return exec_skip; }

static int exec_usage(const char *fmt, const char *arg) {
  fprintf(stderr, "gpurace exec: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, "\n(gpurace help exec)\n");
  return GR_EINPUT;
}

static int skipped(const char *name) {
  for (int k = 0; exec_skip[k]; k++) if (!strcmp(exec_skip[k], name)) return 1;
  return 0;
}

/* A configuration option of the registry, into its variable; 0 when opt is
 * not one, the words taken, or -1 (reported). */
static int config_to_env(const char *opt, const char *val) {
  for (size_t k = 0; gr_option_at(k); k++) {
    const gr_option *o = gr_option_at(k);
    if (strcmp(opt, o->name)) continue;
    if (skipped(o->name) || !o->env) { exec_usage("%s is decided by how the program was built: not an option of exec", opt); return -1; }
    gr_config scratch;
    gr_config_default(&scratch);
    char err[256];
    int r = gr_config_option(&scratch, opt, val, err, sizeof err);
    if (r < 0) { exec_usage("%s", err); return -1; }
    setenv(o->env, o->arg ? val : "1", 1);
    return r;
  }
  return 0;
}

/* A detector option: checked, and appended to GPURACE_DETECT_OPTIONS. */
static int detector_to_env(const char *opt, const char *val, char *words, size_t n) {
  det_options scratch;
  det_options_default(&scratch);
  char err[256];
  int r = det_options_option(&scratch, opt, val, err, sizeof err);
  if (r < 0) { exec_usage("%s", err); return -1; }
  if (r == 0) return 0;
  if (val && strchr(val, ' ')) { exec_usage("a detector option's value with a space: '%s'", val); return -1; }
  size_t have = strlen(words);
  snprintf(words + have, n - have, "%s%s%s%s", have ? " " : "", opt, r == 2 ? " " : "", r == 2 ? val : "");
  return r;
}

/* Where the runtime is: $GPURACE_RUNTIME_DIR, the build tree's rt/, the installed copy. */
static const char *runtime_dir(void) {
  static char buf[4096];
  const char *dirs[] = {getenv("GPURACE_RUNTIME_DIR"), GR_RT_BUILD_DIR, GR_RT_INSTALL_DIR};
  for (int k = 0; k < 3; k++) {
    if (!dirs[k] || !*dirs[k]) continue;
    snprintf(buf, sizeof buf, "%s/libcudart.so.13", dirs[k]);
    if (access(buf, R_OK) == 0) return dirs[k];
  }
  return NULL;
}

/* PROGRAM as execvp would find it, or NULL. */
static char *resolve(const char *prog) {
  if (strchr(prog, '/')) return access(prog, X_OK) == 0 ? strdup(prog) : NULL;
  const char *path = getenv("PATH");
  if (!path) return NULL;
  char *copy = strdup(path), *save = NULL, *found = NULL;
  for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", *d ? d : ".", prog);
    struct stat st;
    if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0) found = strdup(buf);
  }
  free(copy);
  return found;
}

/* Before running: a program gpurace cannot run is told how to rebuild it
 * (2); a program that is not an ELF file (a script) is run as it is. */
static int preflight(const char *path) {
  uint8_t *data;
  size_t len;
  int shared, rdc;
  char err[512];
  if (fatbin_read_program(path, &data, &len, &shared, &rdc, err, sizeof err)) return 0;   /* not ELF: a script, checked by what it runs */
  if (!data) {
    if (!shared)
      fprintf(stderr, "gpurace exec: note: %s has no device code and does not load libcudart.so: only what it runs "
                      "that does is checked\n", path);
    return 0;
  }
  int rc = 0, no_ptx;
  size_t tl;
  char *text = NULL;
  if (!shared) fprintf(stderr, "gpurace exec: %s: error: %s\n", path, FATBIN_HINT_STATIC);
  else if (rdc) fprintf(stderr, "gpurace exec: %s: error: %s\n", path, FATBIN_HINT_RDC);
  else if (!(text = fatbin_ptx(data, len, 100000, &tl, &no_ptx, err, sizeof err)))
    fprintf(stderr, "gpurace exec: %s: error: %s%s\n", path, no_ptx ? "" : "its device code: ", err);
  if (!text) rc = GR_EINPUT;
  free(text);
  free(data);
  return rc;
}

/* The counts the program's processes left; how many processes. */
typedef struct { unsigned long long launches, failed, races, unwatched, unsupported, start_errors; int processes; } exec_counts;
static void read_status(const char *path, exec_counts *c) {
  memset(c, 0, sizeof *c);
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[512];
  while (fgets(line, sizeof line, f)) {
    unsigned long long l, fl, r, u, un;
    int se;
    if (sscanf(line, "launches=%llu failed=%llu races=%llu unwatched=%llu unsupported=%llu start_error=%d", &l, &fl, &r, &u, &un,
               &se) != 6) continue;
    c->launches += l, c->failed += fl, c->races += r, c->unwatched += u, c->unsupported += un, c->start_errors += se != 0;
    c->processes++;
  }
  fclose(f);
}

int cmd_exec(int argc, char **argv, void (*help)(FILE *)) {
  char words[2048] = "";
  const char *detect = NULL, *log = NULL;
  int error_exitcode = -1, i = 0;
  for (; i < argc; i++) {
    const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--")) { i++; break; }
    if (a[0] != '-' || !a[1]) break;
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) { help(stdout); return 0; }
    if (!strcmp(a, "--detect") || !strcmp(a, "--log") || !strcmp(a, "--error-exitcode")) {
      if (!val) return exec_usage("option '%s' needs a value", a);
      if (a[2] == 'd') detect = val;
      else if (a[2] == 'l') log = val;
      else {
        char *e;
        long v = strtol(val, &e, 10);
        if (*e || e == val || v < 0 || v > 255) return exec_usage("--error-exitcode takes a status from 0 to 255, not '%s'", val);
        error_exitcode = (int)v;
      }
      i++;
      continue;
    }
    int r = config_to_env(a, val);
    if (r == 0) r = detector_to_env(a, val, words, sizeof words);
    if (r < 0) return GR_EINPUT;
    if (r == 0) return exec_usage("unknown option '%s'", a);
    i += r - 1;
  }
  if (i >= argc) return exec_usage("%s", "no PROGRAM given");
  char err[256];
  if (gr_config_env(err, sizeof err)) return exec_usage("%s", err);
  if (detect) {
    char *list = strdup(detect), *save = NULL;
    for (char *d = strtok_r(list, ",", &save); d; d = strtok_r(NULL, ",", &save))
      if (!detector_lookup(d)) { exec_usage("unknown detector '%s' (gpurace detectors lists them)", d); free(list); return GR_EINPUT; }
    free(list);
    setenv("GPURACE_DETECT", detect, 1);
  }
  if (words[0]) setenv("GPURACE_DETECT_OPTIONS", words, 1);
  if (log) {
    FILE *f = fopen(log, "a");
    if (!f) return exec_usage("cannot open the --log file '%s'", log);
    fclose(f);
    setenv("GPURACE_LOG", log, 1);
  }
  char *path = resolve(argv[i]);
  if (!path) { fprintf(stderr, "gpurace exec: %s: no such program (or not executable)\n", argv[i]); return 127; }
  int rc = preflight(path);
  if (rc) { free(path); return rc; }
  const char *dir = runtime_dir();
  if (!dir) {
    fprintf(stderr, "gpurace exec: error: gpurace's CUDA runtime (libcudart.so.13) is not built or installed "
                    "(looked in $GPURACE_RUNTIME_DIR, %s, %s)\n", GR_RT_BUILD_DIR, GR_RT_INSTALL_DIR);
    free(path);
    return GR_EINPUT;
  }
  const char *old = getenv("LD_LIBRARY_PATH");
  char *ld = malloc(strlen(dir) + (old ? strlen(old) : 0) + 2);
  sprintf(ld, "%s%s%s", dir, old && *old ? ":" : "", old && *old ? old : "");
  setenv("LD_LIBRARY_PATH", ld, 1);
  free(ld);
#ifdef GR_ASAN_LIB
  /* a runtime built with AddressSanitizer needs its runtime first in a program that is not */
  if (GR_ASAN_LIB[0] && !getenv("LD_PRELOAD")) setenv("LD_PRELOAD", GR_ASAN_LIB, 1);
#endif
  const char *tmp = getenv("TMPDIR");
  char status_path[4096];
  snprintf(status_path, sizeof status_path, "%s/gpurace-exec-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemp(status_path);
  if (fd < 0) { fprintf(stderr, "gpurace exec: cannot create a status file: %s\n", strerror(errno)); free(path); return GR_EINPUT; }
  close(fd);
  setenv("GPURACE_EXEC_STATUS", status_path, 1);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) { fprintf(stderr, "gpurace exec: fork: %s\n", strerror(errno)); unlink(status_path); free(path); return GR_EINPUT; }
  if (pid == 0) {
    execv(path, argv + i);
    fprintf(stderr, "gpurace exec: %s: %s\n", path, strerror(errno));
    _exit(127);
  }
  /* the program owns the terminal's signals: gpurace waits for it */
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
  int ws;
  while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {}
  exec_counts c;
  read_status(status_path, &c);
  unlink(status_path);
  free(path);
  int prc = WIFEXITED(ws) ? WEXITSTATUS(ws) : WIFSIGNALED(ws) ? 128 + WTERMSIG(ws) : 1;
  FILE *rep = stderr;
  if (log) rep = fopen(log, "a");
  if (!rep) rep = stderr;
  if (WIFSIGNALED(ws)) fprintf(rep, "gpurace exec: the program ended by signal %d (%s)\n", WTERMSIG(ws), strsignal(WTERMSIG(ws)));
  if (!c.processes)
    fprintf(rep, "gpurace exec: no process of the program ended through gpurace's CUDA runtime (it did not load it, or "
                 "did not exit normally): nothing was checked\n");
  if (rep != stderr) fclose(rep);
  int bad = !c.processes || c.failed || c.races || c.unwatched || c.unsupported || c.start_errors;
  if (error_exitcode >= 0 && bad) return error_exitcode;
  return prc;
}
