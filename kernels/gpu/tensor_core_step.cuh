// One step of the tensor-core GEMV and GEMM (gemv_tensor_core.cuh): the
// int8 mma.m16n8k32 / k16 wrappers, a decoded chunk of a thread's two rows
// times a tile of 8 activations with its scale epilogue (TileProduct), and
// a step of kTileStepChunks chunks from the staged spans, each chunk's
// products scaled on their own (ChunkScaledStep) or a block's summed in
// integers and scaled once (BlockSummedStep). CUDA only (sm_80 and
// later). Where a choice here "measured faster", docs/GPU_TUNING.md has
// the runs.
#pragma once

#include "frag_decoders.cuh"
#include "gemv_params.cuh"
#include "gemv_tensor_core_tuning.cuh"
#include "tile_activations.cuh"

namespace vt::gpu {

#if !defined(VT_HIP)

// D = A * B + bias over int8 (bias: every element of C), A 16 x 32 (rows
// g, g + 8 of thread group g hold columns 4t..4t+3 in a0 / a1 and 16+4t..
// in a2 / a3), B 32 x 8 (column g: rows 4t.. in b0, 16+4t.. in b1); d0..d3
// are (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1).
__device__ __forceinline__ void MmaK32(int (&d)[4], int a0, int a1, int a2, int a3, int b0, int b1, int bias) {
  asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%10, %10, %10, %10};\n"
      : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1), "r"(bias));
}
// The same with C = d, summing over several chunks.
__device__ __forceinline__ void MmaK32Sum(int (&d)[4], int a0, int a1, int a2, int a3, int b0, int b1) {
  asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
      : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}
// The same over 16 columns: a0 / a1 hold columns 4t..4t+3, b0 rows 4t...
__device__ __forceinline__ void MmaK16(int (&d)[4], int a0, int a1, int b0, int bias) {
  asm("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %7, %7, %7};\n"
      : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
      : "r"(a0), "r"(a1), "r"(b0), "r"(bias));
}
// The same with C = d.
__device__ __forceinline__ void MmaK16Sum(int (&d)[4], int a0, int a1, int b0) {
  asm("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};\n"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
      : "r"(a0), "r"(a1), "r"(b0));
}
// MmaK16 with C given per column: c_even for the thread's column 2t (d0,
// d2), c_odd for 2t + 1 (d1, d3).
__device__ __forceinline__ void MmaK16Columns(int (&d)[4], int a0, int a1, int b0, int c_even, int c_odd) {
  asm("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %7, %8};\n"
      : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
      : "r"(a0), "r"(a1), "r"(b0), "r"(c_even), "r"(c_odd));
}

// The mma adds kFloatBias (int_chunk.cuh) to each dot product, so that one
// float subtract (BiasedDot) gives the dot as a float.

// One chunk of the thread's two rows (w) times one tile of 8 activations:
// x holds the tile's codes for B's column g, `records` the scale records of
// activations 2t and 2t + 1; the products go into acc (the mma's d0..d3
// positions).
template <class Frag>
__device__ __forceinline__ void TileProduct(const FragSlice (&w)[2], uint2 x, const float4* records,
                                            float (&acc)[4]) {
  const float4 s[2] = {records[0], records[1]};
  if constexpr (!Frag::kSplitScales) {
    int d[4];
    MmaK32(d, w[0].lo, w[1].lo, w[0].hi, w[1].hi, static_cast<int>(x.x), static_cast<int>(x.y), kFloatBias);
    if constexpr (Frag::kOffset && !Frag::kSplitMins && Frag::kMinPerScale != 0.0f) {
      // m = kMinPerScale d, so d a.x dot - m a.y = d (a.x dot - kMinPerScale a.y):
      // the activation's term is worked out once for both rows.
      const float offset[2] = {-Frag::kMinPerScale * s[0].y, -Frag::kMinPerScale * s[1].y};
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        acc[j] = fmaf(w[j / 2].d[0], fmaf(s[j % 2].x, BiasedDot(d[j]), offset[j % 2]), acc[j]);
      }
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const FragSlice& r = w[j / 2];
        const float4& a = s[j % 2];
        acc[j] = fmaf(r.d[0] * a.x, BiasedDot(d[j]), acc[j]);
        if constexpr (Frag::kOffset && Frag::kSplitMins) {
          acc[j] -= fmaf(r.m[0], a.z, r.m[1] * a.w);
        } else if constexpr (Frag::kOffset) {
          acc[j] = fmaf(-r.m[0], a.y, acc[j]);
        }
      }
    }
  } else {
    int low[4], high[4];
    if constexpr (Frag::kOffsetInBias) {  // each half's C: kFloatBias less its offset term (Q8Layout)
      MmaK16Columns(low, w[0].lo, w[1].lo, static_cast<int>(x.x), __float_as_int(s[0].z), __float_as_int(s[1].z));
      MmaK16Columns(high, w[0].hi, w[1].hi, static_cast<int>(x.y), __float_as_int(s[0].w), __float_as_int(s[1].w));
    } else {
      MmaK16(low, w[0].lo, w[1].lo, static_cast<int>(x.x), kFloatBias);
      MmaK16(high, w[0].hi, w[1].hi, static_cast<int>(x.y), kFloatBias);
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const FragSlice& r = w[j / 2];
      const float4& a = s[j % 2];
      const float sum = fmaf(r.d[0], BiasedDot(low[j]), r.d[1] * BiasedDot(high[j]));
      acc[j] = fmaf(a.x, sum, acc[j]);
      if constexpr (Frag::kOffset) acc[j] -= fmaf(r.m[0], a.z, r.m[1] * a.w);
    }
  }
}

