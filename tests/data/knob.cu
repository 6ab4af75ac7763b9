// A -D knob: without KNOB the kernel writes 7, with -DKNOB=41 it writes 42.
#ifndef KNOB
#define RESULT 7
#else
#define RESULT (KNOB + 1)
#endif
__global__ void k(int *o) { o[0] = RESULT; }
