/* Helpers shared by the Check suites: run a kernel from source text. */
#ifndef GR_TESTUTIL_H
#define GR_TESTUTIL_H

#include <check.h>
#include <stdint.h>

#include "gpurace.h"

/* Compiles src (no preprocessing), allocates `out` (n 4-byte words, zeroed)
 * and launches `kernel`(out) on grid x block.  Copies `out` back.  Returns
 * the status; the error message stays in *err_ctx's gr_error if err_ctx is
 * given (the caller destroys it). */
int run_out(const char *src, const char *kernel, unsigned grid, unsigned block, uint32_t *out, size_t n,
            const gr_config *cfg, gr_context **err_ctx);

/* Path of a file in the source tree (GR_SRCDIR or "."); static buffer. */
const char *src_path(const char *rel);

/* Writes text to a new file named after path, a template whose last
 * suffix_len characters are kept and whose XXXXXX before them is filled
 * in (mkstemps); the caller unlinks it. */
void temp_file(char *path, int suffix_len, const char *text);

/* The generators' random numbers (xorshift64; the state never 0): seeded
 * with test_seed, the next with test_rnd, one below n with test_below. */
void test_seed(uint64_t s);
uint64_t test_rnd(void);
int test_below(int n);

/* Runs a Check suite and returns the process exit status. */
int run_suite(Suite *s);

gr_dim3 dim1(unsigned x);

/* The .cu files of a directory, sorted; returns the count (the caller frees
 * each name and the array). */
int list_cu_files(const char *dir, char ***names);

#endif
