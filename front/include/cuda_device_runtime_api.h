/* gpurace: cuda_device_runtime_api.h: its declarations are built into the device pass. */
#include "cuda_runtime.h"
