// its_tail4.cu with its __syncwarp calls: one final state under
// independent thread scheduling (tests/its.sh).
//@ launch tail grid(1) block(4)
//@ buffer out u32[1] = 0
#define SYNCWARP 1
#include "its_tail4.cu"
