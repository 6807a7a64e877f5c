// Expand to BF16: one thread per 32-value chunk decodes it and writes 64
// bytes, rounded as the CPU kernels' FloatToBf16 (PackBf16: a NaN stays a
// NaN, not necessarily with the CPU's bits). The block types decode through
// the GEMV's integer decoders (expand_codes.cuh), but for IQ1_S and Q1_0;
// those and the plain floats through the float decoders (block_decode.cuh).
// Where a choice here "measured faster", docs/GPU_TUNING.md has the runs.
#include "block_decode.cuh"
#include "expand_codes.cuh"
#include "launch_checks.h"
#include "span_stage.cuh"
#include "type_dispatch.cuh"

namespace vt::gpu {
namespace {

constexpr int kExpandThreads = 256;

// Types whose warps stage their blocks through shared memory before
// decoding (span_stage.cuh), where that measured faster; the others read
// them lane by lane.
template <GgmlType T>
constexpr bool kStagedExpand = T == GgmlType::kQ8_0 || T == GgmlType::kQ6_K;

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
      const uint8_t* block = span + lane / kChunksPerBlock * B::kBytes;
      const int chunk = static_cast<int>(ch % kChunksPerBlock);
      uint32_t packed[16];
      if constexpr (kExpandCodeForm<T> != CodeForm::kNone) {
        // A staged copy has slack past its last block, so only global
        // reads of the tensor's last block need to be exact.
        constexpr LoadMode kMode = kStagedExpand<T> ? LoadMode::kCached : LoadMode::kStreaming;
        ExpandChunkFromCodes<T, kMode>(block, chunk, !kStagedExpand<T> && block + B::kBytes == limit, packed);
      } else {
        float v[32];
        B::Decode(block, chunk, v);
        PackChunkBf16(v, packed);
      }
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        warp_staged[4 * lane + q] = make_uint4(packed[4 * q], packed[4 * q + 1], packed[4 * q + 2], packed[4 * q + 3]);
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
