// The GEMV kernel of the block types below the tensor cores (dp4a on
// int8 activations) and of the plain floats, and the expert GEMV of most
// types (gemv.cu chooses the kernel and launches it). Each warp owns R
// rows; lane l takes chunks l, l + 32, ... (32 values each) of every row,
// decodes each once per row and uses it for every activation of the batch.
// The blocks reach the lane either directly from global memory or through
// a shared-memory span (span_stage.cuh), chosen per type; the plain floats
// are read 8 values a lane. The expert GEMV is the same kernel with one
// grid row per selected expert. The per-type choices are in
// gemv_tuning.cuh; where a choice here "measured faster",
// docs/GPU_TUNING.md has the runs.
#pragma once

#include <type_traits>

#include "block_decode_int.cuh"
#include "cluster_split.cuh"
#include "gemv_params.cuh"
#include "gemv_tuning.cuh"
#include "span_stage.cuh"
#include "type_dispatch.cuh"

namespace vt::gpu {

constexpr int kGemvWarps = 4;
constexpr int kGemvThreads = kGemvWarps * kWarpSize;

// The blocks a grid of R-row warps takes for `rows` rows.
template <int R>
constexpr int64_t RowBlocks(int64_t rows) {
  return (rows + R * kGemvWarps - 1) / (R * kGemvWarps);
}

// The weights of this grid row (slot), or null for an expert id out of range.
inline __device__ const uint8_t* SlotWeights(const GemvParams& p) {
  if (p.ids == nullptr) return p.weights;
  const int32_t id = LoadFromL2(p.ids + blockIdx.y);  // from L2: see kEarlyWeightsGemv
  if (id < 0 || id >= p.experts) return nullptr;
  return p.weights + static_cast<int64_t>(id) * p.expert_bytes;
}

// Sums the lanes' partial results and writes y for this warp's rows.
template <int R, int N>
__device__ void WriteRows(const GemvParams& p, int row0, float (&acc)[R][N]) {
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  float* y = p.y + blockIdx.y * p.y_slot_stride;
#pragma unroll
  for (int r = 0; r < R; ++r) {
#pragma unroll
    for (int b = 0; b < N; ++b) {
      if (b < p.batch) {
        const float sum = WarpSum(acc[r][b]);
        if (lane == 0 && row0 + r < p.rows) y[static_cast<int64_t>(b) * p.rows + row0 + r] = sum;
      }
    }
  }
}

// WriteRows for a cluster that splits k (one activation, the plain GEMV):
// each warp's sums go to its block's shared memory, and after the cluster's
// sync the first of them adds its blocks' sums of each row and writes y.
template <int R, int N>
__device__ void WriteClusterRows(const GemvParams& p, const ClusterPlace& cluster, float (&acc)[R][N]) {
  static_assert(N == 1, "the plain GEMV of one activation");
  constexpr int kSums = kGemvWarps * R;
  __shared__ float sums[kSums];
  const int lane = static_cast<int>(threadIdx.x % kWarpSize), warp = static_cast<int>(threadIdx.x / kWarpSize);
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const float sum = WarpSum(acc[r][0]);
    if (lane == 0) sums[warp * R + r] = sum;
  }
  SyncCluster();
  const int i = static_cast<int>(threadIdx.x);
  const int row = cluster.index * kSums + i;
  if (cluster.rank == 0 && i < kSums && row < p.rows) {
    float sum = 0.0f;
    for (int b = 0; b < cluster.blocks; ++b) sum += InClusterBlock(sums, b)[i];
    p.y[row] = sum;
  }
  SyncCluster();  // no block leaves (taking its shared memory) while the first reads its sums
}

// Whether the integer GEMV of T sums each chunk's 32 products as one
// integer.
template <GgmlType T>
constexpr bool SummedDot() {
  if constexpr (kUsesIntegerGemv<T>) {
    return !IntBlock<T>::kHalfScales && kSummedChunkDot<T>;
  } else {
    return false;
  }
}

// Whether it decodes T's values as CodeOrder::kNibblePairs (and quantizes
// the activations as Q8Layout::kNibblePairs): for summed dots only, as the
// order mixes the chunk's halves.
template <GgmlType T>
constexpr bool kNibblePairGemv = kHasNibblePairOrder<T> && SummedDot<T>();

