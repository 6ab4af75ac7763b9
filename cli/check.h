/* The static commands: `gpurace check` and `gpurace babycuda`. */
#ifndef GR_CLI_CHECK_H
#define GR_CLI_CHECK_H

extern const char *const usage_check;
extern const char *const usage_babycuda;
int cmd_check(int argc, char **argv);
int cmd_babycuda(int argc, char **argv);

#endif
