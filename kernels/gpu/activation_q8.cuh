// The GEMV's int8 activations: each run of 32 floats becomes 32 int8 codes
// q = round(x / d), d = max|x| / 127, plus a record {d, d * sum(q),
// d * sum(q[0..15]), d * sum(q[16..31])} that the integer decoders' affine
// terms use (a GEMV that needs only the first two reads them as a float2;
// kMmaTileSubBlockPairs puts other terms in the last two, see below).
#pragma once

#include "gpu_dialect.h"

namespace vt::gpu {

struct Q8Activations {
  int8_t* codes;   // 32 per run, runs ordered by Q8Layout (below)
  float4* scales;  // one record per run, same order
};

inline Q8Activations CarveWorkspace(void* workspace, int64_t k, int activations) {
  const size_t codes = static_cast<size_t>(k) * static_cast<size_t>(activations);
  uint8_t* base = static_cast<uint8_t*>(workspace);
  return {reinterpret_cast<int8_t*>(base), reinterpret_cast<float4*>(base + (codes + 15) / 16 * 16)};
}

// How the runs of 32 are ordered in Q8Activations:
// - kRows: activation-major, codes in element order ([activations][k]);
// - kNibblePairs: the same runs, each run's codes in the order of
//   CodeOrder::kNibblePairs (int_chunk.cuh): elements 0, 16, 1, 17, 2, 18, ...
//   pairwise: byte 8 * j + 2 * i + h holds element 4 * j + i + 16 * h (j, i
//   < 4, h < 2);
// - kSubBlockPairs: the same runs in the order of CodeOrder::kSubBlockPairs:
//   elements 0, 8, 1, 9, ... 7, 15, then 16, 24, 17, 25, ...;
// - kMmaTiles: tiles of kQ8TileColumns activations, one after another; in a
//   tile, chunk-major over its activations (those past the last one zero),
//   each run's codes placed for the tensor-core kernel's B operand
//   (activation_q8.cu's TilePlace);
// - kMmaTilePairs: kMmaTiles' runs, each run's codes in kNibblePairs' order,
//   for a tensor-core decoder that leaves its values in that order
//   (frag_decode.cuh's kPairedCodes);
// - kMmaTileOctets: kMmaTiles' runs, but giving thread t elements 8t..8t+7
//   in order, for a tensor-core decoder that takes one eight-value
//   codebook entry a thread (frag_decode.cuh's kWholeEntries);
// - kMmaTileBlockWords: kMmaTiles' runs, for group_runs 2 or 4 only, each
//   group's codes spread over its runs as the words of a block of 16 code
//   bytes with 2 * group_runs fields a byte lie (frag_decode.cuh's
//   kBlockWords): thread t takes word t, and in run c (its mma c) field
//   2c of the word's byte i in byte i of its first four bytes, field 2c + 1
//   in byte i of its last four. Element e of the group (field e % F of
//   code byte e / F, F = 2 * group_runs) goes to run (e % F) / 2 at
//   8 (e / 4F) + 4 (e % 2) + (e / F) % 4;
// - kMmaTileSubBlockPairs: kMmaTiles' runs for a decoder of 16-value
//   sub-blocks whose byte i holds values i and 8 + i (frag_decode.cuh's
//   kOffsetInBias): thread t's first four bytes hold elements 2t, 8 + 2t,
//   2t + 1, 9 + 2t, its last four the same plus 16. Its records' last two
//   fields are int bits, kFloatBias - kFp4PairOffset times the code sum of
//   the run's first and last 16 codes (the C operand of each half's mma).
enum class Q8Layout {
  kRows, kNibblePairs, kSubBlockPairs, kMmaTiles, kMmaTilePairs, kMmaTileOctets, kMmaTileBlockWords,
  kMmaTileSubBlockPairs
};
inline constexpr int kQ8TileColumns = 8;
inline constexpr int kMaxGroupRuns = 8;

// One warp per run of 32 values of x ([activations][chunks * 32]), into
// `columns` activations' room (kRows: `activations`; kMmaTiles: a multiple
// of kQ8TileColumns). With group_runs > 1 (the tile layouts only; at most
// kMaxGroupRuns, dividing `chunks`) one warp takes group_runs consecutive
// runs of an activation under one scale, the group's: each of their
// records is {d, d * the group's code sum, low, high}, where low and high
// are int bits, zero but in the first group_runs / 2 runs: run i's hold
// the group's sums of 16 codes 4i..4i+3 (sum s of codes 16s..16s+15), one
// a byte, as int8 limbs: sum = 128 * high + low (activation_q8.cu's
// SixteenSumLimbs). Also sets clear[0 .. clear_count) to zero (the output
// a GEMV then adds into; none when clear_count is 0). The next kernel may
// launch (programmatic dependent launch) as soon as this grid starts, or,
// for QuantizeActivationsQ8ReleasedAfterWait, only once every block of it
// has waited for the kernel before it: that next kernel may then read,
// before its own wait, anything written by the kernels before this one.
__global__ void QuantizeActivationsQ8(const float* x, Q8Layout layout, int activations, int columns, int64_t chunks,
                                      int group_runs, Q8Activations out, float* clear, int64_t clear_count);
__global__ void QuantizeActivationsQ8ReleasedAfterWait(const float* x, Q8Layout layout, int activations, int columns,
                                                       int64_t chunks, int group_runs, Q8Activations out, float* clear,
                                                       int64_t clear_count);
// QuantizeActivationsQ8 and QuantizeActivationsQ8ReleasedAfterWait for
// kMmaTileBlockWords, the one layout these take and the other two do not,
// so that their code carries no branch for it.
__global__ void QuantizeActivationsQ8BlockWords(const float* x, Q8Layout layout, int activations, int columns,
                                                int64_t chunks, int group_runs, Q8Activations out, float* clear,
                                                int64_t clear_count);
__global__ void QuantizeActivationsQ8BlockWordsReleasedAfterWait(const float* x, Q8Layout layout, int activations,
                                                                 int columns, int64_t chunks, int group_runs,
                                                                 Q8Activations out, float* clear, int64_t clear_count);

// Sets clear[0 .. clear_count) to zero once the kernel before it has
// finished: the output a tensor-core expert GEMV adds into, when its
// activations were quantized by an earlier call (ExpertGemvArgs::
// x_quantized), so no quantizer of its own zeroes it. The next kernel may
// launch as the quantizers let it (see above).
__global__ void ClearAfterPrevious(float* clear, int64_t clear_count);
__global__ void ClearAfterPreviousReleasedAfterWait(float* clear, int64_t clear_count);

}  // namespace vt::gpu