// Whether it decodes T's values as CodeOrder::kSubBlockPairs (and quantizes
// the activations as Q8Layout::kSubBlockPairs): NVFP4, whose values then
// come from LookupFp4InNibbleOrder instead of Lookup16 and a sort.
template <GgmlType T>
constexpr bool kSubBlockPairGemv = T == GgmlType::kNVFP4;

// One decoded weight chunk times every activation of the batch, into acc.
// With kWaitAfterDecode it waits for the quantizer between decoding the
// weights and reading the activations (an early kernel's first chunk).
template <GgmlType T, int R, LoadMode kMode, int N, bool kWaitAfterDecode = false>
__device__ __forceinline__ void AccumulateInteger(const GemvParams& p, const uint8_t* const (&blocks)[R], int sub,
                                                  int ch, float (&acc)[R][N], const void* codebook) {
  IntChunk wc[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    if constexpr (kNibblePairGemv<T>) {
      IntBlock<T>::template Decode<kMode, CodeOrder::kNibblePairs>(blocks[r], sub, wc[r]);
    } else if constexpr (kSubBlockPairGemv<T>) {
      IntBlock<T>::template Decode<kMode, CodeOrder::kSubBlockPairs>(blocks[r], sub, wc[r]);
    } else if constexpr (kSharedCodebookGemv<T, N>) {
      using Entry = std::remove_pointer_t<decltype(IntBlock<T>::Codebook())>;
      IntBlock<T>::template Decode<kMode>(blocks[r], sub, wc[r], static_cast<Entry*>(codebook));
    } else {
      IntBlock<T>::template Decode<kMode>(blocks[r], sub, wc[r]);
    }
  }
  if constexpr (kWaitAfterDecode) WaitForPreviousKernel();
  const int8_t* codes = p.xq.codes + blockIdx.y * p.x_slot_stride;
  const float4* scales = p.xq.scales + blockIdx.y * (p.x_slot_stride / 32);
  const int64_t x_batch_stride = static_cast<int64_t>(p.chunks) * 32;
#pragma unroll
  for (int b = 0; b < N; ++b) {
    if (b >= p.batch) continue;
    const int4* xp = reinterpret_cast<const int4*>(codes + b * x_batch_stride + 32 * ch);
    const int4 x0 = xp[0], x1 = xp[1];
    // The record {d, d * sum, d * half sums}; the summed dot reads only the
    // first two, in one 8-byte load.
    float4 s;
    if constexpr (SummedDot<T>()) {
      const float2 front = reinterpret_cast<const float2*>(scales + b * p.chunks + ch)[0];
      s = make_float4(front.x, front.y, 0.0f, 0.0f);
    } else {
      s = scales[b * p.chunks + ch];
    }
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int* v = wc[r].v;
      const int low = Dot4(v[3], x0.w, Dot4(v[2], x0.z, Dot4(v[1], x0.y, Dot4(v[0], x0.x, kFloatBias))));
      if constexpr (!SummedDot<T>()) {
        const int high = Dot4(v[7], x1.w, Dot4(v[6], x1.z, Dot4(v[5], x1.y, Dot4(v[4], x1.x, kFloatBias))));
        acc[r][b] += s.x * (wc[r].d[0] * BiasedDot(low) + wc[r].d[1] * BiasedDot(high)) -
                     (wc[r].m[0] * s.z + wc[r].m[1] * s.w);
      } else {  // d[1] == d[0], m[1] == m[0]; s.y is the activation's scale times its code sum
        const int all = Dot4(v[7], x1.w, Dot4(v[6], x1.z, Dot4(v[5], x1.y, Dot4(v[4], x1.x, low))));
        acc[r][b] += s.x * wc[r].d[0] * BiasedDot(all) - wc[r].m[0] * s.y;
      }
    }
  }
}

// Values 8 * group .. 8 * group + 7 of a row of plain floats, in one 16-byte
// load (F16, BF16) or two (F32), marked streaming.
template <GgmlType T>
__device__ __forceinline__ void EightFloats(const uint8_t* row, int64_t group, float (&v)[8]) {
  if constexpr (T == GgmlType::kF32) {
    const float4* p = reinterpret_cast<const float4*>(row) + 2 * group;
    const float4 a = LoadStreaming(p), b = LoadStreaming(p + 1);
    v[0] = a.x, v[1] = a.y, v[2] = a.z, v[3] = a.w, v[4] = b.x, v[5] = b.y, v[6] = b.z, v[7] = b.w;
  } else {
    WidenPiece<T>(LoadStreaming(reinterpret_cast<const uint4*>(row) + group), v);
  }
}

