/* Every kernel file shipped in kernels/examples runs, under both scheduling
 * policies, several seeds and SM counts: its //@ checks hold every time
 * (they are written only where the result is deterministic). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

START_TEST(examples_hold_their_checks) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", src_path("kernels/examples"));
  char **names;
  int n = list_cu_files(dir, &names);
  ck_assert_int_ge(n, 8);
  int failures = 0, runs = 0;
  for (int k = 0; k < n; k++) {
    char path[8448];
    snprintf(path, sizeof path, "%s/%s", dir, names[k]);
    for (int pol = 0; pol < 2; pol++) {
      for (uint64_t seed = 1; seed <= 3; seed++) {
        for (int sms = 1; sms <= 4; sms += 3) {
          gr_config cfg;
          gr_config_default(&cfg);
          cfg.sched = pol ? GR_SCHED_RANDOM : GR_SCHED_RR;
          cfg.seed = seed;
          cfg.sms = sms;
          gr_context *ctx = gr_context_create(&cfg);
          gr_script *s = NULL;
          int rc = gr_script_load(ctx, path, NULL, 0, &s);
          if (rc == GR_OK) rc = gr_script_run(s);
          char *buf = NULL;
          size_t len = 0;
          FILE *f = open_memstream(&buf, &len);
          if (rc == GR_OK) rc = gr_script_check(s, f);
          fclose(f);
          if (rc != GR_OK) {
            fprintf(stderr, "%s (sched %s, seed %llu, sms %d): rc %d: %s%s\n", names[k], pol ? "random" : "rr",
                    (unsigned long long)seed, sms, rc, gr_error(ctx), buf);
            failures++;
          }
          runs++;
          free(buf);
          gr_script_free(s);
          gr_context_destroy(ctx);
        }
      }
    }
    free(names[k]);
  }
  free(names);
  ck_assert_int_eq(failures, 0);
  ck_assert_int_eq(runs, n * 12);
}
END_TEST

int main(void) {
  Suite *s = suite_create("examples");
  TCase *tc = tcase_create("examples");
  tcase_set_timeout(tc, 300);
  tcase_add_test(tc, examples_hold_their_checks);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
