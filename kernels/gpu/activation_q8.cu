// The activation quantizers of activation_q8.cuh. Where a choice here
// "measured faster", docs/GPU_TUNING.md has the runs.
#include "activation_q8.cuh"

#include "int_chunk.cuh"

namespace vt::gpu {

// Where element e (0..31) of a run sits in its 32 bytes of the tile layout:
// thread t of an mma group reads bytes 8t..8t+7, elements 4t..4t+3 then
// 16+4t..16+4t+3 (the B operand's two registers).
__device__ __forceinline__ int TilePlace(int e) { return 8 * ((e & 15) >> 2) + 4 * (e >> 4) + (e & 3); }

// Where element e (0..31) of a run sits in CodeOrder::kSubBlockPairs: in
// its half's 16 bytes, quad t = (e & 7) / 2 (the half's bytes 2t, 2t + 1),
// each byte's low-nibble element before its high one.
__device__ __forceinline__ int SubBlockPairPlace(int e) {
  return 16 * (e >> 4) + 4 * ((e & 7) >> 1) + 2 * (e & 1) + ((e >> 3) & 1);
}

// Where element e (0..31) of a run sits in its 32 bytes in `layout`.
__device__ __forceinline__ int CodePlace(Q8Layout layout, int e) {
  switch (layout) {
    case Q8Layout::kMmaTiles: return TilePlace(e);
    case Q8Layout::kNibblePairs:
    case Q8Layout::kMmaTilePairs: return 8 * ((e & 15) >> 2) + 2 * (e & 3) + (e >> 4);
    case Q8Layout::kSubBlockPairs: return SubBlockPairPlace(e);
    case Q8Layout::kMmaTileSubBlockPairs: return TilePlace(SubBlockPairPlace(e));  // its quads as TilePlace's
    default: return e;  // kRows, kMmaTileOctets
  }
}

// Where this lane's element 32 g + lane of activation `column`'s group of
// runs lies in kMmaTileBlockWords: at byte first + g * stride from the
// start of the tile's first run of the group's chunks (group_runs, 2 or 4,
// runs of each of the tile's activations).
struct GroupPlaces {
  int first, stride;
};
__device__ __forceinline__ GroupPlaces BlockWordsPlaces(int group_runs, int column, int lane) {
  const int fields = 2 * group_runs, field = lane % fields;  // fields a code byte
  const int thread = lane / (4 * fields), byte = 4 * (field % 2) + lane / fields % 4;
  // The next 32 elements are the next 32 / (4 fields) threads' words.
  return {((field / 2) * kQ8TileColumns + column) * kWarpSize + 8 * thread + byte, 8 * (kWarpSize / (4 * fields))};
}

// v's int8 code under the scale amax / 127 (all zero when amax is 0).
__device__ __forceinline__ int Q8Code(float v, float amax) {
  return amax == 0.0f ? 0 : static_cast<int>(roundf(v * (127.0f / amax)));
}

// Four sums of 16 codes (|sum| <= 16 * 127), each split into two int8
// limbs: sum = 128 * high + low, low = sum & 127 in byte i of `low`, high
// = sum >> 7 (-16 .. 15) in byte i of `high`.
struct SixteenSumLimbs {
  uint32_t low = 0, high = 0;
  __device__ void Put(int i, int sum) {
    low |= static_cast<uint32_t>(sum & 127) << (8 * i);
    high |= (static_cast<uint32_t>(sum >> 7) & 0xFFu) << (8 * i);
  }
};

// The tile layouts' runs in groups of group_runs (see activation_q8.cuh),
// one warp a group: in tile t, group i covers chunks (i / 8) * group_runs ..
// + group_runs - 1 of the tile's activation i % 8. kBlockWords: the layout
// is kMmaTileBlockWords (its own kernel, QuantizeActivationsQ8BlockWords).
template <bool kBlockWords>
__device__ __forceinline__ void QuantizeGroups(const float* x, Q8Layout layout, int activations, int columns,
                                               int64_t chunks, int group_runs, Q8Activations out) {
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int64_t warps = static_cast<int64_t>(gridDim.x) * (blockDim.x / kWarpSize);
  const int64_t tile_runs = chunks * kQ8TileColumns, tile_groups = tile_runs / group_runs;
  const int64_t groups = tile_groups * (columns / kQ8TileColumns);
  for (int64_t group = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize; group < groups;
       group += warps) {
    const int64_t tile = group / tile_groups, in_tile = group - tile * tile_groups;
    const int column = static_cast<int>(in_tile % kQ8TileColumns);
    const int a = static_cast<int>(tile * kQ8TileColumns + column);
    const int64_t first_chunk = in_tile / kQ8TileColumns * group_runs;
    float v[kMaxGroupRuns];
    float amax = 0.0f;
#pragma unroll
    for (int g = 0; g < kMaxGroupRuns; ++g) {
      v[g] = g < group_runs && a < activations ? x[(a * chunks + first_chunk + g) * kWarpSize + lane] : 0.0f;
      amax = fmaxf(amax, fabsf(v[g]));
    }
    amax = WarpMax(amax);
    const float d = amax / 127.0f;
    // The runs' codes, then their sums of 16 reduced by shuffles for all the
    // runs side by side (HalfWarpSums' shuffle form, written out here so
    // that the runs' shuffles interleave), which measured faster than one
    // run after another.
    int q[kMaxGroupRuns], half[kMaxGroupRuns];
#pragma unroll
    for (int g = 0; g < kMaxGroupRuns; ++g) half[g] = q[g] = Q8Code(v[g], amax);
#pragma unroll
    for (int offset = 8; offset > 0; offset >>= 1) {
#pragma unroll
      for (int g = 0; g < kMaxGroupRuns; ++g) {
        if (g < group_runs) half[g] += ShuffleXor(half[g], offset);
      }
    }
    int sum = 0;
    SixteenSumLimbs limbs;  // this lane's four sums of 16 codes, if any (lane < group_runs / 2)
#pragma unroll
    for (int g = 0; g < kMaxGroupRuns; ++g) {
#if defined(VT_HIP)
      if (g >= group_runs) continue;  // hipcc unrolls no loop with shuffles that has a second exit
#else
      if (g >= group_runs) break;  // nvcc compiles `continue` to other code, never measured
#endif
      if constexpr (kBlockWords) {
        const GroupPlaces places = BlockWordsPlaces(group_runs, column, lane);
        const int64_t group_start = (tile * tile_runs + first_chunk * kQ8TileColumns) * kWarpSize;
        out.codes[group_start + places.first + g * places.stride] = static_cast<int8_t>(q[g]);
      } else {
        const int64_t run = tile * tile_runs + (first_chunk + g) * kQ8TileColumns + column;
        out.codes[run * kWarpSize + CodePlace(layout, lane)] = static_cast<int8_t>(q[g]);
      }
      const int other = ShuffleXor(half[g], 16);
      const int2 halves = lane < 16 ? make_int2(half[g], other) : make_int2(other, half[g]);
      sum += halves.x + halves.y;
      if (g / 2 == lane && 2 * lane + 1 < group_runs) {
        limbs.Put(2 * (g % 2), halves.x);
        limbs.Put(2 * (g % 2) + 1, halves.y);
      }
    }
    if (lane < group_runs) {
      const int64_t run = tile * tile_runs + (first_chunk + lane) * kQ8TileColumns + column;
      out.scales[run] = make_float4(d, d * static_cast<float>(sum), __int_as_float(static_cast<int>(limbs.low)),
                                    __int_as_float(static_cast<int>(limbs.high)));
    }
  }
}

// Asks L2 for this block's share of x (the grid's blocks split it in
// shares of whole multiples of 128 bytes), before the wait: x is then in
// L2 when the block reads it, not behind the weights the GEMV before
// streamed through L2.
__device__ __forceinline__ void PrefetchShareOfX(const float* x, int activations, int64_t chunks) {
  if (threadIdx.x != 0) return;
  const int64_t bytes = static_cast<int64_t>(activations) * chunks * kWarpSize * static_cast<int64_t>(sizeof(float));
  const int64_t share = (bytes / gridDim.x + 127) / 128 * 128;
  const int64_t begin = min(bytes, share * blockIdx.x), end = min(bytes, share * (blockIdx.x + 1));
  const uint8_t* base = reinterpret_cast<const uint8_t*>(x);
  PrefetchToL2(base + begin, base + end);
}

// This block's share of setting clear[0 .. clear_count) to zero.
__device__ __forceinline__ void ClearGridShare(float* clear, int64_t clear_count) {
  const int64_t threads = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < clear_count; i += threads) {
    clear[i] = 0.0f;
  }
}

