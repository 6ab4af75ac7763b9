#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE   /* mkstemps */
#endif
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

gr_dim3 dim1(unsigned x) { gr_dim3 d = {x, 1, 1}; return d; }

int run_out(const char *src, const char *kernel, unsigned grid, unsigned block, uint32_t *out, size_t n,
            const gr_config *cfg, gr_context **err_ctx) {
  gr_context *ctx = gr_context_create(cfg);
  gr_module *m;
  int rc = gr_module_load_source(ctx, "test.cu", src, strlen(src), &m);
  gr_ptr buf = 0;
  if (rc == GR_OK) rc = gr_malloc(ctx, n * 4, "out", &buf);
  if (rc == GR_OK) {
    gr_arg a = gr_arg_ptr(buf);
    rc = gr_launch(m, kernel, dim1(grid), dim1(block), 0, &a, 1);
    if (rc != GR_OK && !err_ctx) fprintf(stderr, "run_out: %s\n", gr_error(ctx));
    gr_memcpy_dtoh(ctx, out, buf, n * 4);
  } else if (!err_ctx) fprintf(stderr, "run_out: %s\n", gr_error(ctx));
  if (err_ctx) *err_ctx = ctx;
  else gr_context_destroy(ctx);
  return rc;
}

void temp_file(char *path, int suffix_len, const char *text) {
  int fd = mkstemps(path, suffix_len);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  close(fd);
}

const char *src_path(const char *rel) {
  static char buf[4096];
  const char *d = getenv("GR_SRCDIR");
  snprintf(buf, sizeof buf, "%s/%s", d && *d ? d : ".", rel);
  return buf;
}

int run_suite(Suite *s) {
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int list_cu_files(const char *dir, char ***names) {
  *names = NULL;
  DIR *d = opendir(dir);
  if (!d) return 0;
  int n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l <= 3 || strcmp(e->d_name + l - 3, ".cu")) continue;
    if (n == cap) { cap = cap ? cap * 2 : 64; *names = realloc(*names, (size_t)cap * sizeof(char *)); }
    (*names)[n++] = strdup(e->d_name);
  }
  closedir(d);
  if (n) qsort(*names, (size_t)n, sizeof(char *), cmp_names);
  return n;
}

static uint64_t test_rs = 1;

void test_seed(uint64_t s) { test_rs = s ? s : 1; }

uint64_t test_rnd(void) {
  test_rs ^= test_rs << 13;
  test_rs ^= test_rs >> 7;
  test_rs ^= test_rs << 17;
  return test_rs;
}

int test_below(int n) { return (int)(test_rnd() % (uint64_t)n); }
