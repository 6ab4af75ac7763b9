/* gpurace: sm_32_intrinsics.h: its declarations are built into the device pass. */
#include "cuda_runtime.h"
