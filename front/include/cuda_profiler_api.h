/* gpurace's cuda_profiler_api.h: the host functions CUDA's declares, so
 * that a file which starts and stops the profiler in its host code reads
 * as nvcc's device pass reads it (the toolkit's own would redefine
 * __global__ through its host headers). */
#ifndef GPURACE_CUDA_PROFILER_API_H
#define GPURACE_CUDA_PROFILER_API_H
#include "cuda_runtime_api.h"
#ifndef __CUDACC_RTC__   /* NVRTC compiles device code alone: no host declarations */
cudaError_t cudaProfilerStart(void);
cudaError_t cudaProfilerStop(void);
#endif
#endif
