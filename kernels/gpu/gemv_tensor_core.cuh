// Keep-quant GEMV at larger batches (2-8, from a batch chosen per type) on
// int8 tensor cores (CUDA, sm_80 and later; HIP keeps the dp4a kernel of
// gemv_rows.cuh). A warp takes a tile of 16 rows and multiplies one 32-value
// chunk of each with the batch's int8 activations in one mma.m16n8k32 (the
// batch is the n = 8 side), so the scale epilogue runs once per (row,
// activation, chunk) instead of after eight dp4a. The warp stages its 16
// rows' blocks of a step through shared memory with 16-byte loads, and each
// thread decodes only its quarter of a chunk (frag_decode.cuh) from there
// into the A operand (a step's decode, mma and epilogue are
// tensor_core_step.cuh's). The GEMM (gemv.cu's LaunchInt8Gemm) runs the same
// kernel with kTiles = 2, 4 or 8 tiles of 8 activations (the fewest that
// hold a pass), each decoded chunk multiplied with all of them, which its
// block's warps read from a copy of each step's activations in shared
// memory (tile_activations.cuh); the expert GEMV of kTensorCoreExpertGemv's
// types runs it with one grid row per slot (kExpert).
//
// Work is split evenly over the resident warps: the rows' tiles times their
// steps (of kTileStepChunks chunks) form one sequence of items, and each
// warp takes a contiguous run of it; or, for some types and every GEMM
// (kTileGroup), the tiles go in groups of one per warp of a block, and each
// block takes a run of the groups' steps. A tile shared by several warps gets
// their partial sums by atomic adds into y, which the activation quantizer
// zeroes first; the order of those adds, and so the last bits of y, may
// vary from run to run. The per-type choices (kTileStepChunks, kTileGroup,
// register budgets, the batch from which a type takes this kernel) are in
// gemv_tensor_core_tuning.cuh; where a choice here "measured faster",
// docs/GPU_TUNING.md has the runs.
#pragma once

#include "frag_decoders.cuh"
#include "gemv_params.cuh"
#include "gemv_tensor_core_tuning.cuh"
#include "resident_blocks.cuh"
#include "span_stage.cuh"
#include "tensor_core_step.cuh"
#include "tile_activations.cuh"
#include "vt/kernels/gpu/kernels.h"

namespace vt::gpu {

#if !defined(VT_HIP)

constexpr int kTensorCoreThreads = kTensorCoreWarps * kWarpSize;
constexpr int kTileRows = 16;
static_assert(kQ8TileColumns == kMaxGemvBatch, "the mma's n = 8 side holds the whole batch");

// Adds this thread's partial sums for tile `tile` of rows and the tile of
// activations starting at `column` into y.
__device__ __forceinline__ void AddTile(const GemvParams& p, int64_t tile, int column, const float (&acc)[4]) {
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int64_t row = tile * kTileRows + g + 8 * (i / 2);
    const int b = column + 2 * t + i % 2;
    if (row < p.rows && b < p.batch) atomicAdd(p.y + static_cast<int64_t>(b) * p.rows + row, acc[i]);
  }
}

// The same for an expert GEMV (kExpert): the thread's sums for tile `tile`
// of the slot's (blockIdx.y's) rows that belong to the slot's activation,
// column 0 of the tile with a shared x and column `slot` otherwise, into
// the slot's y; NaN for a bad id.
__device__ __forceinline__ void AddExpertTile(const GemvParams& p, int64_t tile, bool bad_id, const float (&acc)[4]) {
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int g = lane / 4, t = lane % 4;
  const int column = p.x_slot_stride == 0 ? 0 : static_cast<int>(blockIdx.y);
  float* y = p.y + blockIdx.y * p.y_slot_stride;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    const int64_t row = tile * kTileRows + g + 8 * (i / 2);
    if (2 * t + i % 2 == column && row < p.rows) atomicAdd(y + row, bad_id ? __int_as_float(0x7FC00000) : acc[i]);
  }
}