// The wait for whatever ran before (the last GEMV reading the workspace,
// or x's writer), then this block's share of zeroing `clear`;
// kReleaseAfterWait: see activation_q8.cuh.
template <bool kReleaseAfterWait>
__device__ __forceinline__ void WaitThenClear(float* clear, int64_t clear_count) {
  WaitForPreviousKernel();
  if constexpr (kReleaseAfterWait) StartDependentKernel();
  ClearGridShare(clear, clear_count);
}

// Where run `run` of the workspace takes its 32 values from: x's run
// `source`, or zeros (`zero`) past the last activation of a tile.
struct RunSource {
  int64_t source;
  bool zero;
};
__device__ __forceinline__ RunSource SourceOfRun(int64_t run, bool tiles, int64_t chunks, int activations) {
  if (!tiles) return {run, false};
  // Within tile run / tile_runs, run r is chunk (r % tile_runs) / 8 of the
  // tile's activation r % 8.
  const int64_t tile_runs = chunks * kQ8TileColumns;
  const int64_t tile = run / tile_runs, in_tile = run - tile * tile_runs;
  const int a = static_cast<int>(tile * kQ8TileColumns + in_tile % kQ8TileColumns);
  return {a * chunks + in_tile / kQ8TileColumns, a >= activations};
}