// Whether tile c of 8 activations holds any of the batch (tile 0 always
// does, so an unrolled loop tests only the later ones).
__device__ __forceinline__ bool TileInBatch(const GemvParams& p, int c) { return c == 0 || c * kQ8TileColumns < p.batch; }

// Frag's slice of chunk j of block b: all of it (Decode), or with
// kCodesOnly only its codes (Codes); a codebook decoder also takes `grid`,
// a kAlignedStagedWords one b's address modulo 4 (b_mod4).
template <class Frag, bool kCodesOnly>
__device__ __forceinline__ void DecodeSlice(const uint8_t* b, int j, int t, const uint32_t* grid, int b_mod4,
                                            FragSlice& f) {
  constexpr LoadMode S = LoadMode::kCached;
  if constexpr (Frag::kAlignedStagedWords) {
    static_assert(!kCodesOnly && Frag::kCodebookWords == 0, "an aligned-words decoder decodes whole slices");
    Frag::template Decode<S>(b, j, t, b_mod4, f);
  } else if constexpr (kCodesOnly && Frag::kCodebookWords > 0) {
    Frag::template Codes<S>(b, j, t, grid, f);
  } else if constexpr (kCodesOnly) {
    Frag::template Codes<S>(b, j, t, f);
  } else if constexpr (Frag::kCodebookWords > 0) {
    Frag::template Decode<S>(b, j, t, grid, f);
  } else {
    Frag::template Decode<S>(b, j, t, f);
  }
}

// A kIntegerMins block's min term for the thread's rows and activations
// (the mma's d0..d3 positions), biased (kFloatBias): the sum over the
// block's 16-value groups of each row's integer min times the
// activation's sum of 16 codes, as one k16 mma over each limb of those
// sums (activation_q8.cuh: run `first` + t's record carries those of
// groups 4t..4t+3). |sum| <= 16 * 15 * 16 * 127, well inside the bias's
// range.
template <class Frag>
__device__ __forceinline__ void BlockMinSum(const GemvParams& p, const uint8_t* block_a, const uint8_t* block_b,
                                            int first, int (&min_sum)[4]) {
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int g = lane / 4, t = lane % 4;
  const int a0 = Frag::template BlockMins<LoadMode::kCached>(block_a, t);
  const int a1 = Frag::template BlockMins<LoadMode::kCached>(block_b, t);
  const float4* record = p.xq.scales + (static_cast<int64_t>(first) + t) * kQ8TileColumns + g;
  const int2 limbs = reinterpret_cast<const int2*>(record)[1];  // {low, high}
  MmaK16(min_sum, a0, a1, limbs.y, 0);
#pragma unroll
  for (int i = 0; i < 4; ++i) min_sum[i] = min_sum[i] * 128 + kFloatBias;
  MmaK16Sum(min_sum, a0, a1, limbs.x);
}