// A warp's step: kStepChunks chunks of each of its tile's 16 rows, staged
// through shared memory. Each row's run of blocks is read as whole 16-byte
// pieces (P per row, the run's first piece aligned down), spread over the
// lanes so every load instruction covers contiguous lines; a row keeps an
// odd number of pieces in shared memory, so the fragment reads of eight rows
// fall in distinct banks.
template <GgmlType T, int kStepChunks>
struct TileStep {
  using B = Block<T>;
  static constexpr int kSpanBytes = kStepChunks / (B::kValues / 32) * B::kBytes;
  static constexpr int kPieces = (kSpanBytes + 15) / 16 + 1;
  static constexpr int kRowStride = kPieces | 1;
  static constexpr int kPerLane = (kTileRows * kPieces + kWarpSize - 1) / kWarpSize;
  static_assert(kStepChunks % (B::kValues / 32) == 0, "a step is whole blocks");
};

// A warp's place in the item sequence: tile `tile`, step `step` of it, and
// the first byte of that step in the tile's first row. After a tile's last
// step it goes on to tile + kTileStride.
template <int kTileStride>
struct TilePosition {
  int64_t tile;
  int step;
  const uint8_t* start;
  __device__ void Advance(const GemvParams& p, int steps, int span_bytes) {
    if (++step < steps) {
      start += span_bytes;
    } else {
      step = 0;
      tile += kTileStride;
      start += kTileStride * kTileRows * p.row_bytes - static_cast<int64_t>(steps - 1) * span_bytes;
    }
  }
  // Whether rows of the tile lie past the tensor's last row, or a piece
  // of it may cross the tensor's end.
  __device__ bool AtEnd(const GemvParams& p) const { return (tile + 1) * kTileRows >= p.rows; }
};

// The first byte of row r's span at `at`; rows past the end repeat the last
// one. row_bytes fits an int (LaunchTensorCoreGemv checks).
template <class Position>
__device__ __forceinline__ const uint8_t* SpanStart(const GemvParams& p, const Position& at, int r) {
  if (at.AtEnd(p)) r = static_cast<int>(min(static_cast<int64_t>(r), p.rows - 1 - at.tile * kTileRows));
  return at.start + static_cast<int64_t>(r) * static_cast<int>(p.row_bytes);
}

// One 16-byte piece of a staged row (kStagesPastL1).
template <bool kPastL1>
__device__ __forceinline__ uint4 LoadPiece(const uint8_t* piece) {
  const uint4* p = reinterpret_cast<const uint4*>(piece);
  if constexpr (kPastL1) {
    return LoadFromL2(p);
  } else {
    return LoadStreaming(p);
  }
}

// LoadTileStep for a tile whose 16 rows all lie before the tensor's end:
// no clamping and no bounds test, so a piece costs one wide multiply-add
// for its row's span, a few integer instructions to place it, and its load.
template <class S, bool kPastL1>
__device__ __forceinline__ void LoadInnerTileStep(const GemvParams& p, const uint8_t* start,
                                                  uint4 (&pieces)[S::kPerLane]) {
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
#pragma unroll
  for (int j = 0; j < S::kPerLane; ++j) {
    const int q = lane + kWarpSize * j;
    if (q >= kTileRows * S::kPieces) continue;
    const unsigned row = static_cast<unsigned>(q / S::kPieces);
    const uint8_t* span = start + static_cast<uint64_t>(row) * static_cast<unsigned>(p.row_bytes);
    // The piece's first byte relative to the span's (-15 .. 16 P - 1).
    const int from_span = 16 * (q % S::kPieces) - static_cast<int>(reinterpret_cast<uintptr_t>(span) & 15);
    if (from_span >= S::kSpanBytes) continue;  // an aligned span needs one less
    pieces[j] = LoadPiece<kPastL1>(span + from_span);
  }
}

