/* cudart_abi.h: the types and numbers of NVIDIA's CUDA runtime API that a
 * program compiled against CUDA 13's headers passes to libcudart.so.13, as
 * that ABI lays them out (driver_types.h, vector_types.h), declared here so
 * that the runtime builds without the toolkit.  Private to rt/. */
#ifndef GR_CUDART_ABI_H
#define GR_CUDART_ABI_H

#include <stddef.h>

typedef int cudaError_t;
enum {
  cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2, cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9, cudaErrorInvalidPitchValue = 12, cudaErrorInvalidSymbol = 13,
  cudaErrorInvalidDevicePointer = 17, cudaErrorInvalidMemcpyDirection = 21, cudaErrorMissingConfiguration = 52,
  cudaErrorInvalidDeviceFunction = 98, cudaErrorNoDevice = 100, cudaErrorInvalidDevice = 101,
  cudaErrorInvalidKernelImage = 200, cudaErrorNoKernelImageForDevice = 209, cudaErrorInvalidPtx = 218,
  cudaErrorInvalidResourceHandle = 400, cudaErrorSymbolNotFound = 500, cudaErrorNotReady = 600,
  cudaErrorIllegalAddress = 700, cudaErrorLaunchOutOfResources = 701, cudaErrorLaunchTimeout = 702,
  cudaErrorAssert = 710, cudaErrorHostMemoryAlreadyRegistered = 712, cudaErrorHostMemoryNotRegistered = 713,
  cudaErrorIllegalInstruction = 715, cudaErrorMisalignedAddress = 716, cudaErrorLaunchFailure = 719,
  cudaErrorCooperativeLaunchTooLarge = 720, cudaErrorNotPermitted = 800, cudaErrorNotSupported = 801,
  cudaErrorUnknown = 999
};

typedef struct { unsigned x, y, z; } rt_dim3;   /* dim3 and uint3: 12 bytes, passed in two registers */

typedef enum {
  cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4
} rt_memcpy_kind;

enum { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2, cudaMemoryTypeManaged = 3 };

typedef struct rt_stream *cudaStream_t;   /* NULL: the legacy default stream; 1 and 2: cudaStreamLegacy, cudaStreamPerThread */
typedef struct rt_event *cudaEvent_t;

typedef struct { char bytes[16]; } rt_uuid;

/* cudaDeviceProp of CUDA 13 (cudaGetDeviceProperties). */
typedef struct {
  char name[256];
  rt_uuid uuid;
  char luid[8];
  unsigned luidDeviceNodeMask;
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3];
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment, texturePitchAlignment;
  int multiProcessorCount, integrated, canMapHostMemory;
  int maxTexture1D, maxTexture1DMipmap, maxTexture2D[2], maxTexture2DMipmap[2], maxTexture2DLinear[3], maxTexture2DGather[2];
  int maxTexture3D[3], maxTexture3DAlt[3], maxTextureCubemap, maxTexture1DLayered[2], maxTexture2DLayered[3];
  int maxTextureCubemapLayered[2], maxSurface1D, maxSurface2D[2], maxSurface3D[3], maxSurface1DLayered[2];
  int maxSurface2DLayered[3], maxSurfaceCubemap, maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, asyncEngineCount, unifiedAddressing;
  int memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize, maxThreadsPerMultiProcessor, streamPrioritiesSupported;
  int globalL1CacheSupported, localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID, hostNativeAtomicSupported;
  int pageableMemoryAccess, concurrentManagedAccess, computePreemptionSupported, canUseHostPointerForRegisteredMem;
  int cooperativeLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost, maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported, sparseCudaArraySupported, hostRegisterReadOnlySupported, timelineSemaphoreInteropSupported;
  int memoryPoolsSupported, gpuDirectRDMASupported;
  unsigned gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned memoryPoolSupportedHandleTypes;
  int deferredMappingCudaArraySupported, ipcEventSupported, clusterLaunch, unifiedFunctionPointers, deviceNumaConfig;
  int deviceNumaId, mpsEnabled, hostNumaId;
  unsigned gpuPciDeviceID, gpuPciSubsystemID;
  int hostNumaMultinodeIpcSupported;
  int reserved[56];
} rt_device_prop;

/* cudaFuncAttributes (cudaFuncGetAttributes). */
typedef struct {
  size_t sharedSizeBytes, constSizeBytes, localSizeBytes;
  int maxThreadsPerBlock, numRegs, ptxVersion, binaryVersion, cacheModeCA, maxDynamicSharedSizeBytes;
  int preferredShmemCarveout, clusterDimMustBeSet, requiredClusterWidth, requiredClusterHeight, requiredClusterDepth;
  int clusterSchedulingPolicyPreference, nonPortableClusterSizeAllowed;
  int reserved[16];
} rt_func_attributes;

/* cudaPointerAttributes (cudaPointerGetAttributes). */
typedef struct {
  int type, device;
  void *devicePointer, *hostPointer;
  long reserved[8];
} rt_pointer_attributes;

/* cudaPitchedPtr, cudaExtent, cudaPos (3D copies) */
typedef struct { void *ptr; size_t pitch, xsize, ysize; } rt_pitched_ptr;
typedef struct { size_t width, height, depth; } rt_extent;
typedef struct { size_t x, y, z; } rt_pos;
/* cudaMemcpy3DParms */
typedef struct {
  void *srcArray;
  rt_pos srcPos;
  rt_pitched_ptr srcPtr;
  void *dstArray;
  rt_pos dstPos;
  rt_pitched_ptr dstPtr;
  rt_extent extent;
  rt_memcpy_kind kind;
} rt_memcpy3d_parms;

/* cudaLaunchAttribute and cudaLaunchConfig_t (cudaLaunchKernelEx) */
typedef struct { int id; char pad[4]; union { char pad[64]; int cooperative; struct { unsigned x, y, z; } cluster; } val; } rt_launch_attribute;
typedef struct {
  rt_dim3 gridDim, blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  rt_launch_attribute *attrs;
  unsigned numAttrs;
} rt_launch_config;

/* cudaChannelFormatDesc */
typedef struct { int x, y, z, w, f; } rt_channel_desc;

/* the device attributes cudaDeviceGetAttribute answers (cudaDeviceAttr) */
enum {
  cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3, cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6, cudaDevAttrMaxGridDimZ = 7, cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10, cudaDevAttrMaxPitch = 11, cudaDevAttrMaxRegistersPerBlock = 12,
  cudaDevAttrClockRate = 13, cudaDevAttrMultiProcessorCount = 16, cudaDevAttrIntegrated = 18, cudaDevAttrCanMapHostMemory = 19,
  cudaDevAttrConcurrentKernels = 31, cudaDevAttrMemoryClockRate = 36, cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38, cudaDevAttrMaxThreadsPerMultiProcessor = 39, cudaDevAttrUnifiedAddressing = 41,
  cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81, cudaDevAttrMaxRegistersPerMultiprocessor = 82,
  cudaDevAttrManagedMemory = 83, cudaDevAttrConcurrentManagedAccess = 89, cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97, cudaDevAttrMaxBlocksPerMultiprocessor = 106
};

/* cudaFuncAttribute (cudaFuncSetAttribute) */
enum { cudaFuncAttributeMaxDynamicSharedMemorySize = 8, cudaFuncAttributePreferredSharedMemoryCarveout = 9 };

/* the flags of cudaHostAlloc, cudaHostRegister, cudaStreamCreateWithFlags, cudaEventCreateWithFlags */
enum { cudaHostAllocMapped = 2, cudaStreamNonBlocking = 1, cudaEventDisableTiming = 2 };

#endif