// TensorCoreStep of a kBlockScaledGemvTypes GEMV (one tile of activations,
// each block's span of each quantized under one scale): a block's chunks
// are summed by the mma in integers and the sum scaled once, with the
// record any chunk of the group holds (the group's scale and code sum).
template <GgmlType T, bool kWhole>
__device__ __forceinline__ void BlockSummedStep(const GemvParams& p, const uint8_t* span_a, const uint8_t* span_b,
                                                int first, const uint32_t* grid, float (&acc)[4]) {
  using Frag = TileFrag<T, 1>;
  static_assert(Frag::kIntegerScales ||
                    (!Frag::kSplitScales && !Frag::kShareScales && Frag::kCodebookWords == 0),
                "one scale a block, decoded with the codes");
  static_assert(!Frag::kOffset || Frag::kIntegerMins || (!Frag::kSplitMins && Frag::kMinPerScale != 0.0f),
                "a min of kMinPerScale d, or integer mins");
  constexpr int kChunksPerBlock = Block<T>::kValues / 32;
  constexpr int kBlocks = kTileStepChunks<T, 1> / kChunksPerBlock;
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int t = lane % 4;
  const uint2* codes = reinterpret_cast<const uint2*>(p.xq.codes) + static_cast<int64_t>(first) * kWarpSize + lane;
  const float4* records = p.xq.scales + static_cast<int64_t>(first) * kQ8TileColumns + 2 * t;
#pragma unroll
  for (int b = 0; b < kBlocks; ++b) {
    const int block_first = b * kChunksPerBlock;
    if (!kWhole && first + block_first >= p.chunks) break;  // rows are whole blocks
    const int offset = b * Block<T>::kBytes;
    int sums[kBlockSums<T>][4] = {};
    int min_sum[4];  // kIntegerMins: the block's sum of min x, biased
    if constexpr (Frag::kIntegerMins) {
      BlockMinSum<Frag>(p, span_a + offset, span_b + offset, first + block_first, min_sum);
    }
    FragSlice w[2];
#pragma unroll
    for (int j = 0; j < kChunksPerBlock; ++j) {
#pragma unroll
      for (int r = 0; r < 2; ++r) {
        const uint8_t* block = (r == 0 ? span_a : span_b) + offset;
        if constexpr (Frag::kIntegerMins) {
          Frag::template DecodeIntegerMins<LoadMode::kCached>(block, j, t, w[r]);
        } else if constexpr (Frag::kIntegerScales) {
          Frag::template DecodeIntegerScale<LoadMode::kCached>(block, j, t, grid, w[r]);
        } else {  // with kAlignedStagedWords the spans start at 4-byte boundaries
          DecodeSlice<Frag, false>(block, j, t, grid, offset % 4, w[r]);
        }
      }
      const uint2 x = codes[(block_first + j) * kWarpSize];
      if constexpr (Frag::kIntegerScales) {
        // Each chunk's sums times its rows' integer scales, summed in
        // integers (|sum| < 2^31: 256 codes of at most 62 times 31 times
        // 127, so no float bias: converted at the block's end).
        if constexpr (Frag::kSplitScales) {
          int low[4], high[4];
          MmaK16(low, w[0].lo, w[1].lo, static_cast<int>(x.x), 0);
          MmaK16(high, w[0].hi, w[1].hi, static_cast<int>(x.y), 0);
#pragma unroll
          for (int i = 0; i < 4; ++i) {  // two multiply-adds, not a multiply, a multiply-add and an add
            sums[j % kBlockSums<T>][i] += w[i / 2].iscale * low[i];
            sums[j % kBlockSums<T>][i] += w[i / 2].iscale_hi * high[i];
          }
        } else {
          int dot[4];
          MmaK32(dot, w[0].lo, w[1].lo, w[0].hi, w[1].hi, static_cast<int>(x.x), static_cast<int>(x.y), 0);
#pragma unroll
          for (int i = 0; i < 4; ++i) sums[j % kBlockSums<T>][i] += w[i / 2].iscale * dot[i];
        }
        continue;
      }
      MmaK32Sum(sums[j % kBlockSums<T>], w[0].lo, w[1].lo, w[0].hi, w[1].hi, static_cast<int>(x.x),
                static_cast<int>(x.y));
    }
    int sum[4];  // the block's sums (a float's bits, but with kIntegerScales)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      sum[j] = Frag::kIntegerScales ? 0 : kFloatBias;
#pragma unroll
      for (int i = 0; i < kBlockSums<T>; ++i) sum[j] += sums[i][j];
    }
    const float4* group = records + block_first * kQ8TileColumns;
    const float2 s[2] = {reinterpret_cast<const float2*>(group)[0], reinterpret_cast<const float2*>(group + 1)[0]};
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const float d = w[j / 2].d[0];
      const float2& a = s[j % 2];
      if constexpr (Frag::kIntegerScales) {
        acc[j] = fmaf(d * a.x, static_cast<float>(sum[j]), acc[j]);
      } else if constexpr (Frag::kIntegerMins) {
        acc[j] = fmaf(a.x, fmaf(d, BiasedDot(sum[j]), -w[j / 2].m[0] * BiasedDot(min_sum[j])), acc[j]);
      } else if constexpr (Frag::kOffset) {
        acc[j] = fmaf(d, fmaf(a.x, BiasedDot(sum[j]), -Frag::kMinPerScale * a.y), acc[j]);
      } else {
        acc[j] = fmaf(d * a.x, BiasedDot(sum[j]), acc[j]);
      }
    }
  }
}