// This lane's pieces of the tile's spans at `at`; at the tensor's end a
// piece that crosses it is read byte by byte up to it.
template <class S, bool kPastL1, class Position>
__device__ __forceinline__ void LoadTileStep(const GemvParams& p, const Position& at, const uint8_t* limit,
                                             uint4 (&pieces)[S::kPerLane]) {
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const bool at_end = at.AtEnd(p);
  if (!at_end) {
    LoadInnerTileStep<S, kPastL1>(p, at.start, pieces);
    return;
  }
#pragma unroll
  for (int j = 0; j < S::kPerLane; ++j) {
    const int q = lane + kWarpSize * j;
    if (q >= kTileRows * S::kPieces) continue;
    const uintptr_t start = reinterpret_cast<uintptr_t>(SpanStart(p, at, q / S::kPieces));
    const uint8_t* piece = reinterpret_cast<const uint8_t*>((start & ~uintptr_t{15}) + 16 * (q % S::kPieces));
    if (reinterpret_cast<uintptr_t>(piece) >= start + S::kSpanBytes) continue;  // an aligned span needs one less
    const bool whole = !at_end || piece + 16 <= limit;
    pieces[j] = whole ? LoadPiece<kPastL1>(piece) : PieceUpTo(piece, limit);
  }
}

