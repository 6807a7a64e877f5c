// The tensor-core GEMV's and GEMM's per-type choices: the batch from which
// a type's GEMV takes the tensor cores, which types' expert GEMV does, the
// chunks a warp's step takes, how a block's warps share tiles, register
// budgets, loads past L1, the activation layout each decoder reads. Every
// choice was measured on an H200; docs/GPU_TUNING.md gives the runs behind
// each under its name. On HIP the tensor-core kernel is not built, and the
// choices gemv.cu reads say so. For gemv_tensor_core.cuh and gemv.cu.
#pragma once

#include "activation_q8.cuh"
#include "frag_decoders.cuh"
#include "vt/kernels/gpu/kernels.h"

namespace vt::gpu {

// The narrower kernels (tiles of 8 activations) a GEMM pass of at most 32
// activations takes instead of the one of kGemmColumns / 8 tiles: the
// fewest that hold the pass (gemv.cu's LaunchGemmPass), each faster there
// than the wider ones.
constexpr int kGemmPassTiles[] = {2, 4};

#if !defined(VT_HIP)

// Warps a block of the tensor-core kernel.
constexpr int kTensorCoreWarps = 4;

// Chunks of each row a warp's step takes (TileStep): 8, but for the GEMV
// (one tile of activations) of the low-bit types, whose 8 chunks of 16 rows
// are few bytes (IQ1_S: 800), 16, and 32 for Q1_0; Q3_K takes 16 too (two
// blocks a step). Longer steps lost for the other types and most GEMMs.
template <GgmlType T, int kTiles>
constexpr int TileStepChunks() {
  if (kTiles > 1) return 8;
  switch (T) {
    case GgmlType::kQ1_0: return 32;
    case GgmlType::kQ2_K:
    case GgmlType::kIQ1_S:
    case GgmlType::kIQ2_S:
    case GgmlType::kIQ1_M:
    case GgmlType::kTQ1_0:
    case GgmlType::kTQ2_0:
    case GgmlType::kQ2_0:
    case GgmlType::kQ3_K: return 16;
    default: return 8;
  }
}
template <GgmlType T, int kTiles>
constexpr int kTileStepChunks = TileStepChunks<T, kTiles>();

// Runs of 32 the GEMV's quantizer puts under one scale (activation_q8.cuh):
// a block's chunks for kBlockScaledGemvTypes (registry.h), so the GEMV sums
// them in integers (BlockSummedStep); 1 for the others and for the GEMM.
// Summing a block's chunks in integers beat scaling each on its own for
// every type that does it.
template <GgmlType T>
constexpr int kTensorCoreGroupRuns = SetOf(kBlockScaledGemvTypes).Contains(T) ? Block<T>::kValues / 32 : 1;

// The integer sums BlockSummedStep keeps a block (the chunks taking turns):
// 2 for TQ1_0, so that its mma do not all wait for the one before (for the
// others one sum measured as fast or faster).
template <GgmlType T>
constexpr int kBlockSums = T == GgmlType::kTQ1_0 ? 2 : 1;

// Types whose tensor-core GEMV (kTiles 1) reads its rows' pieces past L1
// (LoadFromL2: ld.global.cg) instead of as streaming loads (ld.global.cs),
// leaving L1 to the activations, which every warp reads again; chosen where
// that measured faster. The GEMM keeps streaming loads.
template <GgmlType T, int kTiles>
constexpr bool kStagesPastL1 =
    kTiles == 1 && (T == GgmlType::kTQ1_0 || T == GgmlType::kTQ2_0 || T == GgmlType::kQ5_1 ||
                    T == GgmlType::kIQ2_XXS || T == GgmlType::kQ1_0 || T == GgmlType::kQ3_K ||
                    T == GgmlType::kIQ2_S || T == GgmlType::kQ2_K || T == GgmlType::kQ2_0);

// Resident blocks per SM the GEMV's kernel (kTiles 1) asks the compiler to
// leave room for, which sets its register budget (4: 128 a thread; 3: 168).
// Unbounded, the compiler kept several of these kernels at 72 registers. 0
// states no bound, as for the GEMM's kernels; 1 would not be the same (the
// compiler then takes up to 255 registers). Each type's count is the one
// that measured fastest at batch 8; NVFP4's decoder fits four blocks
// unbounded (106 registers) and spilled at three.
template <GgmlType T>
constexpr int TensorCoreMinBlocks() {
  switch (T) {
    case GgmlType::kQ6_K:
    case GgmlType::kNVFP4: return 0;
    case GgmlType::kQ8_0:
    case GgmlType::kQ2_K:
    case GgmlType::kQ2_0:
    case GgmlType::kQ1_0:
    case GgmlType::kIQ2_S:
    case GgmlType::kTQ2_0:
    case GgmlType::kTQ1_0: return 3;
    default: return 4;
  }
}
template <GgmlType T>
constexpr int kTensorCoreMinBlocks = TensorCoreMinBlocks<T>();

// The same for the GEMM's kernels (kTiles > 1): 3 blocks (at most 168
// registers; its shared memory, kStagedActivations, allows 3 or 4) for the
// kernel of 8 tiles and 4 (128) for the narrower ones (kGemmPassTiles), but
// 4 for MXFP4's every kernel, 3 for Q6_K's and IQ1_M's, and no bound for
// NVFP4, Q2_K and Q1_0, each where that measured faster.
template <GgmlType T, int kTiles>
constexpr int GemmMinBlocks() {
  switch (T) {
    case GgmlType::kMXFP4: return 4;
    case GgmlType::kQ6_K:
    case GgmlType::kIQ1_M: return 3;
    case GgmlType::kNVFP4:
    case GgmlType::kQ2_K:
    case GgmlType::kQ1_0: return 0;
    default: return kTiles > 4 ? 3 : 4;
  }
}
template <GgmlType T, int kTiles>
constexpr int kGemmMinBlocks = GemmMinBlocks<T, kTiles>();

// Steps of its first item each warp asks L2 for (PrefetchToL2) before it
// waits for the quantizer: 2 measured faster than none or 4. It still asks
// for the first step, which is also loaded before the wait (below):
// starting one step later measured slower.
constexpr int kTensorCorePrefetchSteps = 2;

// The tiles of rows a block's warps take side by side, at the same steps
// (so at the same time they read the same activations), one each: 1 (each
// warp takes its own run of items) or kTensorCoreWarps, per type and for
// the GEMV and GEMM apart, as each measured faster. In a group that runs
// past the last tile a warp works on the last row's bytes and drops its
// sums.
template <GgmlType T, int kTiles>
constexpr int TileGroup() {
  if constexpr (kTiles == 1) {
    switch (T) {
      case GgmlType::kQ4_1:
      case GgmlType::kQ5_0:
      case GgmlType::kQ5_1:
      case GgmlType::kQ8_0:
      case GgmlType::kQ4_K:
      case GgmlType::kQ6_K: return kTensorCoreWarps;
      default: return 1;
    }
  } else {
    return kTensorCoreWarps;  // the GEMM's warps share each step's staged activations (kStagedActivations)
  }
}
template <GgmlType T, int kTiles>
constexpr int kTileGroup = TileGroup<T, kTiles>();

// Whether a block's threads copy each step's activations into shared
// memory by cp.async, a step ahead (tile_activations.cuh), for its warps,
// which take the same steps side by side (kTileGroup), to read from there:
// the GEMM's kernel (kTiles > 1), whose warps otherwise waited on their
// activation loads from global memory most of the time.
template <int kTiles>
constexpr bool kStagedActivations = kTiles > 1;

// The batch from which a type's GEMV takes the tensor cores: the first at
// which this kernel (whose time hardly depends on the batch) measured
// faster than the dp4a kernel of gemv_rows.cuh (whose time grows with it).
template <GgmlType T>
constexpr int TensorCoreMinBatch() {
  switch (T) {
    case GgmlType::kTQ1_0:
    case GgmlType::kTQ2_0:
    case GgmlType::kQ1_0:
    case GgmlType::kQ2_0:
    case GgmlType::kQ2_K:
    case GgmlType::kQ3_K: return 1;
    case GgmlType::kQ8_0:
    case GgmlType::kIQ3_XXS:
    case GgmlType::kIQ3_S: return 2;
    case GgmlType::kIQ2_XS: return 4;
    case GgmlType::kNVFP4: return 5;
    default: return 3;  // the other types with a fragment decoder, Q4_1 and IQ2_XXS among them
  }
}
template <GgmlType T>
constexpr int kTensorCoreMinBatch = TensorCoreMinBatch<T>();

template <GgmlType T>
constexpr bool kTensorCoreGemv = kHasFragDecoder<T>;

// Types whose expert GEMV runs on the tensor cores too (kExpert; for up to
// kQ8TileColumns activations, see gemv.cu's TensorCoreExpert), where that
// measured faster than the dp4a kernel of gemv_rows.cuh. Each warp of the
// expert kernel takes about a sixth of the steps it takes in a large plain
// GEMV, so the call's fixed costs weigh more against its 8 experts' 30 MB
// or less; for most types the dp4a kernel wins.
template <GgmlType T>
constexpr bool kTensorCoreExpertGemv =
    kTensorCoreGemv<T> && (T == GgmlType::kTQ1_0 || T == GgmlType::kQ2_0 || T == GgmlType::kQ1_0);

// The activation layout the GEMV's kernel (one tile) reads.
template <GgmlType T>
constexpr Q8Layout TensorCoreGemvLayout() {
  if constexpr (kTensorCoreGemv<T>) {
    if (TileFrag<T, 1>::kPairedCodes) return Q8Layout::kMmaTilePairs;
    if (TileFrag<T, 1>::kOffsetInBias) return Q8Layout::kMmaTileSubBlockPairs;
    if (TileFrag<T, 1>::kWholeEntries) return Q8Layout::kMmaTileOctets;
    if (TileFrag<T, 1>::kBlockWords) return Q8Layout::kMmaTileBlockWords;
  }
  return Q8Layout::kMmaTiles;
}
template <GgmlType T>
constexpr Q8Layout kTensorCoreGemvLayout = TensorCoreGemvLayout<T>();

#else

template <GgmlType T>
constexpr bool kTensorCoreGemv = false;
template <GgmlType T>
constexpr bool kTensorCoreExpertGemv = false;
template <GgmlType T>
constexpr int kTensorCoreMinBatch = 1 << 30;
template <GgmlType T>
constexpr Q8Layout kTensorCoreGemvLayout = Q8Layout::kMmaTiles;
template <GgmlType T>
constexpr int kTensorCoreGroupRuns = 1;

#endif

}  // namespace vt::gpu
