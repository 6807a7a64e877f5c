// One GPU dialect for two vendors: the backend is written against the CUDA
// runtime API; compiled as HIP (VT_HIP defined), these names map to HIP's.
// The one place vt names a vendor API. Internal to the runtime.
#pragma once

#include "vt/policy/staged_h2d.h"

#if defined(VT_HIP)
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_runtime_api.h>

#define VT_GPU_KIND "hip"
#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaGetErrorString hipGetErrorString
#define cudaGetLastError hipGetLastError
#define cudaGetDeviceCount hipGetDeviceCount
#define cudaSetDevice hipSetDevice
#define cudaMalloc hipMalloc
#define cudaFree hipFree
#define cudaMallocHost(ptr, bytes) hipHostMalloc(ptr, bytes, hipHostMallocDefault)
#define cudaFreeHost hipHostFree
#define cudaMallocManaged(ptr, bytes) hipMallocManaged(ptr, bytes, hipMemAttachGlobal)
#define cudaMemcpyAsync hipMemcpyAsync
#define cudaMemcpyDefault hipMemcpyDefault
#define cudaMemcpyHostToDevice hipMemcpyHostToDevice
#define cudaStream_t hipStream_t
#define cudaStreamCreateWithFlags hipStreamCreateWithFlags
#define cudaStreamNonBlocking hipStreamNonBlocking
#define cudaStreamDestroy hipStreamDestroy
#define cudaStreamSynchronize hipStreamSynchronize
#define cudaStreamIsCapturing hipStreamIsCapturing
#define cudaStreamCaptureStatus hipStreamCaptureStatus
#define cudaStreamCaptureStatusNone hipStreamCaptureStatusNone
#define cudaEvent_t hipEvent_t
#define cudaEventCreateWithFlags hipEventCreateWithFlags
#define cudaEventDisableTiming hipEventDisableTiming
#define cudaEventRecord hipEventRecord
#define cudaEventSynchronize hipEventSynchronize
#define cudaEventDestroy hipEventDestroy
#define cudaEventCreate hipEventCreate
#define cudaEventElapsedTime hipEventElapsedTime
#define cudaMemcpyDeviceToDevice hipMemcpyDeviceToDevice
#define cudaMemGetInfo hipMemGetInfo
#define cudaPointerAttributes hipPointerAttribute_t
#define cudaPointerGetAttributes hipPointerGetAttributes
#define cudaStreamBeginCapture hipStreamBeginCapture
#define cudaStreamEndCapture hipStreamEndCapture
#define cudaStreamCaptureModeRelaxed hipStreamCaptureModeRelaxed
#define cudaStreamCaptureModeThreadLocal hipStreamCaptureModeThreadLocal
#define cudaStreamCaptureModeGlobal hipStreamCaptureModeGlobal
#define cudaGraph_t hipGraph_t
#define cudaGraphDestroy hipGraphDestroy
#define cudaGraphExec_t hipGraphExec_t
#define cudaGraphInstantiateWithFlags hipGraphInstantiateWithFlags
#define cudaGraphLaunch hipGraphLaunch
#define cudaGraphExecDestroy hipGraphExecDestroy
#define cudaMemcpy hipMemcpy
#define cudaMemset hipMemset
#define cudaMemcpyDeviceToHost hipMemcpyDeviceToHost
#define cudaDeviceSynchronize hipDeviceSynchronize
#define cudaDeviceGetAttribute hipDeviceGetAttribute
#define cudaDevAttrL2CacheSize hipDeviceAttributeL2CacheSize
#else
#include <cuda_runtime.h>
#define VT_GPU_KIND "cuda"
#endif

namespace vt {

// The runtime's answer about a pointer, as a value the policy classifies.
inline PointerQuery QueryPointer(const void* ptr) {
  PointerQuery query;
  cudaPointerAttributes attributes{};
  query.call_succeeded = cudaPointerGetAttributes(&attributes, ptr) == cudaSuccess;
  if (!query.call_succeeded) {
    (void)cudaGetLastError();  // an unknown pointer is an answer, not a sticky error
    return query;
  }
  query.has_device_pointer = attributes.devicePointer != nullptr;
  query.has_host_pointer = attributes.hostPointer != nullptr;
#if defined(VT_HIP)
  if (attributes.isManaged) {
    query.type = ReportedMemoryType::kManaged;
  } else if (attributes.memoryType == hipMemoryTypeDevice) {
    query.type = ReportedMemoryType::kDevice;
  } else if (attributes.memoryType == hipMemoryTypeHost) {
    query.type = ReportedMemoryType::kHost;
  } else {
    query.type = ReportedMemoryType::kOther;
  }
#else
  switch (attributes.type) {
    case cudaMemoryTypeUnregistered: query.type = ReportedMemoryType::kUnregistered; break;
    case cudaMemoryTypeHost: query.type = ReportedMemoryType::kHost; break;
    case cudaMemoryTypeDevice: query.type = ReportedMemoryType::kDevice; break;
    case cudaMemoryTypeManaged: query.type = ReportedMemoryType::kManaged; break;
    default: query.type = ReportedMemoryType::kOther; break;
  }
#endif
  return query;
}

}  // namespace vt
