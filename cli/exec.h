/* `gpurace exec`: a CUDA program run with gpurace's CUDA runtime. */
#ifndef GR_CLI_EXEC_H
#define GR_CLI_EXEC_H

#include <stdio.h>

extern const char *const usage_exec_head, *const usage_exec_own, *const usage_exec_tail;
/* The registry's options exec does not take (NULL-terminated). */
const char *const *exec_skipped_options(void);
int cmd_exec(int argc, char **argv, void (*help)(FILE *));

#endif
