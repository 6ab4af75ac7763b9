/* litmus: what the litmus runner shares with the axiomatic checker,
 * private to tools/: an outcome counted into a result, and the outcomes
 * sorted by text. */
#ifndef GR_TOOLS_LITMUS_H
#define GR_TOOLS_LITMUS_H

#include <stdint.h>

#include "gpurace.h"

void litmus_record(gr_litmus_result *r, const char *text, int weak, uint64_t seed);
void litmus_sort(gr_litmus_result *r);
/* Loads the litmus test at path into ctx (*s, to free with gr_script_free
 * whatever the status) and fills r's header: id, placement, where,
 * verdict, weak outcome.  GR_OK, or an error in ctx: the file does not
 * load, or it is not a litmus test.  The one way every runner (sampled,
 * exhaustive, axiomatic, on the GPU) opens a test. */
int litmus_open(gr_context *ctx, const char *path, gr_script **s, gr_litmus_result *r);

#endif
