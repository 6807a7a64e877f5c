// The GEMV's and GEMM's per-type tuning on an H200: rows per warp, which
// types stage their blocks or mark their loads streaming, how many blocks
// per SM the kernels leave room for, how wide a GEMM pass is. Every choice
// was measured; docs/GPU_TUNING.md gives the runs behind each constant
// under its name. For gemv.cu and gemv_rows.cuh.
#pragma once

#include "gpu_dialect.h"
#include "vt/kernels/gpu/kernels.h"
#include "vt/policy/ggml_type.h"

namespace vt::gpu {

// Rows per warp: kFewRows for batch 1-2 (kGemvRowsAtFewActivations below
// for the plain GEMV), kManyRows for larger batches, so each activation load
// serves more rows.
constexpr int kFewRows = 2;
constexpr int kManyRows = 4;

// Activations the batch 1-2 kernels serve at most: their sums and their
// per-activation code exist only for these, so they carry no registers or
// instructions for activations 3-8. Batch 1 (and the expert GEMV, always one
// activation per slot) has a kernel of its own, with room for one.
constexpr int kFewActivations = 2;

// Types whose batch 1 and expert GEMV keep the two-activation kernel, where
// their own measured slower.
template <GgmlType T>
constexpr bool kBatchOneOnTwoActivationKernel =
    T == GgmlType::kIQ2_XS || T == GgmlType::kIQ2_S || T == GgmlType::kIQ1_M;

// Rows per warp of the plain (not expert) GEMV at batch 2, and at batch 1
// but where kGemvRowsAtBatchOne (below) says otherwise: 3 where that beat 2
// rows (4 lost for every type but Q4_0).
template <GgmlType T>
constexpr int kGemvRowsAtFewActivations =
    T == GgmlType::kQ4_0 || T == GgmlType::kQ2_K || T == GgmlType::kQ4_K || T == GgmlType::kQ5_K ||
            T == GgmlType::kIQ2_XXS || T == GgmlType::kIQ1_S || T == GgmlType::kIQ4_NL || T == GgmlType::kIQ4_XS ||
            T == GgmlType::kTQ2_0 || T == GgmlType::kMXFP4
        ? 3
        : kFewRows;

// Rows per warp of the plain GEMV at batch 1: kGemvRowsAtFewActivations,
// but 3 for Q6_K, whose batch 2 lost with 3 and keeps 2.
template <GgmlType T>
constexpr int kGemvRowsAtBatchOne = T == GgmlType::kQ6_K ? 3 : kGemvRowsAtFewActivations<T>;

// Types whose plain batch-1 GEMV takes whichever of kGemvRowsAtBatchOne
// and the other of 2 and 3 rows a warp keeps more of the device busy at
// the call's shape (gemv.cu's BatchOneFill): a grid of 1.3 waves, or of
// two thirds of one, left SMs idle. Measured faster at a model's shapes
// for these; Q4_0 and Q8_0 lost at some, and Q5_0, Q5_1, IQ4_NL and NVFP4
// gained at one and read unclearly at another; the other types were not
// measured.
template <GgmlType T>
constexpr bool kBatchOneRowsByFill = T == GgmlType::kQ4_K || T == GgmlType::kQ5_K || T == GgmlType::kQ6_K ||
                                     T == GgmlType::kIQ4_XS || T == GgmlType::kMXFP4 || T == GgmlType::kIQ2_XXS;

// Rows per warp of the expert GEMV (of more than one expert). 3 where that
// beat 2; Q4_0 takes 6 with its loop unrolled by two, which fits its 80
// registers and puts an 8 x 2048-row call in one wave of resident blocks.
// More rows spilled or lost for the other types.
template <GgmlType T>
constexpr int kExpertGemvRows = T == GgmlType::kQ4_0 ? 6
                                : T == GgmlType::kQ5_K || T == GgmlType::kQ2_K || T == GgmlType::kIQ4_NL ||
                                        T == GgmlType::kIQ4_XS || T == GgmlType::kMXFP4
                                    ? 3
                                    : kFewRows;

// Types whose GEMV stages spans through shared memory; the others load
// their blocks straight from global memory, lane by lane. Q8_0's 34-byte
// blocks, read lane by lane, touched many lines per load.
template <GgmlType T>
constexpr bool kStagedGemv = T == GgmlType::kQ8_0 || T == GgmlType::kQ3_K || T == GgmlType::kQ6_K ||
                             T == GgmlType::kIQ1_S || T == GgmlType::kIQ1_M || T == GgmlType::kIQ2_XS ||
                             T == GgmlType::kIQ2_S || T == GgmlType::kIQ3_XXS || T == GgmlType::kIQ3_S;

// Staged types whose plain batch-1 GEMV splits k over clusters where its
// rows are too few (gemv.cu's kClusterSplitGemv), as the direct types'
// does: measured for Q6_K (Q8_0 took no split at the shapes measured; the
// others were not measured).
template <GgmlType T>
constexpr bool kStagedClusterSplit = T == GgmlType::kQ6_K;

// Staged types whose batch 1-2 GEMV copies its spans by cp.async
// (span_stage.cuh: no registers, no shared stores) instead of through
// registers, where that measured faster; CUDA only.
template <GgmlType T>
constexpr bool kAsyncStagedGemv =
#if defined(VT_HIP)
    false;
#else
    T == GgmlType::kIQ1_S || T == GgmlType::kIQ1_M || T == GgmlType::kIQ2_XS || T == GgmlType::kIQ2_S ||
    T == GgmlType::kIQ3_XXS || T == GgmlType::kIQ3_S;
#endif

// Types whose plain batch 1-2 GEMV and expert GEMV set their first weight
// loads on their way before they wait for the quantizer: a staged type's
// first span, a direct type's first chunk, decoded before the wait.
//
// Their expert GEMV, behind its own quantizer with ids that are not settled
// (ExpertGemvArgs::ids_settled), loads early too: its quantizer then lets
// it launch only after the quantizer's own wait
// (QuantizeActivationsQ8ReleasedAfterWait), so whatever the kernels before
// the call wrote (the ids, the weights) is in memory when it reads the ids
// (from L2) and the weights. The plain GEMV's quantizer releases it at once
// (releasing it after the wait cost batch 1), and so does an expert GEMV's
// with settled ids, which then loads early as the plain GEMV does.
template <GgmlType T>
constexpr bool kEarlyWeightsGemv =
    T == GgmlType::kQ4_0 || T == GgmlType::kQ4_1 || T == GgmlType::kQ5_0 || T == GgmlType::kQ5_1 ||
    T == GgmlType::kQ2_K || T == GgmlType::kQ3_K || T == GgmlType::kQ4_K || T == GgmlType::kQ5_K ||
    T == GgmlType::kQ6_K || T == GgmlType::kIQ2_XXS || T == GgmlType::kIQ4_NL || T == GgmlType::kIQ4_XS ||
    T == GgmlType::kMXFP4 || T == GgmlType::kNVFP4;

// Staged types whose plain batch-1 GEMV (kEarlyWeightsGemv) copies its
// spans by cp.async, while their expert GEMV and batch 2 keep the copy
// through registers, where each measured faster. CUDA only.
template <GgmlType T>
constexpr bool kAsyncStagedEarly =
#if defined(VT_HIP)
    false;
#else
    T == GgmlType::kQ6_K;
#endif

// Q4_1 stages its blocks at batch 1-2 only, where staging measured faster
// for it and slower for every other direct type.
template <GgmlType T>
constexpr bool kStagedAtFewRows = T == GgmlType::kQ4_1;

// How many of a lane's chunks (l, l + 32, ...) the batch-1 kernel (the
// expert GEMV's too) unrolls its direct loop by: 2 where that measured
// faster. The batch-2 kernels lost with it and keep the loop rolled (1);
// IQ4_XS unrolls only where it loads its first weights before its wait
// (kEarly), and Q4_0 only in its 6-row expert kernel.
template <GgmlType T, int R, int N, bool kEarly>
constexpr int kDirectRowsUnroll =
    N == 1 && (T == GgmlType::kQ4_K || T == GgmlType::kIQ4_NL || T == GgmlType::kQ5_0 || T == GgmlType::kIQ2_XXS ||
               T == GgmlType::kQ1_0 || T == GgmlType::kMXFP4 || (T == GgmlType::kIQ4_XS && kEarly) ||
               T == GgmlType::kNVFP4 ||
               (T == GgmlType::kQ4_0 && R == kExpertGemvRows<T>))
        ? 2
        : 1;

// Types whose GEMV sums a chunk's 32 products as one integer and scales
// the sum once, where the decoder gives the chunk one scale and one min
// (IntBlock<T>::kHalfScales false; otherwise it always takes two sums). The
// staged types and Q5_K measured slower with one sum and keep two.
template <GgmlType T>
constexpr bool kSummedChunkDot = !kStagedGemv<T> && T != GgmlType::kQ5_K;

// Types whose batch 1-2 GEMV marks its block loads streaming too, where
// that measured faster (Q5_0, MXFP4 and IQ4_NL lost with it).
template <GgmlType T>
constexpr bool kStreamingAtFewRows = T == GgmlType::kQ4_0 || T == GgmlType::kQ2_K || T == GgmlType::kQ4_K ||
                                     T == GgmlType::kQ5_K || T == GgmlType::kIQ4_XS || T == GgmlType::kTQ2_0;

// Resident blocks per SM the compiler must leave room for (it caps
// registers to fit): six for batch 1-2 kernels (at most 80 registers) or
// eight for some types (below); four for the batch 3-8 kernels of the
// types where that measured faster, none for the rest.
template <GgmlType T>
constexpr bool kFourBlocksAtManyRows =
    T == GgmlType::kQ4_0 || T == GgmlType::kQ4_1 || T == GgmlType::kQ2_K || T == GgmlType::kQ5_K ||
    T == GgmlType::kQ6_K || T == GgmlType::kIQ2_XXS || T == GgmlType::kIQ4_NL || T == GgmlType::kIQ4_XS ||
    T == GgmlType::kMXFP4 || T == GgmlType::kTQ2_0 || T == GgmlType::kQ1_0 || T == GgmlType::kQ2_0;

// The batch 1-2 kernels held to eight blocks (64 registers) instead of six,
// where that measured faster.
template <GgmlType T>
constexpr bool kEightBlocksAtFewRows = T == GgmlType::kQ4_1 || T == GgmlType::kQ5_0 || T == GgmlType::kQ5_1 ||
                                       T == GgmlType::kQ4_K || T == GgmlType::kIQ2_XXS || T == GgmlType::kMXFP4;

// Types whose plain batch-1 GEMV takes its kernel held to eight blocks a
// SM (64 registers) instead of six where that keeps more of the device
// busy at the call's shape (gemv.cu's FillsBetter): Q8_0, whose
// 8192-row grid is 1.3 waves of six blocks a SM and 0.97 of eight.
// Measured faster there and slower where six fill the device (its spills
// grow from 16 to 48 bytes); Q4_0, Q5_K, Q6_K and IQ4_XS, held to eight
// at every shape, read mixed.
template <GgmlType T>
constexpr bool kBatchOneBlocksByFill = T == GgmlType::kQ8_0;

template <GgmlType T, int N>
constexpr int kMinBlocksPerSm =
    N <= kFewActivations ? (kEightBlocksAtFewRows<T> ? 8 : 6) : kFourBlocksAtManyRows<T> ? 4 : 1;

// Codebook types whose dp4a GEMV (batch 1-8 below the tensor cores, and the
// expert GEMV) copies the grid into shared memory for its decoder
// (IntBlock<T>::Codebook()), for activation caps N (kernel template
// argument) where that measured faster. The larger grids, read from global
// memory through L1 by 8-byte lookups at random places, kept L1 the busiest
// unit; IQ1_S and IQ2_S copy theirs as nibbles (iq_nibble_grids.cuh).
template <GgmlType T, int N>
constexpr bool kSharedCodebookGemv =
    T == GgmlType::kIQ2_XXS || T == GgmlType::kIQ3_XXS || T == GgmlType::kIQ3_S || T == GgmlType::kIQ1_S ||
    T == GgmlType::kIQ2_XS || T == GgmlType::kIQ2_S || (T == GgmlType::kIQ1_M && N <= kFewActivations);

}  // namespace vt::gpu
