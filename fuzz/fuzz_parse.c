/* Fuzz target for the front end and the //@ directives: any byte string
 * must compile (and its directives parse) or fail with one
 * "name:line:col: error: ..." message, never crash, hang or leak.  Built
 * with libFuzzer by `make fuzz`, and linked with replay.c into a test that
 * replays the corpus on every `make check`. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpurace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  gr_context *ctx = gr_context_create(NULL);
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
  return 0;
}
