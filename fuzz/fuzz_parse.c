/* Fuzz target for the front end and the //@ directives: any byte string
 * must compile (and its directives parse) or fail with one
 * "name:line:col: error: ..." message, never crash, hang or leak.  One input
 * in eight (by a hash of its bytes, so runs repeat) also goes the way a user's
 * file goes (fuzz_file_bits): written to a file, preprocessed as C++ with the project's
 * cuda_runtime.h, its launches run in order with bounded steps and code, and
 * its checks evaluated.  The same bytes go through the PTX front end and
 * the BabyCUDA reader too, and through the fatbinary reader (rt/fatbin.c):
 * as a fatbinary from its first container magic on, and (ELF inputs) as a
 * program file.
 * Built with libFuzzer by `make fuzz`, and linked
 * with replay.c into a test that replays the corpus on every `make check`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "babycuda/babycuda.h"
#include "fatbin.h"
#include "gpurace.h"
#include "front.h"
#include "util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One input in 2^fuzz_file_bits also goes through as_a_file (a preprocessor
 * run each: most of the replay's time); replay.c raises it for prefixes. */
int fuzz_file_bits = 3;

/* The file path: cpp, the host-code skipper, directives and launches. */
static void as_a_file(const uint8_t *data, size_t size) {
  char path[] = "/tmp/gpurace-fuzz-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return;
  size_t off = 0;
  while (off < size) {
    ssize_t w = write(fd, data + off, size - off);
    if (w <= 0) break;
    off += (size_t)w;
  }
  close(fd);
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.max_steps = 200000;
  cfg.max_code = 100000;
  cfg.max_source = 1 << 20;
  cfg.keep_going = (size & 1) != 0;
  gr_context *ctx = gr_context_create(&cfg);
  gr_script *s = NULL;
  int rc = gr_script_load(ctx, path, NULL, 0, &s);
  if (rc == GR_OK) {
    rc = gr_script_run(s);
    FILE *devnull = fopen("/dev/null", "w");
    if (rc == GR_OK && devnull) rc = gr_script_check(s, devnull);
    if (devnull) fclose(devnull);
  }
  if (rc != GR_OK && (rc < GR_ECHECK || rc > GR_EEMU || !*gr_error(ctx)) && rc != GR_ECHECK) {
    fprintf(stderr, "bad status %d or empty message: %s\n", rc, gr_error(ctx));
    abort();
  }
  gr_script_free(s);
  gr_context_destroy(ctx);
  unlink(path);
}

/* The fatbinary reader: entries listed, every PTX entry decompressed (a
 * bounded size), or a message; an ELF input as a program file too. */
static void as_a_fatbin(const uint8_t *data, size_t size) {
  char err[512];
  size_t off = 0;
  while (off + 4 <= size && memcmp(data + off, "\x50\xed\x55\xba", 4)) off += 8;
  if (off + 4 <= size) {
    fatbin_entry e[16];
    int n = fatbin_entries(data + off, size - off, e, 16, err, sizeof err);
    if (n < 0 && !*err) { fprintf(stderr, "a fatbinary refused without a message\n"); abort(); }
    for (int k = 0; k < n && k < 16; k++) {
      if (e[k].raw_size > (1u << 20)) continue;
      size_t len;
      char *t = fatbin_payload(&e[k], &len, err, sizeof err);
      if (!t && !*err) { fprintf(stderr, "a payload refused without a message\n"); abort(); }
      free(t);
    }
    (void)fatbin_pick_ptx(e, n < 16 ? n : 16, 80);
  }
  if (size < 4 || memcmp(data, "\x7f" "ELF", 4)) return;
  char path[] = "/tmp/gpurace-fuzz-elf-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) return;
  ssize_t w = write(fd, data, size);
  close(fd);
  if (w == (ssize_t)size) {
    uint8_t *fb;
    size_t len;
    int shared;
    err[0] = 0;
    if (fatbin_read_program(path, &fb, &len, &shared, NULL, err, sizeof err) && !*err) { fprintf(stderr, "a program refused without a message\n"); abort(); }
    free(fb);
  }
  unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  as_a_fatbin(data, size);
  (void)disk_includes_stay((const char *)data, size);   /* the PTX disk key's scan of #include lines */
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.max_code = 100000;
  gr_context *ctx = gr_context_create(&cfg);
  gr_module *m = NULL;
  int rc = gr_module_load_source(ctx, "fuzz.cu", (const char *)data, size, &m);
  if (rc != GR_OK) {
    const char *e = gr_error(ctx);
    /* every front-end error carries the source position */
    if (rc != GR_EINPUT || strncmp(e, "fuzz.cu:", 8) || !strstr(e, ": error: ")) {
      fprintf(stderr, "bad diagnostic (rc %d): %s\n", rc, e);
      abort();
    }
  } else {
    FILE *devnull = fopen("/dev/null", "w");
    if (devnull) { gr_module_print_ir(m, devnull); fclose(devnull); }
  }
  /* the //@ directives of the same bytes: accepted, or one positioned error */
  rc = gr_script_check_directives(ctx, "fuzz.cu", (const char *)data, size);
  if (rc != GR_OK) {
    const char *e = gr_error(ctx);
    if (rc != GR_EINPUT || strncmp(e, "fuzz.cu:", 8) || !strstr(e, "error: ")) {
      fprintf(stderr, "bad directive diagnostic (rc %d): %s\n", rc, e);
      abort();
    }
  }
  gr_context_destroy(ctx);
  /* the same bytes as PTX: lowered, or one positioned error */
  {
    char err[1024];
    front_limits lim = {100000, 1 << 20, 0, NULL, NULL};
    kir_module *km = ptx_compile("fuzz.ptx", (const char *)data, size, NULL, &lim, err, sizeof err);
    if (!km && (strncmp(err, "fuzz.ptx:", 9) || !strstr(err, ": error: "))) {
      fprintf(stderr, "bad PTX diagnostic: %s\n", err);
      abort();
    }
    if (km) {
      FILE *devnull = fopen("/dev/null", "w");
      if (devnull) { kir_print_module(devnull, km); fclose(devnull); }
    }
    kir_module_free(km);
  }
  /* the same bytes as BabyCUDA: a program (which prints, reads back the
     same, types and runs within a bound) or one positioned error */
  {
    char err[1200];
    bc_program *p = bc_parse("fuzz.bc", (const char *)data, size, err, sizeof err);
    if (!p && (strncmp(err, "fuzz.bc:", 8) || !strstr(err, ": error: "))) {
      fprintf(stderr, "bad BabyCUDA diagnostic: %s\n", err);
      abort();
    }
    if (p) {
      char *text = NULL;
      size_t len = 0;
      FILE *f = open_memstream(&text, &len);
      if (f) {
        bc_print(f, p);
        fclose(f);
        bc_program *q = bc_parse("fuzz.bc", text, len, err, sizeof err);
        if (!q) { fprintf(stderr, "a printed program does not read back: %s\n%s", err, text); abort(); }
        bc_program_free(q);
        free(text);
      }
      for (int a = 0; a < p->narrays; a++) {
        bc_typing t;
        bc_type(p, a, &t);
      }
      bc_sem_result r;
      bc_eval(p, -1, 20000, NULL, &r);
      bc_program_free(p);
    }
  }
  const char *all = getenv("GR_FUZZ_FILES");
  if ((all && *all == '1') || (hash_fnv(HASH_FNV_SEED, data, size) & ((1ull << fuzz_file_bits) - 1)) == 0) as_a_file(data, size);
  return 0;
}
