/* litmus: what the litmus runner shares with the axiomatic checker,
 * private to tools/: an outcome counted into a result, and the outcomes
 * sorted by text. */
#ifndef GR_TOOLS_LITMUS_H
#define GR_TOOLS_LITMUS_H

#include <stdint.h>

#include "gpurace.h"

void litmus_record(gr_litmus_result *r, const char *text, int weak, uint64_t seed);
void litmus_sort(gr_litmus_result *r);

#endif
