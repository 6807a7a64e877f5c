// Keep-quant GEMV and expert GEMV. Each warp owns R rows; lane l takes
// chunks l, l + 32, ... (32 values each) of every row, decodes each once per
// row and uses it for every activation of the batch. The blocks reach the
// lane either directly from global memory or through a shared-memory span
// (span_stage.cuh), chosen per type; the plain floats are read 8 values a
// lane. Expert GEMV is the same kernel with one grid row per selected
// expert. Larger batches of the types with a fragment decoder run on
// tensor cores instead (gemv_tensor_core.cuh), as do their GEMM
// (LaunchInt8Gemm below) and a few types' expert GEMV; so do F16's and
// BF16's from batch 2 (gemv_float_mma.cuh). The per-type
// choices are in gemv_tuning.cuh (gemv_tensor_core_tuning.cuh for the
// tensor-core kernel's).
#include <limits>
#include <utility>

#include "block_decode_int.cuh"
#include "cluster_split.cuh"
#include "gemv_float_mma.cuh"
#include "gemv_params.cuh"
#include "gemv_tensor_core.cuh"
#include "gemv_tuning.cuh"
#include "launch_checks.h"
#include "span_stage.cuh"
#include "tensor_core_gemm.h"
#include "type_dispatch.cuh"

namespace vt::gpu {
namespace {

constexpr int kWarpsPerBlock = 4;
constexpr int kThreads = kWarpsPerBlock * kWarpSize;

// The blocks a grid of R-row warps takes for `rows` rows.
template <int R>
constexpr int64_t RowBlocks(int64_t rows) {
  return (rows + R * kWarpsPerBlock - 1) / (R * kWarpsPerBlock);
}

// The weights of this grid row (slot), or null for an expert id out of range.
__device__ const uint8_t* SlotWeights(const GemvParams& p) {
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
  constexpr int kSums = kWarpsPerBlock * R;
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
  __shared__ uint4 staged[kWarpsPerBlock][kAsync ? 2 : 1][R][kStagedVectors];
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
__global__ void __launch_bounds__(kThreads, (kEightBlocks ? 8 : kMinBlocksPerSm<T, N>)) GemvKernel(GemvParams p) {
  // The next launch (on the integer path, the next quantizer) may queue
  // behind this grid's last blocks; it waits for them to finish. The plain
  // floats, whose next launch is another GEMV, measured slower with this.
  if constexpr (kUsesIntegerGemv<T>) StartDependentKernel();
  const int warp = static_cast<int>(threadIdx.x / kWarpSize);
  const ClusterPlace cluster = ThisClusterPlace<kSplitK>();
  const int row0 = (cluster.index * kWarpsPerBlock + warp) * R;
  // A codebook type's grid, copied into shared memory (by every warp of
  // the block, before any leaves) while the quantizer finishes.
  const void* codebook = nullptr;
  if constexpr (kSharedCodebookGemv<T, N>) {
    constexpr int kVectors = IntBlock<T>::kCodebookBytes / 16;
    __shared__ uint4 codebook_copy[kVectors];
    const uint4* table = reinterpret_cast<const uint4*>(IntBlock<T>::Codebook());
    for (int i = static_cast<int>(threadIdx.x); i < kVectors; i += kThreads) codebook_copy[i] = table[i];
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

#if !defined(VT_HIP)
// kTensorCoreGemvTypes (registry.h), which the GEMM hands to this GEMV, lists
// exactly the types with a fragment decoder.
template <size_t... I>
constexpr bool TensorCoreListMatches(std::index_sequence<I...>) {
  return ((kTensorCoreGemv<kDecodedTypes[I]> == SetOf(kTensorCoreGemvTypes).Contains(kDecodedTypes[I])) && ...);
}
static_assert(TensorCoreListMatches(std::make_index_sequence<kDecodedTypes.size()>{}),
              "kTensorCoreGemvTypes must list exactly the types with a fragment decoder");
#endif

// Queues the activation quantizer: p.xf's `activations` rows into the room
// of `columns` in `workspace` (p.xq), laid out as `layout`, after zeroing
// the first `clear` floats of p.y. It may launch while the kernel before it
// finishes and waits for that kernel on the device before touching memory;
// with `release_after_wait` the GEMV behind it launches only after that.
// group_runs: runs of 32 under one scale (activation_q8.cuh).
cudaError_t QueueQuantizer(GemvParams& p, Q8Layout layout, int activations, int columns, int64_t clear,
                           void* workspace, cudaStream_t stream, bool release_after_wait = false, int group_runs = 1) {
  p.xq = CarveWorkspace(workspace, static_cast<int64_t>(p.chunks) * 32, columns);
  const int64_t warps = static_cast<int64_t>(columns) * p.chunks / group_runs;
  const int64_t quant_blocks = (warps * kWarpSize + 255) / 256;
  const dim3 grid(static_cast<unsigned>(quant_blocks < 65535 ? quant_blocks : 65535));
  auto* const kernel = layout == Q8Layout::kMmaTileBlockWords
                           ? (release_after_wait ? QuantizeActivationsQ8BlockWordsReleasedAfterWait
                                                 : QuantizeActivationsQ8BlockWords)
                       : release_after_wait ? QuantizeActivationsQ8ReleasedAfterWait
                                            : QuantizeActivationsQ8;
  return LaunchAfterPrevious(kernel, grid, dim3(256), stream, p.xf, layout, activations, columns,
                             static_cast<int64_t>(p.chunks), group_runs, p.xq, p.y, clear);
}

// Queues the zeroing of y's first `clear` floats (ClearAfterPrevious), for a
// tensor-core expert GEMV whose activations an earlier call quantized;
// `release_after_wait` as in QueueQuantizer.
cudaError_t QueueClear(float* y, int64_t clear, cudaStream_t stream, bool release_after_wait) {
  const int64_t blocks = (clear + 255) / 256;
  const dim3 grid(static_cast<unsigned>(blocks < 65535 ? blocks : 65535));
  return LaunchAfterPrevious(release_after_wait ? ClearAfterPreviousReleasedAfterWait : ClearAfterPrevious, grid,
                             dim3(256), stream, y, clear);
}

// Whether an expert GEMV of T with `activations` (1 for a shared x) runs on
// the tensor cores: its activations then fill one tile, in T's tensor-core
// layout, whether its own quantizer or QuantizeExpertActivations writes them.
template <GgmlType T>
constexpr bool TensorCoreExpert(int activations) {
  return kTensorCoreExpertGemv<T> && activations <= kQ8TileColumns;
}

// The activation layout of T's dp4a GEMV (every GEMV below the tensor
// cores, and every expert GEMV).
template <GgmlType T>
constexpr Q8Layout kDp4aGemvLayout = kNibblePairGemv<T>     ? Q8Layout::kNibblePairs
                                     : kSubBlockPairGemv<T> ? Q8Layout::kSubBlockPairs
                                                            : Q8Layout::kRows;

#if !defined(VT_HIP)
// Types whose plain batch-1 GEMV splits k over clusters where its rows are
// too few to fill the device: those that read their blocks straight from
// global memory there (DirectRows), and the kStagedClusterSplit ones
// (StagedRows, each block a run of spans); the other staged ones keep
// whole rows.
template <GgmlType T>
constexpr bool kClusterSplitGemv = kUsesIntegerGemv<T> && (!kStagedGemv<T> || kStagedClusterSplit<T>) &&
                                   !kStagedAtFewRows<T> && !kBatchOneOnTwoActivationKernel<T> &&
                                   kTensorCoreMinBatch<T> > 1;
// The fewest chunks a block of such a cluster keeps: two for each lane.
constexpr int kClusterSplitMinChunks = 2 * kWarpSize;

// Launches T's plain batch-1 GEMV (R rows a warp, kEarly as GemvKernel's)
// over `blocks` blocks, k split over clusters where ChooseClusterSplit says
// so.
template <GgmlType T, int R, bool kEarly>
cudaError_t LaunchClusterSplitGemv(const GemvParams& p, int64_t blocks, cudaStream_t stream) {
  constexpr auto kWhole = GemvKernel<T, R, 1, kEarly, false>;
  constexpr auto kSplit = GemvKernel<T, R, 1, kEarly, true>;
  const int most = p.chunks / kClusterSplitMinChunks;
  int split = 1;
  if (const cudaError_t error = ChooseClusterSplit<kWhole, kSplit, kThreads>(blocks, most, split);
      error != cudaSuccess) {
    return error;
  }
  if (split == 1) return LaunchAfterPrevious(kWhole, dim3(static_cast<unsigned>(blocks)), dim3(kThreads), stream, p);
  return LaunchClustersAfterPrevious(kSplit, dim3(static_cast<unsigned>(blocks * split)), dim3(kThreads),
                                     static_cast<unsigned>(split), stream, p);
}

// How many waves of the blocks the device holds at once (`resident`) a grid
// of `blocks` blocks of kKernel takes (`waves`, fractional).
template <auto kKernel>
cudaError_t Waves(int64_t blocks, int64_t& resident, double& waves) {
  if (const cudaError_t error = ResidentBlocks<kKernel, kThreads>(resident); error != cudaSuccess) return error;
  waves = static_cast<double>(blocks) / static_cast<double>(resident);
  return cudaSuccess;
}

// How much of the device a plain batch-1 launch of T at R rows a warp
// (held to eight blocks a SM with kEightBlocks) keeps busy (`fill`): from
// one wave of the blocks it holds at once, its waves over the whole waves
// they take; under one, its blocks (times the cluster split, for a
// kClusterSplitGemv type) over those it holds.
template <GgmlType T, int R, bool kEightBlocks = false>
cudaError_t BatchOneFill(const GemvParams& p, double& fill) {
  static_assert(!kEightBlocks || !kClusterSplitGemv<T>, "eight blocks a SM only for whole rows");
  constexpr auto kWhole = GemvKernel<T, R, 1, kEarlyWeightsGemv<T>, false, kEightBlocks>;
  const int64_t blocks = RowBlocks<R>(p.rows);
  int64_t resident = 0;
  double waves = 0.0;
  if (const cudaError_t error = Waves<kWhole>(blocks, resident, waves); error != cudaSuccess) return error;
  if (waves >= 1.0) {
    fill = waves / static_cast<double>((blocks + resident - 1) / resident);
    return cudaSuccess;
  }
  int split = 1;
  if constexpr (kClusterSplitGemv<T>) {
    constexpr auto kSplit = GemvKernel<T, R, 1, kEarlyWeightsGemv<T>, true>;
    if (const cudaError_t error =
            ChooseClusterSplit<kWhole, kSplit, kThreads>(blocks, p.chunks / kClusterSplitMinChunks, split);
        error != cudaSuccess) {
      return error;
    }
  }
  fill = waves * split;
  return cudaSuccess;
}

// The rows a warp other than kGemvRowsAtBatchOne that a kBatchOneRowsByFill
// type's batch-1 GEMV may take.
template <GgmlType T>
constexpr int kOtherBatchOneRows = kGemvRowsAtBatchOne<T> == 3 ? 2 : 3;

// Whether T's plain batch-1 kernel of R rows a warp (held to eight blocks a
// SM with kEightBlocks) keeps the device busier than its own kernel
// (kGemvRowsAtBatchOne rows, its own blocks a SM) by more than a twentieth,
// as BatchOneFill measures it (`better`): the choice of a
// kBatchOneRowsByFill type's rows a warp, and of a kBatchOneBlocksByFill
// type's blocks a SM.
template <GgmlType T, int R, bool kEightBlocks>
cudaError_t FillsBetter(const GemvParams& p, bool& better) {
  double fill = 0.0, fill_other = 0.0;
  cudaError_t error = BatchOneFill<T, kGemvRowsAtBatchOne<T>>(p, fill);
  if (error == cudaSuccess) error = BatchOneFill<T, R, kEightBlocks>(p, fill_other);
  better = error == cudaSuccess && fill_other > fill + 0.05;
  return error;
}

// Whether F16's or BF16's batch 1 runs on the 16-bit float tensor-core
// kernel rather than FloatRows (`yes`): where FloatRows' blocks leave the
// device short, fewer than kFloatMmaBatchOneWaves of the blocks it holds at
// once, or a second wave of fewer than kFloatMmaBatchOneTail of them (its
// per-warp loads then wait on memory with few warps to cover them, and the
// tensor-core kernel splits k over clusters instead).
template <GgmlType T>
cudaError_t FloatMmaAtBatchOne(const GemvParams& p, bool& yes) {
  yes = false;
  int64_t resident = 0;
  double waves = 0.0;
  if (const cudaError_t error = Waves<GemvKernel<T, kGemvRowsAtBatchOne<T>, 1, false>>(
          RowBlocks<kGemvRowsAtBatchOne<T>>(p.rows), resident, waves);
      error != cudaSuccess) {
    return error;
  }
  yes = waves < kFloatMmaBatchOneWaves || (waves > 1.0 && waves < 1.0 + kFloatMmaBatchOneTail);
  return cudaSuccess;
}
#endif

// How a GEMV's inputs came about (ExpertGemvArgs' ids_settled and
// x_quantized, MatmulArgs' x_quantized); a plain GEMV's ids_settled and a
// GEMM pass's both take the defaults.
struct GemvInputs {
  bool ids_settled = false;
  bool x_quantized = false;
};

// Whether the GEMV of T over p, with `activations` of them (1 for an expert
// GEMV's shared x), runs on the tensor cores; its activations then take
// T's tensor-core layout, one tile of them.
template <GgmlType T>
bool OnTensorCores(const GemvParams& p, int activations) {
  return kTensorCoreGemv<T> && p.row_bytes <= std::numeric_limits<int>::max() &&
         (p.ids == nullptr ? p.batch >= kTensorCoreMinBatch<T> : TensorCoreExpert<T>(activations));
}

// Queues the quantizer alone of the GEMV of T over p (a block type), as
// QuantizeActivations and QuantizeExpertActivations do for callers that
// share it; `entry` names the caller in errors.
template <GgmlType T>
LaunchStatus QueueSharedQuantizer(GemvParams p, int activations, void* workspace, cudaStream_t stream,
                                  const char* entry) {
  const cudaError_t queued =
      OnTensorCores<T>(p, activations)
          ? QueueQuantizer(p, kTensorCoreGemvLayout<T>, activations, kQ8TileColumns, 0, workspace, stream, false,
                           kTensorCoreGroupRuns<T>)
          : QueueQuantizer(p, kDp4aGemvLayout<T>, activations, activations, 0, workspace, stream);
  if (queued != cudaSuccess) return {std::string(entry) + ": launch failed: " + cudaGetErrorString(queued)};
  return LastLaunch(entry);
}

// Quantizes the activations (integer path; not with inputs.x_quantized,
// whose workspace holds them already) and launches the GEMV of type T.
template <GgmlType T>
LaunchStatus LaunchGemv(GemvParams p, int activations, int slots, void* workspace, cudaStream_t stream,
                        const char* entry, GemvInputs inputs = {}) {
  static_assert(kTensorCoreGroupRuns<T> <= kMaxGroupRuns, "a group a warp can quantize");
  const bool tensor_cores = OnTensorCores<T>(p, activations);
  // An expert GEMV of a type that reads W before its wait in the plain
  // GEMV reads its ids and weights early too: with settled ids behind a
  // quantizer (if any) that releases it at once, as there; otherwise behind
  // its own quantizer, which must then release it only after its own wait
  // (with x_quantized and ids not settled there is none, so it waits first).
  const bool early_expert =
      p.ids != nullptr && kEarlyWeightsGemv<T> && (inputs.ids_settled || !inputs.x_quantized);
  if constexpr (kUsesIntegerGemv<T>) {
    cudaError_t queued = cudaSuccess;
    if (tensor_cores) {  // it adds into y ([slots][rows] for an expert GEMV), zeroed first
      // Its kernel reads an expert's id before its wait, so with ids not
      // settled the launch before it releases it only after its own wait.
      const int64_t clear = static_cast<int64_t>(p.ids == nullptr ? p.batch : slots) * p.rows;
      const bool release_after_wait = p.ids != nullptr && !inputs.ids_settled;
      if (inputs.x_quantized) {
        p.xq = CarveWorkspace(workspace, static_cast<int64_t>(p.chunks) * 32, kQ8TileColumns);
        queued = QueueClear(p.y, clear, stream, release_after_wait);
      } else {
        queued = QueueQuantizer(p, kTensorCoreGemvLayout<T>, activations, kQ8TileColumns, clear, workspace, stream,
                                release_after_wait, kTensorCoreGroupRuns<T>);
      }
    } else if (inputs.x_quantized) {
      p.xq = CarveWorkspace(workspace, static_cast<int64_t>(p.chunks) * 32, activations);
    } else {
      queued = QueueQuantizer(p, kDp4aGemvLayout<T>, activations, activations, 0, workspace, stream,
                              early_expert && !inputs.ids_settled);
    }
    if (queued != cudaSuccess) return {std::string(entry) + ": quantizer launch failed: " + cudaGetErrorString(queued)};
  }
  if constexpr (kTensorCoreGemv<T>) {
    if (tensor_cores) {
      cudaError_t launched = cudaSuccess;
      if constexpr (kTensorCoreExpertGemv<T>) {
        launched = p.ids != nullptr ? LaunchTensorCoreGemv<T, 1, true>(p, stream, slots)
                                    : LaunchTensorCoreGemv<T, 1>(p, stream);
      } else {
        launched = LaunchTensorCoreGemv<T, 1>(p, stream);
      }
      if (launched != cudaSuccess) {
        return {std::string(entry) + ": launch failed: " + cudaGetErrorString(launched)};
      }
      return LastLaunch(entry);
    }
  }
#if !defined(VT_HIP)
  if constexpr (T == GgmlType::kF16 || T == GgmlType::kBF16) {
    bool float_mma = false;  // the plain GEMV from kFloatMmaMinBatch, and batch 1 where FloatMmaAtBatchOne says
    if (p.ids == nullptr && p.batch >= kFloatMmaMinBatch) {
      float_mma = true;
    } else if (p.ids == nullptr) {
      if (const cudaError_t error = FloatMmaAtBatchOne<T>(p, float_mma); error != cudaSuccess) {
        return {std::string(entry) + ": device query failed: " + cudaGetErrorString(error)};
      }
    }
    if (float_mma) {
      if (const cudaError_t launched = LaunchFloatMmaGemv<T>(p, stream); launched != cudaSuccess) {
        return {std::string(entry) + ": launch failed: " + cudaGetErrorString(launched)};
      }
      return LastLaunch(entry);
    }
  }
#endif
  auto launch = [&](auto rows_per_warp, auto activations) {
    constexpr int R = decltype(rows_per_warp)::value;
    constexpr int N = decltype(activations)::value;
    const dim3 grid(static_cast<unsigned>(RowBlocks<R>(p.rows)), static_cast<unsigned>(slots));
    if constexpr (kUsesIntegerGemv<T> && kEarlyWeightsGemv<T> && N <= kFewActivations) {
      if (p.ids == nullptr || early_expert) {
        return LaunchAfterPrevious(GemvKernel<T, R, N, true>, grid, dim3(kThreads), stream, p);
      }
    }
    return LaunchAfterPrevious(GemvKernel<T, R, N, false>, grid, dim3(kThreads), stream, p);
  };
  // The activation cap of the batch-1 kernel (and the expert GEMV's).
  using BatchOne = std::integral_constant<int, kBatchOneOnTwoActivationKernel<T> ? kFewActivations : 1>;
  using PlainRows = std::integral_constant<int, kGemvRowsAtFewActivations<T>>;
  using BatchOneRows = std::integral_constant<int, kGemvRowsAtBatchOne<T>>;
  cudaError_t launched;
  if (p.batch > kFewActivations) {
    launched = launch(std::integral_constant<int, kManyRows>{}, std::integral_constant<int, kMaxGemvBatch>{});
  } else if (p.batch == kFewActivations) {  // the plain GEMV (an expert GEMV has one activation per slot)
    launched = launch(PlainRows{}, std::integral_constant<int, kFewActivations>{});
  } else if (slots == 1 && p.ids != nullptr) {  // an expert GEMV of one expert
    launched = launch(BatchOneRows{}, BatchOne{});
  } else if (slots == 1) {  // the plain GEMV
#if !defined(VT_HIP)
    // R rows a warp, k split over clusters for a kClusterSplitGemv type.
    auto batch_one = [&](auto rows_per_warp) {
      if constexpr (kClusterSplitGemv<T>) {
        constexpr int R = decltype(rows_per_warp)::value;
        return LaunchClusterSplitGemv<T, R, kEarlyWeightsGemv<T>>(p, RowBlocks<R>(p.rows), stream);
      } else {
        return launch(rows_per_warp, BatchOne{});
      }
    };
    bool other = false, eight = false;  // the choices FillsBetter makes for the types that make them
    cudaError_t asked = cudaSuccess;
    if constexpr (kBatchOneRowsByFill<T>) asked = FillsBetter<T, kOtherBatchOneRows<T>, false>(p, other);
    if constexpr (kBatchOneBlocksByFill<T>) asked = FillsBetter<T, kGemvRowsAtBatchOne<T>, true>(p, eight);
    if (asked != cudaSuccess) return {std::string(entry) + ": device query failed: " + cudaGetErrorString(asked)};
    if constexpr (kBatchOneRowsByFill<T>) {
      launched = other ? batch_one(std::integral_constant<int, kOtherBatchOneRows<T>>{}) : batch_one(BatchOneRows{});
    } else if constexpr (kBatchOneBlocksByFill<T>) {
      static_assert(!kEarlyWeightsGemv<T> && !kClusterSplitGemv<T> && BatchOne::value == 1,
                    "the kernel launch() picks, held to eight blocks");
      launched = eight ? LaunchAfterPrevious(GemvKernel<T, BatchOneRows::value, BatchOne::value, false, false, true>,
                                             dim3(static_cast<unsigned>(RowBlocks<BatchOneRows::value>(p.rows))),
                                             dim3(kThreads), stream, p)
                       : batch_one(BatchOneRows{});
    } else {
      launched = batch_one(BatchOneRows{});
    }
#else
    launched = launch(BatchOneRows{}, BatchOne{});
#endif
  } else {
    launched = launch(std::integral_constant<int, kExpertGemvRows<T>>{}, BatchOne{});
  }
  if (launched != cudaSuccess) return {std::string(entry) + ": launch failed: " + cudaGetErrorString(launched)};
  return LastLaunch(entry);
}

// The parameters of `a`'s matrix times its activations first .. first +
// batch - 1.
GemvParams MatmulParams(const MatmulArgs& a, int64_t first, int batch) {
  GemvParams p{};
  p.weights = static_cast<const uint8_t*>(a.weights);
  p.row_bytes = RowBytes(a.type, a.k);
  p.rows = static_cast<int>(a.rows);
  p.chunks = static_cast<int>(a.k / 32);
  p.xf = a.x + first * a.k;
  p.batch = batch;
  p.y = a.y + first * a.rows;
  return p;
}

// The parameters of the expert GEMV `a` (checked).
GemvParams ExpertParams(const ExpertGemvArgs& a) {
  GemvParams p{};
  p.weights = static_cast<const uint8_t*>(a.tower);
  p.row_bytes = RowBytes(a.type, a.k);
  p.expert_bytes = p.row_bytes * a.rows;
  p.ids = a.ids;
  p.experts = a.experts;
  p.rows = static_cast<int>(a.rows);
  p.chunks = static_cast<int>(a.k / 32);
  p.xf = a.x;
  p.x_slot_stride = a.shared_x ? 0 : a.k;
  p.batch = 1;
  p.y = a.y;
  p.y_slot_stride = a.rows;
  return p;
}

// Activations of a GEMM pass: whole tiles of 8 the tensor-core kernel
// multiplies per decoded weight chunk.
constexpr int kGemmTiles = kGemmColumns / kQ8TileColumns;
static_assert(kGemmColumns % kQ8TileColumns == 0, "GEMM passes are whole tiles");

// The GEMM of a tensor-core type T: passes over the weights, each with up
// to kGemmPassColumns<T> activations (quantized into the workspace, y's
// columns zeroed, then the tensor-core kernel with kGemmTiles tiles); a
// pass of 8 or fewer is the GEMV's. The stream orders the passes.
template <GgmlType T>
LaunchStatus LaunchInt8Gemm(const GemmArgs& a, void* workspace, cudaStream_t stream) {
  if constexpr (!kTensorCoreGemv<T>) {
    return {"Gemm: type " + std::string(NameOf(T)) + " has no int8 tensor-core kernel"};
  } else {
    constexpr int kPass = kGemmPassColumns<T>;
    for (int64_t b0 = 0; b0 < a.batch; b0 += kPass) {
      GemvParams p = MatmulParams(a, b0, static_cast<int>(a.batch - b0 < kPass ? a.batch - b0 : kPass));
      if (p.batch <= kMaxGemvBatch || p.row_bytes > std::numeric_limits<int>::max()) {
        for (int g0 = 0; g0 < p.batch; g0 += kMaxGemvBatch) {
          GemvParams group = p;
          group.xf = p.xf + g0 * a.k;
          group.y = p.y + g0 * a.rows;
          group.batch = p.batch - g0 < kMaxGemvBatch ? p.batch - g0 : kMaxGemvBatch;
          if (LaunchStatus status = LaunchGemv<T>(group, group.batch, 1, workspace, stream, "Gemm"); !status.ok()) {
            return status;
          }
        }
        continue;
      }
      const int columns = (p.batch + kQ8TileColumns - 1) / kQ8TileColumns * kQ8TileColumns;
      if (const cudaError_t queued = QueueQuantizer(p, Q8Layout::kMmaTiles, p.batch, columns,
                                                    static_cast<int64_t>(p.batch) * p.rows, workspace, stream);
          queued != cudaSuccess) {
        return {std::string("Gemm: quantizer launch failed: ") + cudaGetErrorString(queued)};
      }
      if (const cudaError_t launched = LaunchTensorCoreGemv<T, kGemmTiles>(p, stream); launched != cudaSuccess) {
        return {std::string("Gemm: launch failed: ") + cudaGetErrorString(launched)};
      }
      if (LaunchStatus status = LastLaunch("Gemm"); !status.ok()) return status;
    }
    return {};
  }
}

#if !defined(VT_HIP)
// The GEMM of F16 or BF16: passes over the weights, each with up to
// kFloatGemmColumnTiles tiles of 8 activations, on the GEMV's kernel.
template <GgmlType T>
LaunchStatus LaunchFloatMmaGemm(const GemmArgs& a, cudaStream_t stream) {
  constexpr int kPass = 8 * kFloatGemmColumnTiles;
  for (int64_t b0 = 0; b0 < a.batch; b0 += kPass) {
    const GemvParams p = MatmulParams(a, b0, static_cast<int>(a.batch - b0 < kPass ? a.batch - b0 : kPass));
    if (const cudaError_t launched = LaunchFloatMmaGemv<T, kFloatGemmColumnTiles, kFloatGemmRowTiles>(p, stream);
        launched != cudaSuccess) {
      return {std::string("Gemm: launch failed: ") + cudaGetErrorString(launched)};
    }
    if (LaunchStatus status = LastLaunch("Gemm"); !status.ok()) return status;
  }
  return {};
}
#endif

}  // namespace

#if !defined(VT_HIP)
LaunchStatus FloatMmaGemm(const GemmArgs& a, StreamHandle stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  return a.type == GgmlType::kF16 ? LaunchFloatMmaGemm<GgmlType::kF16>(a, s)
                                  : LaunchFloatMmaGemm<GgmlType::kBF16>(a, s);
}
#endif

LaunchStatus Int8Gemm(const GemmArgs& a, void* workspace, StreamHandle stream) {
  return DispatchDecoded(a.type, [&](auto tag) {
    return LaunchInt8Gemm<decltype(tag)::value>(a, workspace, static_cast<cudaStream_t>(stream));
  });
}

LaunchStatus Gemv(const GemvArgs& a, void* workspace, size_t workspace_bytes, StreamHandle stream) {
  if (std::string error = CheckGemv(a, workspace, workspace_bytes); !error.empty()) return {error};
  const GemvParams p = MatmulParams(a, 0, a.batch);
  return DispatchDecoded(a.type, [&](auto tag) {
    return LaunchGemv<decltype(tag)::value>(p, a.batch, 1, workspace, static_cast<cudaStream_t>(stream), "Gemv",
                                            {.x_quantized = a.x_quantized});
  });
}

LaunchStatus QuantizeActivations(const GemvArgs& a, void* workspace, size_t workspace_bytes, StreamHandle stream) {
  const char* entry = "QuantizeActivations";
  if (std::string error = CheckGemv(a, workspace, workspace_bytes, entry); !error.empty()) return {error};
  return DispatchDecoded(a.type, [&](auto tag) -> LaunchStatus {
    constexpr GgmlType T = decltype(tag)::value;
    if constexpr (!kUsesIntegerGemv<T>) {
      return {};
    } else {
      return QueueSharedQuantizer<T>(MatmulParams(a, 0, a.batch), a.batch, workspace,
                                     static_cast<cudaStream_t>(stream), entry);
    }
  });
}

LaunchStatus ExpertGemv(const ExpertGemvArgs& a, void* workspace, size_t workspace_bytes, StreamHandle stream) {
  if (std::string error = CheckExpertGemv(a, workspace, workspace_bytes); !error.empty()) return {error};
  const int activations = a.shared_x ? 1 : a.count;
  return DispatchDecoded(a.type, [&](auto tag) {
    return LaunchGemv<decltype(tag)::value>(ExpertParams(a), activations, a.count, workspace,
                                            static_cast<cudaStream_t>(stream), "ExpertGemv",
                                            {.ids_settled = a.ids_settled, .x_quantized = a.x_quantized});
  });
}

LaunchStatus QuantizeExpertActivations(const ExpertGemvArgs& a, void* workspace, size_t workspace_bytes,
                                       StreamHandle stream) {
  const char* entry = "QuantizeExpertActivations";
  if (std::string error = CheckExpertGemv(a, workspace, workspace_bytes, entry); !error.empty()) return {error};
  const int activations = a.shared_x ? 1 : a.count;
  return DispatchDecoded(a.type, [&](auto tag) -> LaunchStatus {
    constexpr GgmlType T = decltype(tag)::value;
    if constexpr (!kUsesIntegerGemv<T>) {
      return {};
    } else {
      return QueueSharedQuantizer<T>(ExpertParams(a), activations, workspace, static_cast<cudaStream_t>(stream),
                                     entry);
    }
  });
}

}  // namespace vt::gpu
