/* gpurace: sm_20_atomic_functions.h: its declarations are built into the device pass. */
#include "cuda_runtime.h"
