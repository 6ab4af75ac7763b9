/* Every kernel file shipped in kernels/examples runs, under both memory
 * models, both scheduling policies, several seeds and SM counts: its //@
 * checks hold every time (they are written only where the result is
 * deterministic), and a race-free file ends with the same memory, every
 * buffer of it, under weak memory as under sequential consistency. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* Runs one file; returns the status and, in *dump, every buffer printed. */
static int run_file(const char *path, gr_memory mem, int pol, uint64_t seed, int sms, char **dump, char **msg) {
  gr_config cfg;
  gr_config_default(&cfg);
  cfg.memory = mem;
  cfg.sched = pol ? GR_SCHED_RANDOM : GR_SCHED_RR;
  cfg.seed = seed;
  cfg.sms = sms;
  gr_context *ctx = gr_context_create(&cfg);
  gr_script *s = NULL;
  int rc = gr_script_load(ctx, path, NULL, 0, &s);
  if (rc == GR_OK) rc = gr_script_run(s);
  size_t len = 0;
  FILE *f = open_memstream(msg, &len);
  if (rc == GR_OK) rc = gr_script_check(s, f);
  fclose(f);
  f = open_memstream(dump, &len);
  if (rc == GR_OK) gr_script_dump_all(s, f);
  else fputs(gr_error(ctx), f);
  fclose(f);
  if (s && gr_script_expect_race(s) == 1) { free(*dump); *dump = NULL; }   /* racy: memory may differ */
  gr_script_free(s);
  gr_context_destroy(ctx);
  return rc;
}

START_TEST(examples_hold_their_checks) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s", src_path("kernels/examples"));
  char **names;
  int n = list_cu_files(dir, &names);
  ck_assert_int_ge(n, 8);
  int failures = 0, runs = 0, compared = 0;
  for (int k = 0; k < n; k++) {
    char path[8448];
    snprintf(path, sizeof path, "%s/%s", dir, names[k]);
    char *ref = NULL, *refmsg = NULL;
    run_file(path, GR_MEMORY_SC, 0, 1, 4, &ref, &refmsg);
    free(refmsg);
    for (int mem = 0; mem < 2; mem++) {
      for (int pol = 0; pol < 2; pol++) {
        for (uint64_t seed = 1; seed <= 3; seed++) {
          for (int sms = 1; sms <= 4; sms += 3) {
            char *dump = NULL, *msg = NULL;
            int rc = run_file(path, mem ? GR_MEMORY_WEAK : GR_MEMORY_SC, pol, seed, sms, &dump, &msg);
            if (rc != GR_OK) {
              fprintf(stderr, "%s (%s, sched %s, seed %llu, sms %d): rc %d: %s%s\n", names[k], mem ? "weak" : "sc",
                      pol ? "random" : "rr", (unsigned long long)seed, sms, rc, dump ? dump : "", msg);
              failures++;
            } else if (ref && dump) {
              compared++;
              if (strcmp(ref, dump)) {
                fprintf(stderr, "%s (%s, sched %s, seed %llu, sms %d): final memory differs from sc:\n%s\nvs\n%s\n", names[k],
                        mem ? "weak" : "sc", pol ? "random" : "rr", (unsigned long long)seed, sms, dump, ref);
                failures++;
              }
            }
            runs++;
            free(dump);
            free(msg);
          }
        }
      }
    }
    free(ref);
    free(names[k]);
  }
  free(names);
  ck_assert_int_eq(failures, 0);
  ck_assert_int_eq(runs, n * 24);
  ck_assert_int_ge(compared, (n - 2) * 24);
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