// The plain floats: lane l takes the groups of 8 values l, l + 32, ... of
// every row (so each load instruction covers whole lines), two groups per
// row at a time, and multiplies them with the float activations.
template <GgmlType T, int R, int N>
__device__ __forceinline__ void FloatRows(const GemvParams& p, const uint8_t* const (&row_begin)[R],
                                          float (&acc)[R][N]) {
  constexpr int kUnroll = 2;
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int64_t groups = static_cast<int64_t>(p.chunks) * 4;
  const int64_t x_batch_stride = static_cast<int64_t>(p.chunks) * 32;
  const float* x = p.xf + blockIdx.y * p.x_slot_stride;
  for (int64_t base = lane; base < groups; base += kUnroll * kWarpSize) {
    float v[kUnroll][R][8];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t group = base + u * kWarpSize;
#pragma unroll
      for (int r = 0; r < R; ++r) {
        if (group < groups) {
          EightFloats<T>(row_begin[r], group, v[u][r]);
        } else {
#pragma unroll
          for (int i = 0; i < 8; ++i) v[u][r][i] = 0.0f;
        }
      }
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int64_t group = base + u * kWarpSize;
      if (group >= groups) break;
#pragma unroll
      for (int b = 0; b < N; ++b) {
        if (b >= p.batch) break;
        const float4* xp = reinterpret_cast<const float4*>(x + b * x_batch_stride + 8 * group);
        const float4 x0 = xp[0], x1 = xp[1];
#pragma unroll
        for (int r = 0; r < R; ++r) {
          const float* w = v[u][r];
          acc[r][b] += w[0] * x0.x + w[1] * x0.y + w[2] * x0.z + w[3] * x0.w + w[4] * x1.x + w[5] * x1.y +
                       w[6] * x1.z + w[7] * x1.w;
        }
      }
    }
  }
}

// Spans of 32 chunks staged through shared memory; the next span loads
// while this one is decoded. It travels through registers (LoadSpan,
// StoreSpan) or, for the kAsyncStagedGemv types at batch 1-2 and the
// kAsyncStagedEarly types' early batch-1 kernel, straight into a second
// shared buffer (CopySpanAsync). kEarly: the first span is on its way
// before the wait for the quantizer.
template <GgmlType T, int R, bool kEarly, int N>
__device__ __forceinline__ void StagedRows(const GemvParams& p, const uint8_t* const (&row_begin)[R],
                                           const uint8_t* limit, int first_span, int end_span, float (&acc)[R][N],
                                           const void* codebook) {
  using B = Block<T>;
  constexpr int kChunksPerBlock = B::kValues / 32;
  constexpr int kSpanBytes = kWarpSize / kChunksPerBlock * B::kBytes;
  constexpr int kPerLane = kPiecesPerLane<kSpanBytes>;
  constexpr int kStagedVectors = kStagedBytes<kSpanBytes> / 16;
  constexpr bool kAsync =
      (kAsyncStagedGemv<T> && N <= kFewActivations) || (kEarly && kAsyncStagedEarly<T> && N == 1);
  __shared__ uint4 staged[kGemvWarps][kAsync ? 2 : 1][R][kStagedVectors];
  const int warp = static_cast<int>(threadIdx.x / kWarpSize);
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  auto span_begin = [&](int r, int s) { return row_begin[r] + static_cast<int64_t>(s) * kSpanBytes; };
  uint4 next[R][kAsync ? 1 : kPerLane];
  auto fetch = [&](int s) {  // sets span s on its way
    const int bytes = min(kWarpSize, p.chunks - kWarpSize * s) / kChunksPerBlock * B::kBytes;
#pragma unroll
    for (int r = 0; r < R; ++r) {
      if constexpr (kAsync) {
        CopySpanAsync<kPerLane>(span_begin(r, s), bytes, limit, staged[warp][s % 2][r]);
      } else {
        LoadSpan<kPerLane>(span_begin(r, s), bytes, limit, next[r]);
      }
    }
    if constexpr (kAsync) CommitSpanCopies();
  };
  fetch(first_span);
  if constexpr (kEarly) WaitForPreviousKernel();
  for (int s = first_span; s < end_span; ++s) {
    const uint8_t* blocks[R];
    WarpSync();  // the previous span's readers are done
    if constexpr (kAsync) {
      if (s + 1 < end_span) {
        fetch(s + 1);
        WaitForSpanCopies<1>();
      } else {
        WaitForSpanCopies<0>();
      }
#pragma unroll
      for (int r = 0; r < R; ++r) blocks[r] = StagedStart(span_begin(r, s), staged[warp][s % 2][r]);
    } else {
#pragma unroll
      for (int r = 0; r < R; ++r) blocks[r] = StoreSpan<kPerLane>(span_begin(r, s), next[r], staged[warp][0][r]);
    }
    WarpSync();  // every lane's pieces of span s are in place
    if (!kAsync && s + 1 < end_span) fetch(s + 1);
    const int ch = kWarpSize * s + lane;
    if (ch >= p.chunks) continue;
#pragma unroll
    for (int r = 0; r < R; ++r) blocks[r] += lane / kChunksPerBlock * B::kBytes;
    AccumulateInteger<T, R, LoadMode::kCached>(p, blocks, lane % kChunksPerBlock, ch, acc, codebook);  // staged copies have slack
  }
}

