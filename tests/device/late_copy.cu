#include "late_copy.h"

namespace vt::testing {
namespace {

__device__ uint64_t GlobalTimerNs() {
  uint64_t now;
  asm volatile("mov.u64 %0, %%globaltimer;\n" : "=l"(now));
  return now;
}

__global__ void CopyLateKernel(const uint32_t* from, uint32_t* to, int count, uint64_t delay_ns) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
  const uint64_t start = GlobalTimerNs();
  while (GlobalTimerNs() - start < delay_ns) {
  }
  for (int i = static_cast<int>(threadIdx.x); i < count; i += static_cast<int>(blockDim.x)) to[i] = from[i];
}

}  // namespace

cudaError_t CopyLate(const uint32_t* from, uint32_t* to, int count, uint64_t delay_ns, cudaStream_t stream) {
  CopyLateKernel<<<1, 32, 0, stream>>>(from, to, count, delay_ns);
  return cudaGetLastError();
}

}  // namespace vt::testing
