/* gpurace: device_launch_parameters.h: its declarations are built into the device pass. */
#include "cuda_runtime.h"