template <GgmlType T>
constexpr bool ReadsPastFields() {
  if constexpr (kUsesIntegerGemv<T>) {
    return IntBlock<T>::kReadsPastFields;
  } else {
    return false;
  }
}

// Chunk `ch` of every row, its blocks read straight from global memory; the
// tensor's last block is read exactly (LoadMode).
template <GgmlType T, int R, LoadMode kMode, bool kWait = false, int N>
__device__ __forceinline__ void DirectChunk(const GemvParams& p, const uint8_t* const (&row_begin)[R],
                                            const uint8_t* limit, int ch, float (&acc)[R][N], const void* codebook) {
  using B = Block<T>;
  constexpr int kChunksPerBlock = B::kValues / 32;
  const int64_t offset = static_cast<int64_t>(ch / kChunksPerBlock) * B::kBytes;
  const uint8_t* blocks[R];
  bool last = false;
#pragma unroll
  for (int r = 0; r < R; ++r) {
    blocks[r] = row_begin[r] + offset;
    last = last || blocks[r] + B::kBytes == limit;
  }
  if (ReadsPastFields<T>() && last) {
    AccumulateInteger<T, R, LoadMode::kExact, N, kWait>(p, blocks, ch % kChunksPerBlock, ch, acc, codebook);
  } else {
    AccumulateInteger<T, R, kMode, N, kWait>(p, blocks, ch % kChunksPerBlock, ch, acc, codebook);
  }
}

// Lane l takes chunks begin + l, begin + l + 32, ... below end (all of k
// but in a cluster that splits it). Bulk loads are marked streaming for
// larger batches (the activations then stay in L1) and for the types of
// kStreamingAtFewRows. kEarly: the first chunk is decoded before the wait
// for the quantizer.
template <GgmlType T, int R, bool kEarly, int N>
__device__ __forceinline__ void DirectRows(const GemvParams& p, const uint8_t* const (&row_begin)[R],
                                           const uint8_t* limit, int begin, int end, float (&acc)[R][N],
                                           const void* codebook) {
  constexpr LoadMode kMode = N > kFewActivations || kStreamingAtFewRows<T> ? LoadMode::kStreaming : LoadMode::kCached;
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  int first = begin + lane;
  if constexpr (kEarly) {
    if (first < end) {
      DirectChunk<T, R, kMode, true>(p, row_begin, limit, first, acc, codebook);
    } else {
      WaitForPreviousKernel();
    }
    first += kWarpSize;
  }
  // Without a pragma the compiler unrolls as it sees fit, which is not
  // what "#pragma unroll 1" asks for.
  constexpr int kUnroll = kDirectRowsUnroll<T, R, N, kEarly>;
  if constexpr (kUnroll > 1) {
#pragma unroll kUnroll
    for (int ch = first; ch < end; ch += kWarpSize) DirectChunk<T, R, kMode>(p, row_begin, limit, ch, acc, codebook);
  } else {
    for (int ch = first; ch < end; ch += kWarpSize) DirectChunk<T, R, kMode>(p, row_begin, limit, ch, acc, codebook);
  }
}

