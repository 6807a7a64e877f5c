// The kernels' one vendor seam: they are written in the CUDA dialect; built
// as HIP (VT_HIP defined) the runtime and intrinsic names below map to HIP's.
// Internal to kernels/gpu.
#pragma once

#include <cstdint>

#if defined(VT_HIP)
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

#define cudaError_t hipError_t
#define cudaSuccess hipSuccess
#define cudaGetErrorString hipGetErrorString
#define cudaGetLastError hipGetLastError
#define cudaStream_t hipStream_t
#define cudaFuncSetAttribute hipFuncSetAttribute
#else
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#endif

namespace vt::gpu {

// The kernels work in groups of 32 lanes ("warps"). On AMD's 64-wide
// wavefronts two such groups share a wavefront; the shuffles below stay
// inside their 32-lane half.
inline constexpr int kWarpSize = 32;

// A load of data read once (weights): marked streaming, so it does not push
// reused data (activations) out of L1.
template <class V>
__device__ __forceinline__ V LoadStreaming(const V* p) {
#if defined(VT_HIP)
  return *p;  // untuned on AMD: no device here to measure a hint against
#else
  return __ldcs(p);
#endif
}

// A load from L2 (where every SM's writes meet), past this SM's L1.
template <class V>
__device__ __forceinline__ V LoadFromL2(const V* p) {
#if defined(VT_HIP)
  return *p;  // HIP runs launches in turn (no early start), so no stale L1
#else
  return __ldcg(p);
#endif
}

// Orders shared-memory writes of a warp before its later reads.
__device__ __forceinline__ void WarpSync() {
#if defined(VT_HIP)
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
#else
  __syncwarp();
#endif
}

// Asks L2 to fetch the 16-byte aligned pieces that lie wholly inside
// [begin, end) (cp.async.bulk.prefetch, sm_90). A hint that reads nothing
// outside that range; since L2 is where every SM's writes meet, it may run
// before WaitForPreviousKernel without exposing stale data. No-op on HIP
// and on older devices.
__device__ __forceinline__ void PrefetchToL2(const uint8_t* begin, const uint8_t* end) {
#if !defined(VT_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const uintptr_t first = (reinterpret_cast<uintptr_t>(begin) + 15) & ~uintptr_t{15};
  const uintptr_t last = reinterpret_cast<uintptr_t>(end) & ~uintptr_t{15};
  if (last > first) {
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;\n" ::"l"(first), "r"(static_cast<uint32_t>(last - first)));
  }
#else
  (void)begin, (void)end;
#endif
}

// Programmatic dependent launch (Hopper): a kernel launched with
// LaunchAfterPrevious may start while the kernel before it in the stream
// finishes; it must call WaitForPreviousKernel before reading that kernel's
// output. StartDependentKernel lets the next such kernel start launching.
// Both are no-ops on HIP and when the kernel was launched plainly.
__device__ __forceinline__ void WaitForPreviousKernel() {
#if !defined(VT_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void StartDependentKernel() {
#if !defined(VT_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}

#if !defined(VT_HIP)
// The launch attribute that puts a grid's blocks in clusters of `blocks`
// consecutive blocks along x (Hopper's thread block clusters).
inline cudaLaunchAttribute ClusterOf(unsigned blocks) {
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = blocks;
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  return attribute;
}

// LaunchAfterPrevious (below) with the grid's blocks in clusters of
// `cluster_blocks` consecutive blocks along x (Hopper's thread block
// clusters; grid.x must be a multiple of it; 1: no clusters, which is the
// only size a device before compute capability 9.0 takes), and
// `shared_bytes` of dynamic shared memory a block (past 48 KB only where
// the kernel was allowed that much: cudaFuncAttributeMaxDynamicSharedMemorySize).
template <class... Params, class... Args>
cudaError_t LaunchConfiguredAfterPrevious(void (*kernel)(Params...), dim3 grid, dim3 block, unsigned cluster_blocks,
                                          size_t shared_bytes, cudaStream_t stream, Args&&... args) {
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  cudaLaunchAttribute attributes[2]{};
  attributes[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attributes[0].val.programmaticStreamSerializationAllowed = 1;
  attributes[1] = ClusterOf(cluster_blocks);
  config.attrs = attributes;
  config.numAttrs = cluster_blocks > 1 ? 2 : 1;
  return cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...);
}
template <class... Params, class... Args>
cudaError_t LaunchClustersAfterPrevious(void (*kernel)(Params...), dim3 grid, dim3 block, unsigned cluster_blocks,
                                        cudaStream_t stream, Args&&... args) {
  return LaunchConfiguredAfterPrevious(kernel, grid, block, cluster_blocks, 0, stream, static_cast<Args&&>(args)...);
}
#endif

// Launches kernel<<<grid, block, 0, stream>>>(args...), allowed to overlap
// the end of the kernel before it in the stream (see WaitForPreviousKernel).
template <class... Params, class... Args>
cudaError_t LaunchAfterPrevious(void (*kernel)(Params...), dim3 grid, dim3 block, cudaStream_t stream,
                                Args&&... args) {
#if defined(VT_HIP)
  kernel<<<grid, block, 0, stream>>>(static_cast<Params>(args)...);
  return hipGetLastError();
#else
  return LaunchClustersAfterPrevious(kernel, grid, block, 1, stream, static_cast<Args&&>(args)...);
#endif
}

// The value of lane (this lane ^ offset) within a 32-lane group (int or
// float).
template <class V>
__device__ __forceinline__ V ShuffleXor(V v, int offset) {
#if defined(VT_HIP)
  return __shfl_xor(v, offset, kWarpSize);
#else
  return __shfl_xor_sync(0xFFFFFFFFu, v, offset);
#endif
}

// Sum over aligned groups of `Width` lanes (every lane gets its group's sum).
template <int Width = kWarpSize, class V>
__device__ __forceinline__ V GroupSum(V v) {
#pragma unroll
  for (int offset = Width / 2; offset > 0; offset >>= 1) v += ShuffleXor(v, offset);
  return v;
}

__device__ __forceinline__ float WarpSum(float v) { return GroupSum(v); }

__device__ __forceinline__ float WarpMax(float v) {
#pragma unroll
  for (int offset = kWarpSize / 2; offset > 0; offset >>= 1) v = fmaxf(v, ShuffleXor(v, offset));
  return v;
}

// WarpMax(fabsf(v)), every lane of the warp taking part: the largest |v|
// of the lanes that are not NaN, or a NaN when every lane is. On CUDA from
// sm_80 one integer reduction of |v|'s bits (which order as the values
// do), instead of five dependent shuffles.
__device__ __forceinline__ float WarpMaxAbs(float v) {
#if !defined(VT_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const uint32_t bits = __float_as_uint(v) & 0x7FFFFFFFu;
  const bool nan = bits > 0x7F800000u;
  const uint32_t most = __reduce_max_sync(0xFFFFFFFFu, nan ? 0u : bits);
  return __all_sync(0xFFFFFFFFu, nan) ? __uint_as_float(0x7FC00000u) : __uint_as_float(most);
#else
  return WarpMax(fabsf(v));
#endif
}

// The sums of lanes 0-15's values (.x) and of lanes 16-31's (.y), in every
// lane, every lane of the warp taking part. On CUDA from sm_80 two integer
// reductions instead of five dependent shuffles.
__device__ __forceinline__ int2 HalfWarpSums(int v) {
  const bool low = threadIdx.x % kWarpSize < 16;
#if !defined(VT_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return make_int2(__reduce_add_sync(0xFFFFFFFFu, low ? v : 0), __reduce_add_sync(0xFFFFFFFFu, low ? 0 : v));
#else
  const int half = GroupSum<16>(v);
  const int other = ShuffleXor(half, 16);
  return low ? make_int2(half, other) : make_int2(other, half);
#endif
}

// IEEE half bits to float (exact).
__device__ __forceinline__ float HalfBitsToFloat(uint16_t bits) {
  return __half2float(__ushort_as_half(bits));
}

// Two floats to bfloat16, rounding to nearest even, `low` in the low half:
// the bits of the CPU kernels' FloatToBf16 for every value but a NaN, which
// comes out as a NaN (the canonical one on CUDA; the GPU's arithmetic makes
// canonical NaNs anyway, where the CPU's keeps payloads).
__device__ __forceinline__ uint32_t PackBf16(float low, float high) {
#if !defined(VT_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  uint32_t packed;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(packed) : "f"(high), "f"(low));
  return packed;
#else
  uint32_t halves[2];
  const float values[2] = {low, high};
  for (int i = 0; i < 2; ++i) {
    const uint32_t bits = __float_as_uint(values[i]);
    halves[i] = (bits & 0x7FFFFFFFu) > 0x7F800000u ? (bits >> 16) | 0x40u : (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
  }
  return halves[0] | (halves[1] << 16);
#endif
}

// Four signed byte products summed into `acc` (dp4a).
__device__ __forceinline__ int Dot4(int a, int b, int acc) {
#if defined(VT_HIP)
#if defined(__gfx90a__) || defined(__gfx1030__)
  return __builtin_amdgcn_sdot4(a, b, acc, false);
#else
  const int8_t* x = reinterpret_cast<const int8_t*>(&a);
  const int8_t* y = reinterpret_cast<const int8_t*>(&b);
  return acc + x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3];
#endif
#else
  return __dp4a(a, b, acc);
#endif
}

#if defined(VT_HIP)
// PTX prmt's default mode in plain code: output byte i is the byte of {b:a}
// that the low three bits of selector nibble i pick; with `sign_mode`, a
// nibble whose bit 3 is set gives that byte's sign bit in all eight bits.
__device__ __forceinline__ uint32_t EmulatedPrmt(uint32_t a, uint32_t b, uint32_t selector, bool sign_mode) {
  const uint64_t both = (static_cast<uint64_t>(b) << 32) | a;
  uint32_t out = 0;
  for (int i = 0; i < 4; ++i) {
    const uint32_t nibble = (selector >> (4 * i)) & 15u;
    uint32_t byte = static_cast<uint32_t>((both >> (8 * (nibble & 7u))) & 0xFFu);
    if (sign_mode && (nibble & 8u)) byte = (byte & 0x80u) ? 0xFFu : 0u;
    out |= byte << (8 * i);
  }
  return out;
}
#endif

// Byte select: bytes of {b:a} picked by the four nibbles of `selector`.
__device__ __forceinline__ uint32_t BytePerm(uint32_t a, uint32_t b, uint32_t selector) {
#if defined(VT_HIP)
  return EmulatedPrmt(a, b, selector, false);
#else
  return __byte_perm(a, b, selector);
#endif
}

// The same with PTX prmt's sign replication: a selector nibble with bit 3
// set gives the sign bit of the byte its low three bits pick, in all eight
// bits (0x00 or 0xFF).
__device__ __forceinline__ uint32_t BytePermSigned(uint32_t a, uint32_t b, uint32_t selector) {
#if defined(VT_HIP)
  return EmulatedPrmt(a, b, selector, true);
#else
  uint32_t out;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(out) : "r"(a), "r"(b), "r"(selector));
  return out;
#endif
}

// The low 32 bits of {hi:lo} >> shift, for shift in [0, 32).
__device__ __forceinline__ uint32_t FunnelRight(uint32_t lo, uint32_t hi, uint32_t shift) {
#if defined(VT_HIP)
  return static_cast<uint32_t>(((static_cast<uint64_t>(hi) << 32) | lo) >> shift);
#else
  return __funnelshift_r(lo, hi, shift);
#endif
}

}  // namespace vt::gpu
