/* Replays files through the fuzz target: the malformed corpus, the litmus tests, the
 * example, Boyer and ScoR kernels by default (make check), or the files named on the
 * command line (to reproduce a libFuzzer finding without clang). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern int fuzz_file_bits;

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "replay: cannot open %s\n", path); return 1; }
  size_t cap = 1 << 16, n = 0, r;
  uint8_t *buf = malloc(cap);
  while ((r = fread(buf + n, 1, cap - n, f)) > 0) { n += r; if (n == cap) buf = realloc(buf, cap *= 2); }
  fclose(f);
  LLVMFuzzerTestOneInput(buf, n);
  /* every prefix too: truncated input is the commonest malformation.  The
   * front ends see them all; one in 64 (not 8) goes on through the
   * preprocessor and the run, which the whole files cover */
  fuzz_file_bits = 6;
  for (size_t k = 0; k < n; k += 7) LLVMFuzzerTestOneInput(buf, k);
  fuzz_file_bits = 3;
  free(buf);
  return 0;
}

static int replay_dir(const char *dir, int *count) {
  DIR *d = opendir(dir);
  if (!d) { fprintf(stderr, "replay: cannot open %s\n", dir); return 1; }
  struct dirent *e;
  int bad = 0;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l < 4 || strcmp(e->d_name + l - 3, ".cu")) continue;
    char path[8192];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    bad |= replay_file(path);
    (*count)++;
  }
  closedir(d);
  return bad;
}

int main(int argc, char **argv) {
  int count = 0, bad = 0;
  if (argc > 1) {
    for (int k = 1; k < argc; k++) { bad |= replay_file(argv[k]); count++; }
  } else {
    const char *src = getenv("GR_SRCDIR");
    char dir[4096];
    static const char *const dirs[] = {"tests/malformed", "tests/real", "kernels/examples", "kernels/litmus", "kernels/boyer", "scor/micro", "fuzz/regress"};
    for (size_t k = 0; k < sizeof dirs / sizeof dirs[0]; k++) {
      snprintf(dir, sizeof dir, "%s/%s", src ? src : ".", dirs[k]);
      bad |= replay_dir(dir, &count);
    }
  }
  printf("replay: %d files through the fuzz target\n", count);
  if (count == 0) return 1;
  printf("%d passed, %d failed\n", bad ? 0 : count, bad ? count : 0);
  return bad;
}