// R rows per warp, each with sums for at most N activations (1,
// kFewActivations or kMaxGemvBatch). kEarly (a plain or expert GEMV of the
// kEarlyWeightsGemv types):
// the weights (and expert ids) are read before the wait for the quantizer,
// which StagedRows / DirectRows then make (kernels.h states what that asks
// of the caller). kSplitK (kClusterSplitGemv types' plain batch 1): a
// cluster of blocks owns the rows of one, each a run of k (cluster_split.cuh).
// kEightBlocks (kBatchOneBlocksByFill types' plain batch 1, where
// FillsBetter says): held to eight blocks a SM, whatever
// kMinBlocksPerSm says.
template <GgmlType T, int R, int N, bool kEarly, bool kSplitK = false, bool kEightBlocks = false>
__global__ void __launch_bounds__(kGemvThreads, (kEightBlocks ? 8 : kMinBlocksPerSm<T, N>)) GemvKernel(GemvParams p) {
  // The next launch (on the integer path, the next quantizer) may queue
  // behind this grid's last blocks; it waits for them to finish. The plain
  // floats, whose next launch is another GEMV, measured slower with this.
  if constexpr (kUsesIntegerGemv<T>) StartDependentKernel();
  const int warp = static_cast<int>(threadIdx.x / kWarpSize);
  const ClusterPlace cluster = ThisClusterPlace<kSplitK>();
  const int row0 = (cluster.index * kGemvWarps + warp) * R;
  // A codebook type's grid, copied into shared memory (by every warp of
  // the block, before any leaves) while the quantizer finishes.
  const void* codebook = nullptr;
  if constexpr (kSharedCodebookGemv<T, N>) {
    constexpr int kVectors = IntBlock<T>::kCodebookBytes / 16;
    __shared__ uint4 codebook_copy[kVectors];
    const uint4* table = reinterpret_cast<const uint4*>(IntBlock<T>::Codebook());
    for (int i = static_cast<int>(threadIdx.x); i < kVectors; i += kGemvThreads) codebook_copy[i] = table[i];
    __syncthreads();
    codebook = codebook_copy;
  }
  // A cluster's warps all reach its syncs: past the last row they read the
  // last row's bytes and write nothing.
  if (!kSplitK && row0 >= p.rows) return;
  float acc[R][N] = {};
  if constexpr (!kEarly) WaitForPreviousKernel();  // the quantized activations (and expert ids) are written
  const uint8_t* w = SlotWeights(p);
  // Only an expert's id is ever out of range, and kSplitK serves the plain
  // GEMV alone: its warps never leave before the cluster's syncs.
  if (!kSplitK && w == nullptr) {
    // An early kernel may run while the kernels before it still read y.
    if constexpr (kEarly) WaitForPreviousKernel();
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r][0] = __int_as_float(0x7FC00000);
    WriteRows<R>(p, row0, acc);
    return;
  }
  const uint8_t* row_begin[R];
#pragma unroll
  for (int r = 0; r < R; ++r) row_begin[r] = w + static_cast<int64_t>(min(row0 + r, p.rows - 1)) * p.row_bytes;
  const uint8_t* limit = w + static_cast<int64_t>(p.rows) * p.row_bytes;
  if constexpr (!kUsesIntegerGemv<T>) {
    FloatRows<T, R>(p, row_begin, acc);
  } else if constexpr (kStagedGemv<T> || (N <= kFewActivations && kStagedAtFewRows<T>)) {
    const int spans = (p.chunks + kWarpSize - 1) / kWarpSize;
    StagedRows<T, R, kEarly>(p, row_begin, limit, RunStart(spans, cluster.rank, cluster.blocks),
                             RunStart(spans, cluster.rank + 1, cluster.blocks), acc, codebook);
  } else if constexpr (kSplitK) {
    DirectRows<T, R, kEarly>(p, row_begin, limit, RunStart(p.chunks, cluster.rank, cluster.blocks),
                             RunStart(p.chunks, cluster.rank + 1, cluster.blocks), acc, codebook);
  } else {
    DirectRows<T, R, kEarly>(p, row_begin, limit, 0, p.chunks, acc, codebook);
  }
  if constexpr (kSplitK) {
    WriteClusterRows<R>(p, cluster, acc);
  } else {
    WriteRows<R>(p, row0, acc);
  }
}

}  // namespace vt::gpu