// One warp a run (group_runs 1). Every index is worked out before the
// wait, so that after it only the run's load, reductions and stores
// stand between the previous kernel's end and this grid's: what a
// quantizer does after its wait delays its GEMV (GPU_TUNING.md).
template <bool kReleaseAfterWait>
__device__ __forceinline__ void QuantizeRuns(const float* x, Q8Layout layout, int activations, int columns,
                                             int64_t chunks, Q8Activations out, float* clear, int64_t clear_count) {
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int64_t warps = static_cast<int64_t>(gridDim.x) * (blockDim.x / kWarpSize);
  const bool tiles =
      layout != Q8Layout::kRows && layout != Q8Layout::kNibblePairs && layout != Q8Layout::kSubBlockPairs;
  const int64_t runs = chunks * (tiles ? columns : activations);
  const int code_place = CodePlace(layout, lane);
  int64_t run = (static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarpSize;
  RunSource from = SourceOfRun(run, tiles, chunks, activations);
  WaitThenClear<kReleaseAfterWait>(clear, clear_count);
  for (; run < runs; run += warps, from = SourceOfRun(run, tiles, chunks, activations)) {
    const float v = from.zero ? 0.0f : x[from.source * kWarpSize + lane];
    const float amax = WarpMaxAbs(v);
    const float d = amax / 127.0f;
    const int q = Q8Code(v, amax);
    out.codes[run * kWarpSize + code_place] = static_cast<int8_t>(q);
    const int2 halves = HalfWarpSums(q);
    if (lane == 0) {
      const float sum = d * static_cast<float>(halves.x + halves.y);
      out.scales[run] = layout == Q8Layout::kMmaTileSubBlockPairs
                            ? make_float4(d, sum, __int_as_float(kFloatBias - kFp4PairOffset * halves.x),
                                          __int_as_float(kFloatBias - kFp4PairOffset * halves.y))
                            : make_float4(d, sum, d * static_cast<float>(halves.x), d * static_cast<float>(halves.y));
    }
  }
}

// The quantizer's body; kReleaseAfterWait: see activation_q8.cuh;
// kBlockWords: the layout is kMmaTileBlockWords.
template <bool kReleaseAfterWait, bool kBlockWords = false>
__device__ __forceinline__ void Quantize(const float* x, Q8Layout layout, int activations, int columns, int64_t chunks,
                                         int group_runs, Q8Activations out, float* clear, int64_t clear_count) {
  // The GEMV may launch now (or after the wait); it waits for this grid before reading `out`.
  if constexpr (!kReleaseAfterWait) StartDependentKernel();
  PrefetchShareOfX(x, activations, chunks);
  if (kBlockWords || group_runs > 1) {
    WaitThenClear<kReleaseAfterWait>(clear, clear_count);
    QuantizeGroups<kBlockWords>(x, layout, activations, columns, chunks, group_runs, out);
    return;
  }
  QuantizeRuns<kReleaseAfterWait>(x, layout, activations, columns, chunks, out, clear, clear_count);
}

__global__ void QuantizeActivationsQ8(const float* x, Q8Layout layout, int activations, int columns, int64_t chunks,
                                      int group_runs, Q8Activations out, float* clear, int64_t clear_count) {
  Quantize<false>(x, layout, activations, columns, chunks, group_runs, out, clear, clear_count);
}
__global__ void QuantizeActivationsQ8ReleasedAfterWait(const float* x, Q8Layout layout, int activations, int columns,
                                                       int64_t chunks, int group_runs, Q8Activations out, float* clear,
                                                       int64_t clear_count) {
  Quantize<true>(x, layout, activations, columns, chunks, group_runs, out, clear, clear_count);
}
__global__ void QuantizeActivationsQ8BlockWords(const float* x, Q8Layout layout, int activations, int columns,
                                                int64_t chunks, int group_runs, Q8Activations out, float* clear,
                                                int64_t clear_count) {
  Quantize<false, true>(x, layout, activations, columns, chunks, group_runs, out, clear, clear_count);
}
__global__ void QuantizeActivationsQ8BlockWordsReleasedAfterWait(const float* x, Q8Layout layout, int activations,
                                                                 int columns, int64_t chunks, int group_runs,
                                                                 Q8Activations out, float* clear, int64_t clear_count) {
  Quantize<true, true>(x, layout, activations, columns, chunks, group_runs, out, clear, clear_count);
}

template <bool kReleaseAfterWait>
__device__ __forceinline__ void Clear(float* clear, int64_t clear_count) {
  if constexpr (!kReleaseAfterWait) StartDependentKernel();
  WaitForPreviousKernel();  // whatever ran before (a kernel still reading `clear`) is done
  if constexpr (kReleaseAfterWait) StartDependentKernel();
  ClearGridShare(clear, clear_count);
}
__global__ void ClearAfterPrevious(float* clear, int64_t clear_count) { Clear<false>(clear, clear_count); }
__global__ void ClearAfterPreviousReleasedAfterWait(float* clear, int64_t clear_count) {
  Clear<true>(clear, clear_count);
}

}  // namespace vt::gpu
