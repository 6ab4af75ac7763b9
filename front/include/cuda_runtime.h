/* gpurace's cuda_runtime.h.  nvcc includes the toolkit's cuda_runtime.h in
 * every .cu file; the device pass of gpurace includes this one instead: the
 * device-side names (vector types, make_*), and the host API's types and
 * constants, so that host code naming them preprocesses.  Host code itself
 * is skipped by the device pass whatever it calls, so the host functions
 * need no declarations here. */
#ifndef GPURACE_CUDA_RUNTIME_H
#define GPURACE_CUDA_RUNTIME_H

#include "vector_types.h"

#ifndef __CUDACC_RTC__   /* NVRTC (the CUDA backend) declares all of this itself */
#define CUDART_VERSION 12000

typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorLaunchFailure = 719,
  cudaErrorUnknown = 999
} cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

#define cudaHostAllocDefault 0
#define cudaMemAttachGlobal 1
#endif

#endif