// kTiles: tiles of 8 activations each warp multiplies per decoded chunk (1
// for the GEMV; more for the GEMM, whose p.batch may exceed 8).
// kRowsAligned: every row starts at a 4-byte boundary (RowsStartAligned),
// so a decoder with kAlignedStagedWords reads its staged spans as they
// are, with no realignment.
// kExpert (kTiles 1): an expert GEMV, one grid row (blockIdx.y) per slot,
// each over its expert's rows (`items` and `steps` are one expert's) and
// its activation's column of the tile (AddExpertTile). It reads its id
// before its wait for the quantizer, as the dp4a kernel's early loads do
// (kEarlyWeightsGemv states what that asks of the launch).
// With kStagedActivations<kTiles> the launch gives the block dynamic shared
// memory for two ActivationStage copies (kTensorCoreSharedBytes).
template <GgmlType T, int kTiles, bool kRowsAligned = false, bool kExpert = false>
__global__ void __launch_bounds__(kTensorCoreThreads, kTiles == 1 ? kTensorCoreMinBlocks<T> : kGemmMinBlocks<T, kTiles>)
    TensorCoreGemvKernel(GemvParams p, int64_t items, int steps) {
  static_assert(!kExpert || kTiles == 1, "an expert GEMV has one activation a slot");
  StartDependentKernel();  // the next launch may queue behind this grid; it waits for it to finish
  // A bad id's slot reads the tower's first expert, whose sums it drops.
  bool bad_id = false;
  if constexpr (kExpert) {
    const int32_t id = LoadFromL2(p.ids + blockIdx.y);
    bad_id = id < 0 || id >= p.experts;
    if (!bad_id) p.weights += static_cast<int64_t>(id) * p.expert_bytes;
  }
  constexpr int kStepChunks = kTileStepChunks<T, kTiles>;
  using S = TileStep<T, kStepChunks>;
  __shared__ uint4 staged[kTensorCoreWarps][kTileRows * S::kRowStride];
  const int warp_in_block = static_cast<int>(threadIdx.x / kWarpSize);
  // The run of items this warp takes: its own, or (kTileGroup) its
  // block's, of whose groups of tiles it takes tile warp_in_block.
  constexpr int kGroup = kTileGroup<T, kTiles>;
  // kStageX: the block's copies of its steps' activations, taking turns
  // (the next step's is filled while the warps read this one's).
  constexpr bool kStageX = kStagedActivations<kTiles>;
  static_assert(!kStageX || kGroup == kTensorCoreWarps, "the block's warps take the same steps");
  using XStage = ActivationStage<kTiles, kStepChunks>;
  extern __shared__ uint4 x_stages[];
  const int64_t takers = kGroup == 1 ? static_cast<int64_t>(gridDim.x) * kTensorCoreWarps : gridDim.x;
  const int64_t taker = kGroup == 1 ? static_cast<int64_t>(blockIdx.x) * kTensorCoreWarps + warp_in_block : blockIdx.x;
  const int64_t begin = items * taker / takers, end = items * (taker + 1) / takers;
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int g = lane / 4;
  const uint8_t* limit = p.weights + static_cast<int64_t>(p.rows) * p.row_bytes;
  uint4* rows = staged[warp_in_block];
  TilePosition<kGroup> at{begin / steps * kGroup + (kGroup == 1 ? 0 : warp_in_block), static_cast<int>(begin % steps),
                          nullptr};
  at.start = p.weights + at.tile * kTileRows * p.row_bytes + static_cast<int64_t>(at.step) * S::kSpanBytes;
  // A codebook decoder's table, copied into shared memory while the
  // quantizer finishes (it is a constant); faster than reading it from global
  // memory for every codebook type.
  using Frag = TileFrag<T, kTiles>;
  constexpr int kGridWords = Frag::kCodebookWords;
  static_assert(kGridWords % 4 == 0, "whole 16-byte pieces");
  __shared__ uint4 grid_copy[kGridWords > 0 ? kGridWords / 4 : 1];
  const uint32_t* grid = nullptr;
  if constexpr (kGridWords > 0) {
    const uint4* table = reinterpret_cast<const uint4*>(Frag::Codebook());
    for (int i = static_cast<int>(threadIdx.x); i < kGridWords / 4; i += kTensorCoreThreads) grid_copy[i] = table[i];
    __syncthreads();
    grid = reinterpret_cast<const uint32_t*>(grid_copy);
  }
  if (kTensorCorePrefetchSteps > 0 && begin < end && lane < kTileRows) {
    // The first steps' rows, while the quantizer finishes (PrefetchToL2).
    const uint8_t* span = SpanStart(p, at, lane);
    const int64_t bytes = static_cast<int64_t>(kTensorCorePrefetchSteps) * S::kSpanBytes;
    PrefetchToL2(span, limit - span > bytes ? span + bytes : limit);
  }
  // Rows g's and g + 8's starts relative to their tile's first row, modulo
  // 16 (the GEMV's places below).
  const uint32_t place_a = static_cast<uint32_t>(g) * static_cast<uint32_t>(p.row_bytes) % 16;
  const uint32_t place_b = static_cast<uint32_t>(g + 8) * static_cast<uint32_t>(p.row_bytes) % 16;
  // With Frag::kAlignedStagedWords each staged row starts at a 4-byte
  // boundary: already, with kRowsAligned, or once its bytes are moved down
  // by its start modulo 4, which trades words between lanes (pieces no
  // load fills are then zero, not undefined).
  constexpr bool kRealign = TileFrag<T, kTiles>::kAlignedStagedWords && !kRowsAligned;
  uint4 next[S::kPerLane];
  if constexpr (kRealign) {
#pragma unroll
    for (int j = 0; j < S::kPerLane; ++j) next[j] = make_uint4(0, 0, 0, 0);
  }
  // The first step's rows are read before the wait as well: they do not
  // depend on the quantizer, and kernels.h asks the caller not to overlap
  // W's writer.
  constexpr bool kPastL1 = kStagesPastL1<T, kTiles>;
  if (begin < end) LoadTileStep<S, kPastL1>(p, at, limit, next);
  WaitForPreviousKernel();  // the activations are quantized and y is zero
  if (kStageX && begin < end) XStage::template Copy<kTensorCoreThreads>(p, at.step * kStepChunks, x_stages);
  float acc[kTiles][4] = {};
  TilePosition<kGroup> next_at = at;
  next_at.Advance(p, steps, S::kSpanBytes);
  for (int64_t item = begin; item < end; ++item) {
    const uint4* x_stage = x_stages + (item - begin) % 2 * XStage::kPieces;
    if constexpr (kStageX) {
      // The next step's copy goes where the warps read the step before this
      // one (the last barrier of that step saw them done); this step's copy
      // is then waited for, and seen by every thread after the barrier.
      if (item + 1 < end) {
        XStage::template Copy<kTensorCoreThreads>(p, next_at.step * kStepChunks,
                                                  x_stages + (item - begin + 1) % 2 * XStage::kPieces);
        WaitForSpanCopies<1>();
      } else {
        WaitForSpanCopies<0>();
      }
      __syncthreads();
    }
    WarpSync();  // the previous step's readers are done
#pragma unroll
    for (int j = 0; j < S::kPerLane; ++j) {
      const int q = lane + kWarpSize * j;
      uint4 piece = next[j];
      if constexpr (kRealign) {
        // Each row's bytes move down by its span's start modulo 4, taking
        // the first word of the row's next piece (the next lane's, or lane
        // 0's of the next j); a row's last piece takes bytes past its span.
        const uint32_t next_first = j + 1 < S::kPerLane ? next[(j + 1) % S::kPerLane].x : 0u;
        const uint32_t wrap = __shfl_sync(0xFFFFFFFFu, next_first, 0);
        const uint32_t down = __shfl_down_sync(0xFFFFFFFFu, piece.x, 1);
        const uint32_t after = lane == kWarpSize - 1 ? wrap : down;
        const int row = min(q / S::kPieces, kTileRows - 1);
        const uint32_t shift = 8u * static_cast<uint32_t>(reinterpret_cast<uintptr_t>(SpanStart(p, at, row)) & 3u);
        piece = make_uint4(FunnelRight(piece.x, piece.y, shift), FunnelRight(piece.y, piece.z, shift),
                           FunnelRight(piece.z, piece.w, shift), FunnelRight(piece.w, after, shift));
      }
      if (q < kTileRows * S::kPieces) rows[q / S::kPieces * S::kRowStride + q % S::kPieces] = piece;
    }
    WarpSync();
    if (item + 1 < end) LoadTileStep<S, kPastL1>(p, next_at, limit, next);
    // Rows g and g + 8 of the tile, at their bytes' places modulo 16 (with
    // kRealign, moved down to a multiple of 4). The GEMV works them out from
    // place_a / place_b and the tile's start, with no clamped SpanStart: a
    // row past the tensor's end was staged from the last row, so its place
    // here may be wrong, but its sums are dropped (AddTile), and any place
    // keeps its reads inside its row of `rows`. The GEMM (kTiles > 1) keeps
    // SpanStart, which measured faster there.
    constexpr uintptr_t kPlaceMask = kRealign ? 12 : 15;
    uintptr_t place[2];
    if constexpr (kTiles == 1) {
      const uintptr_t start_place = reinterpret_cast<uintptr_t>(at.start);
      place[0] = start_place + place_a, place[1] = start_place + place_b;
    } else {
      place[0] = reinterpret_cast<uintptr_t>(SpanStart(p, at, g));
      place[1] = reinterpret_cast<uintptr_t>(SpanStart(p, at, g + 8));
    }
    const uint8_t* span_a = reinterpret_cast<const uint8_t*>(rows + g * S::kRowStride) + (place[0] & kPlaceMask);
    const uint8_t* span_b = reinterpret_cast<const uint8_t*>(rows + (g + 8) * S::kRowStride) + (place[1] & kPlaceMask);
    const int first = at.step * kStepChunks;
    if (first + kStepChunks <= p.chunks) {
      TensorCoreStep<T, true, kTiles>(p, span_a, span_b, first, grid, x_stage, acc);
    } else {
      TensorCoreStep<T, false, kTiles>(p, span_a, span_b, first, grid, x_stage, acc);
    }
    if (next_at.tile != at.tile || item + 1 == end) {
#pragma unroll
      for (int c = 0; c < kTiles; ++c) {
        if (!TileInBatch(p, c)) break;
        if constexpr (kExpert) {
          AddExpertTile(p, at.tile, bad_id, acc[c]);
        } else {
          AddTile(p, at.tile, c * kQ8TileColumns, acc[c]);
        }
#pragma unroll
        for (int i = 0; i < 4; ++i) acc[c][i] = 0.0f;
      }
    }
    at = next_at;
    next_at.Advance(p, steps, S::kSpanBytes);
    if constexpr (kStageX) __syncthreads();  // every warp is done with x_stage
  }
}