// One step (kTileStepChunks chunks, fewer when kWhole is false and the row
// ends first) of this thread's two rows, g and g + 8 of the tile, whose
// blocks start at span_a and span_b, times the tiles of 8 activations that
// hold the batch (at most kTiles), into acc[tile], each chunk's products
// scaled on their own (TensorCoreStep has the block-summed GEMVs take
// BlockSummedStep instead). Each chunk is decoded once for all the tiles.
// `first`: the step's first chunk in the row. The step's activations are
// read from the workspace, or with kStagedActivations<kTiles> from the
// block's copy of them at x_stage (ActivationStage).
template <GgmlType T, bool kWhole, int kTiles>
__device__ __forceinline__ void ChunkScaledStep(const GemvParams& p, const uint8_t* span_a, const uint8_t* span_b,
                                                int first, const uint32_t* grid, const uint4* x_stage,
                                                float (&acc)[kTiles][4]) {
  using B = Block<T>;
  using Frag = TileFrag<T, kTiles>;
  constexpr int kChunksPerBlock = B::kValues / 32;
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int t = lane % 4;
  constexpr int kStepChunks = kTileStepChunks<T, kTiles>;
  const TileActivations x = kStagedActivations<kTiles> ? ActivationStage<kTiles, kStepChunks>::View(x_stage)
                                                       : WorkspaceActivations(p, first);
  // With Frag::kShareScales, thread t works out the scales of chunks t and
  // 4 + t of the step for its two rows (past a row's end they are unused
  // bytes of the staged copy), and its group trades them by shuffles.
  constexpr bool kShare = Frag::kShareScales;
  FragSlice held[kStepChunks / 4][2];
  if constexpr (kShare) {
#pragma unroll
    for (int q = 0; q < kStepChunks / 4; ++q) {
      const int i = 4 * q + t;
      const int offset = i / kChunksPerBlock * B::kBytes;
      Frag::template Scales<LoadMode::kCached>(span_a + offset, i % kChunksPerBlock, held[q][0]);
      Frag::template Scales<LoadMode::kCached>(span_b + offset, i % kChunksPerBlock, held[q][1]);
    }
  }
#pragma unroll
  for (int i = 0; i < kStepChunks; ++i) {
    if (!kWhole && first + i >= p.chunks) break;
    const int offset = i / kChunksPerBlock * B::kBytes;
    FragSlice w[2];
    // With Frag::kAlignedStagedWords the spans start at 4-byte boundaries,
    // so a block's address modulo 4 is offset's, known once unrolled.
    const int b_mod4 = offset % 4;
    if constexpr (kShare) {
      DecodeSlice<Frag, true>(span_a + offset, i % kChunksPerBlock, t, grid, b_mod4, w[0]);
      DecodeSlice<Frag, true>(span_b + offset, i % kChunksPerBlock, t, grid, b_mod4, w[1]);
      const int from = (lane & ~3) | (i % 4);
#pragma unroll
      for (int r = 0; r < 2; ++r) {
#pragma unroll
        for (int h = 0; h < (Frag::kSplitScales ? 2 : 1); ++h) {
          w[r].d[h] = __shfl_sync(0xFFFFFFFFu, held[i / 4][r].d[h], from);
          if constexpr (Frag::kOffset) w[r].m[h] = __shfl_sync(0xFFFFFFFFu, held[i / 4][r].m[h], from);
        }
      }
    } else {
      DecodeSlice<Frag, false>(span_a + offset, i % kChunksPerBlock, t, grid, b_mod4, w[0]);
      DecodeSlice<Frag, false>(span_b + offset, i % kChunksPerBlock, t, grid, b_mod4, w[1]);
    }
#pragma unroll
    for (int c = 0; c < kTiles; ++c) {
      if (!TileInBatch(p, c)) break;
      TileProduct<Frag>(w, x.codes[c * x.tile_pieces + i * kWarpSize],
                        x.records + c * x.tile_records + i * kQ8TileColumns, acc[c]);
    }
  }
}

// One step of the tensor-core kernel (ChunkScaledStep's contract): a
// kBlockScaledGemvTypes GEMV's by BlockSummedStep, the others' by
// ChunkScaledStep.
template <GgmlType T, bool kWhole, int kTiles>
__device__ __forceinline__ void TensorCoreStep(const GemvParams& p, const uint8_t* span_a, const uint8_t* span_b,
                                               int first, const uint32_t* grid, const uint4* x_stage,
                                               float (&acc)[kTiles][4]) {
  if constexpr (kTiles == 1 && kTensorCoreGroupRuns<T> > 1) {
    BlockSummedStep<T, kWhole>(p, span_a, span_b, first, grid, acc[0]);
  } else {
    ChunkScaledStep<T, kWhole, kTiles>(p, span_a, span_b, first, grid, x_stage, acc);
  }
}

#endif

}  // namespace vt::gpu
