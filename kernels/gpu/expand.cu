// Expand to BF16: one thread per 32-value chunk decodes it (block_decode.cuh)
// and writes 64 bytes; the rounding is the CPU kernels' FloatToBf16.
#include "block_decode.cuh"
#include "launch_checks.h"
#include "span_stage.cuh"
#include "type_dispatch.cuh"

namespace vt::gpu {
namespace {

// float to bfloat16, nearest even; NaN stays a quiet NaN.
__device__ __forceinline__ uint32_t Bf16Bits(float f) {
  const uint32_t bits = __float_as_uint(f);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return (bits >> 16) | 0x40u;
  return (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
}

constexpr int kExpandThreads = 256;

// Types whose warps stage their blocks through shared memory before
// decoding (span_stage.cuh); the others read them lane by lane. Chosen on an
// H200 (docs/BENCHMARKS.md): staging took Q8_0 (34-byte blocks) from 3201 to
// 3313 GB/s and TQ1_0 from 639 to 717, and slowed every other type it was
// tried on (Q4_K 3135 to 2717).
template <GgmlType T>
constexpr bool kStagedExpand = T == GgmlType::kQ8_0 || T == GgmlType::kTQ1_0;

// Each warp reads the blocks of its 32 chunks as whole 16-byte pieces into
// shared memory (span_stage.cuh: every load covers contiguous lines), each
// thread decodes one chunk from there into shared memory, and the warp
// writes its 32 chunks (2 KiB) with 16-byte stores that cover whole lines.
template <GgmlType T>
__global__ void __launch_bounds__(kExpandThreads) ExpandKernel(const uint8_t* blocks, uint4* out, int64_t chunks) {
  using B = Block<T>;
  constexpr int kChunksPerBlock = B::kValues / 32;
  constexpr int kSpanBytes = kWarpSize / kChunksPerBlock * B::kBytes;  // a warp's 32 chunks
  constexpr int kPerLane = kPiecesPerLane<kSpanBytes>;
  constexpr int kWarps = kExpandThreads / kWarpSize;
  __shared__ uint4 staged[kExpandThreads * 4];
  __shared__ uint4 staged_blocks[kWarps][kStagedExpand<T> ? kStagedBytes<kSpanBytes> / 16 : 1];
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int warp = static_cast<int>(threadIdx.x / kWarpSize);
  uint4* warp_staged = staged + warp * kWarpSize * 4;
  const uint8_t* limit = blocks + chunks / kChunksPerBlock * B::kBytes;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t first = static_cast<int64_t>(blockIdx.x) * blockDim.x; first < chunks; first += stride) {
    const int64_t warp_first = first + (threadIdx.x / kWarpSize) * kWarpSize;
    const int64_t ch = warp_first + lane;
    const uint8_t* span = blocks + warp_first / kChunksPerBlock * B::kBytes;
    if constexpr (kStagedExpand<T>) {
      uint4 pieces[kPerLane];
      const int64_t span_chunks = chunks - warp_first < kWarpSize ? chunks - warp_first : kWarpSize;
      LoadSpan<kPerLane>(span, static_cast<int>(span_chunks > 0 ? span_chunks / kChunksPerBlock * B::kBytes : 0),
                         limit, pieces);
      span = StoreSpan<kPerLane>(span, pieces, staged_blocks[warp]);
      WarpSync();
    }
    if (ch < chunks) {
      float v[32];
      B::Decode(span + lane / kChunksPerBlock * B::kBytes, static_cast<int>(ch % kChunksPerBlock), v);
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        uint4 packed;
        packed.x = Bf16Bits(v[8 * q + 0]) | (Bf16Bits(v[8 * q + 1]) << 16);
        packed.y = Bf16Bits(v[8 * q + 2]) | (Bf16Bits(v[8 * q + 3]) << 16);
        packed.z = Bf16Bits(v[8 * q + 4]) | (Bf16Bits(v[8 * q + 5]) << 16);
        packed.w = Bf16Bits(v[8 * q + 6]) | (Bf16Bits(v[8 * q + 7]) << 16);
        warp_staged[4 * lane + q] = packed;
      }
    }
    WarpSync();
    // The warp's chunks are contiguous in `out`: 4 * 32 vectors from 4 * warp_first.
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int index = q * kWarpSize + lane;
      if (warp_first + index / 4 < chunks) out[4 * warp_first + index] = warp_staged[index];
    }
    WarpSync();
  }
}

}  // namespace

LaunchStatus ExpandToBf16(GgmlType type, const void* blocks, uint16_t* out, int64_t n, StreamHandle stream) {
  if (std::string error = CheckExpand(type, blocks, out, n); !error.empty()) return {error};
  const int64_t chunks = n / 32;
  const int64_t wanted = (chunks + kExpandThreads - 1) / kExpandThreads;
  const unsigned grid = static_cast<unsigned>(wanted < (1 << 20) ? wanted : (1 << 20));
  return DispatchDecoded(type, [&](auto tag) {
    ExpandKernel<decltype(tag)::value><<<grid, kExpandThreads, 0, static_cast<cudaStream_t>(stream)>>>(
        static_cast<const uint8_t*>(blocks), reinterpret_cast<uint4*>(out), chunks);
    return LastLaunch("ExpandToBf16");
  });
}

}  // namespace vt::gpu