// Dynamic shared memory TensorCoreGemvKernel<T, kTiles, ...> takes.
template <GgmlType T, int kTiles>
constexpr int kTensorCoreSharedBytes =
    kStagedActivations<kTiles> ? 2 * ActivationStage<kTiles, kTileStepChunks<T, kTiles>>::kBytes : 0;

// Whether every row of p's weights starts at a 4-byte boundary.
inline bool RowsStartAligned(const GemvParams& p) {
  return (reinterpret_cast<uintptr_t>(p.weights) | static_cast<uintptr_t>(p.row_bytes)) % 4 == 0;
}

// Launches TensorCoreGemvKernel<T, kTiles, kRowsAligned, kExpert> over p
// (activations already queued for quantization, with y cleared): as many
// blocks as fit on the device at once, at most one warp per item; an
// expert GEMV's `slots` grid rows share them.
template <GgmlType T, int kTiles, bool kRowsAligned, bool kExpert>
cudaError_t LaunchTensorCoreKernel(const GemvParams& p, int slots, cudaStream_t stream) {
  constexpr auto kKernel = TensorCoreGemvKernel<T, kTiles, kRowsAligned, kExpert>;
  constexpr int kShared = kTensorCoreSharedBytes<T, kTiles>;
  int64_t resident = 0;
  if (const cudaError_t error = ResidentBlocks<kKernel, kTensorCoreThreads, kShared>(resident); error != cudaSuccess) {
    return error;
  }
  resident = resident / slots > 0 ? resident / slots : 1;
  constexpr int kStepChunks = kTileStepChunks<T, kTiles>;
  constexpr int kGroup = kTileGroup<T, kTiles>;
  const int steps = (p.chunks + kStepChunks - 1) / kStepChunks;
  const int64_t tiles = (static_cast<int64_t>(p.rows) + kTileRows - 1) / kTileRows;
  const int64_t items = (tiles + kGroup - 1) / kGroup * steps;
  const int64_t wanted = kGroup == 1 ? (items + kTensorCoreWarps - 1) / kTensorCoreWarps : items;
  const dim3 grid(static_cast<unsigned>(wanted < resident ? wanted : resident), static_cast<unsigned>(slots));
  return LaunchConfiguredAfterPrevious(kKernel, grid, dim3(kTensorCoreThreads), 1, kShared, stream, p, items, steps);
}

// The tensor-core GEMV or GEMM of p: a decoder with kAlignedStagedWords
// (MXFP4's 17-byte blocks) skips realigning its rows where they all start
// at 4-byte boundaries, as they do when k is a multiple of 128 (about 80 of
// some 700 instructions a step fewer).
// An expert GEMV (kExpert) runs `slots` of them, each over its expert's rows
// (every expert starts at a 4-byte boundary where rows do: its bytes are
// rows x row_bytes).
template <GgmlType T, int kTiles, bool kExpert = false>
cudaError_t LaunchTensorCoreGemv(const GemvParams& p, cudaStream_t stream, int slots = 1) {
  if constexpr (TileFrag<T, kTiles>::kAlignedStagedWords) {
    if (RowsStartAligned(p)) return LaunchTensorCoreKernel<T, kTiles, true, kExpert>(p, slots, stream);
  }
  return LaunchTensorCoreKernel<T, kTiles, false, kExpert>(p, slots, stream);
}

#else

// Not defined: no type takes it on HIP.
template <GgmlType T, int kTiles, bool kExpert = false>
cudaError_t LaunchTensorCoreGemv(const GemvParams&, cudaStream_t, int slots = 1);

#endif

}  // namespace vt::gpu
