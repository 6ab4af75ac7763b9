/* gpurace's cuda.h: the driver API's result type for host code that names
 * it; host code is skipped by the device pass (see cuda_runtime.h). */
#ifndef GPURACE_CUDA_H
#define GPURACE_CUDA_H
#include "cuda_runtime.h"
#ifndef __CUDACC_RTC__
#define CUDA_VERSION 12000
typedef enum cudaError_enum { CUDA_SUCCESS = 0, CUDA_ERROR_INVALID_VALUE = 1, CUDA_ERROR_UNKNOWN = 999 } CUresult;
#endif
#endif
