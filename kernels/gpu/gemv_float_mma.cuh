// The GEMV of the 16-bit floats (F16, BF16) at batches of
// kFloatMmaMinBatch to 8, and their GEMM by passes of kFloatGemmColumnTiles
// tiles of 8 activations, on tensor cores (CUDA; HIP and smaller batches
// keep gemv_rows.cuh's FloatRows).
//
// A block owns kFloatMmaTiles tiles of 16 rows (kFloatGemmRowTiles in the
// GEMM); its kFloatMmaWarps warps split k between them, chunk by chunk of
// 32 values (warp w takes chunks w, w + kFloatMmaWarps, ...), and add
// their sums through shared memory at the end. Where the tiles are too few
// to fill the device (a 4096-row matrix has 256), a cluster of 2 to 8
// blocks owns them instead: each block takes its own run of k's chunks, and
// the blocks add their sums through each other's shared memory (Hopper's
// distributed shared memory), so y is still written once, in a fixed
// order (ChooseClusterSplit chooses the cluster).
//
// Thread (g, t) of a warp (lane 4 g + t) loads values 8 t .. 8 t + 7 of a
// chunk of rows g and g + 8 of each tile, one 16-byte load per row, and the
// same eight values of activation g of each column tile (activations past
// the batch read as zero). A dot product does not care in which order k is summed, so those
// eight values fill the thread's k slots of two mma.m16n8k16 as they lie:
// words 0 and 1 the first mma's a0 / a2 (b0 / b1), words 2 and 3 the
// second's. No shuffles, and the weights go from the load into the mma.
//
// The activations must be rounded to the weights' type for the mma. To
// keep the float path's accuracy, each is split into hi + lo, both of that
// type, and both multiplied: |x - hi - lo| is at most 2^-16 |x| for BF16.
// F16's range is small: where an activation's chunk has its largest
// |value| m outside [2^-1, 2^14) (for any activation of the tile), the
// tile's chunk is first scaled by powers of two that put each m in
// [2^14, 2^15), and its products scaled back. So any finite x fits, and
// |x - hi - lo| is at most 2^-22 |x| + 2^-24 m.
//
// Where a choice here "measured faster", docs/GPU_TUNING.md has the runs.
#pragma once

#include "gemv_params.cuh"
#include "gpu_dialect.h"
#include "vt/policy/ggml_type.h"

#if !defined(VT_HIP)
#include <cuda_bf16.h>

#include "cluster_split.cuh"

namespace vt::gpu {

// The smallest batch that runs here: FloatRows measured faster at batch 1
// and slower from batch 2. Batch 1 runs here too where FloatRows' blocks
// fill less than kFloatMmaBatchOneWaves of a wave of the device, or a
// second wave of less than kFloatMmaBatchOneTail of one (gemv.cu's
// FloatMmaAtBatchOne): there this kernel measured faster, and elsewhere
// slower.
constexpr int kFloatMmaMinBatch = 2;
constexpr double kFloatMmaBatchOneWaves = 1.0 / 3.0;
constexpr double kFloatMmaBatchOneTail = 0.25;
// Warps a block, splitting k: 4, where 8 measured slower.
constexpr int kFloatMmaWarps = 4;
// Tiles of 16 rows a block (each warp multiplies all of them): 1, where 2
// and 4 measured slower.
constexpr int kFloatMmaTiles = 1;
// Chunks a warp loads before it multiplies the first of them: 4, where 2,
// 6 and 8 measured slower.
constexpr int kFloatMmaUnroll = 4;
// Tiles of 8 activations a GEMM pass multiplies: 4, where 1, 2 and 8
// measured slower (but for BF16 over one tile of rows).
constexpr int kFloatGemmColumnTiles = 4;
// Tiles of 16 rows a GEMM block owns: 2, where 1 measured slower (BF16
// much, F16 a little) and 4 slower.
constexpr int kFloatGemmRowTiles = 2;
// The fewest chunks each warp of a cluster that splits k keeps.
constexpr int kFloatMmaMinWarpChunks = 2 * kFloatMmaUnroll;
// Resident blocks a SM the kernels that split k ask the compiler to leave
// room for, as their whole kernels fit: 5 for the GEMV's, which F16's did
// not unbounded (98 registers, so 4 blocks; bounded it reloads one spilled
// value per kFloatMmaUnroll chunks), and 4 for the GEMM's, which F16's did
// not either (130 registers, so 3 blocks).
constexpr int kFloatMmaSplitMinBlocks = 5;
constexpr int kFloatGemmSplitMinBlocks = 4;

// D += A * B over 16-bit floats, float accumulate; fragments as the file's
// header describes.
template <GgmlType T>
__device__ __forceinline__ void MmaFloat16(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                           uint32_t b0, uint32_t b1) {
  if constexpr (T == GgmlType::kF16) {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  } else {
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
  }
}

// Two floats as T's 16-bit pair (`low` in the low half), rounded to
// nearest, and that pair widened back.
template <GgmlType T>
__device__ __forceinline__ uint32_t Pack16(float low, float high, float& low_back, float& high_back) {
  if constexpr (T == GgmlType::kF16) {
    const __half2 h = __floats2half2_rn(low, high);
    low_back = __low2float(h), high_back = __high2float(h);
    return *reinterpret_cast<const uint32_t*>(&h);
  } else {
    const uint32_t packed = PackBf16(low, high);
    low_back = __uint_as_float(packed << 16), high_back = __uint_as_float(packed & 0xFFFF0000u);
    return packed;
  }
}

// The eight values v as hi + lo words of T (word i: values 2i, 2i + 1).
template <GgmlType T>
__device__ __forceinline__ void SplitActivation(const float (&v)[8], uint32_t (&hi)[4], uint32_t (&lo)[4]) {
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    float low_back, high_back, unused0, unused1;
    hi[i] = Pack16<T>(v[2 * i], v[2 * i + 1], low_back, high_back);
    lo[i] = Pack16<T>(v[2 * i] - low_back, v[2 * i + 1] - high_back, unused0, unused1);
  }
}

// The largest |value| of this thread group's chunk (its activation's 32
// values); a NaN among them is passed over (it reaches y through the
// products anyway).
__device__ __forceinline__ float ChunkLargest(const float (&v)[8]) {
  float largest = 0.0f;
#pragma unroll
  for (int i = 0; i < 8; ++i) largest = fmaxf(largest, fabsf(v[i]));
  largest = fmaxf(largest, __shfl_xor_sync(0xFFFFFFFFu, largest, 1));
  return fmaxf(largest, __shfl_xor_sync(0xFFFFFFFFu, largest, 2));
}

// For F16: the exponent of the power of two that puts `largest` in
// [2^14, 2^15), kept within [-126, 126] so that the power and its inverse
// are normal floats.
__device__ __forceinline__ int ChunkScaleExponent(float largest) {
  const int biased = static_cast<int>(__float_as_uint(largest) >> 23);  // 0 for zero, 255 for inf
  return min(max(141 - biased, -126), 126);
}

// The products of w and the hi / lo words of one tile of activations,
// added into d.
template <GgmlType T, int kTiles>
__device__ __forceinline__ void SplitProducts(const uint4 (&w)[kTiles][2], const uint32_t (&hi)[4],
                                              const uint32_t (&lo)[4], float (&d)[kTiles][4]) {
#pragma unroll
  for (int m = 0; m < kTiles; ++m) {
    const uint4 r0 = w[m][0], r1 = w[m][1];
    MmaFloat16<T>(d[m], r0.x, r1.x, r0.y, r1.y, hi[0], hi[1]);
    MmaFloat16<T>(d[m], r0.z, r1.z, r0.w, r1.w, hi[2], hi[3]);
    MmaFloat16<T>(d[m], r0.x, r1.x, r0.y, r1.y, lo[0], lo[1]);
    MmaFloat16<T>(d[m], r0.z, r1.z, r0.w, r1.w, lo[2], lo[3]);
  }
}

// One chunk's products of the thread's rows (w: rows g and g + 8 of each
// tile) with one tile of 8 activations (v: the thread's eight values of
// activation g, which is past the batch unless `active`), added into acc
// (the mma's d0..d3 places: rows g, g + 8, activations 2t, 2t + 1). F16
// scales the tile's chunk only where the header says it must, which
// measured faster than scaling every chunk.
template <GgmlType T, int kTiles>
__device__ __forceinline__ void ChunkProducts(const uint4 (&w)[kTiles][2], float (&v)[8], bool active,
                                              float (&acc)[kTiles][4]) {
  uint32_t hi[4], lo[4];
  if constexpr (T == GgmlType::kF16) {
    const float largest = ChunkLargest(v);
    if (__all_sync(0xFFFFFFFFu, !active || (largest >= 0x1p-1f && largest < 0x1p14f))) {
      SplitActivation<T>(v, hi, lo);
      SplitProducts<T>(w, hi, lo, acc);
      return;
    }
    const int exponent = ChunkScaleExponent(largest);
    const float scale = __uint_as_float(static_cast<uint32_t>(exponent + 127) << 23);
#pragma unroll
    for (int i = 0; i < 8; ++i) v[i] *= scale;
    // The inverse scales of activations 2t and 2t + 1.
    const int t = static_cast<int>(threadIdx.x % 4);
    const int exponent_even = __shfl_sync(0xFFFFFFFFu, exponent, 8 * t);
    const int exponent_odd = __shfl_sync(0xFFFFFFFFu, exponent, 8 * t + 4);
    const float back[2] = {__uint_as_float(static_cast<uint32_t>(127 - exponent_even) << 23),
                           __uint_as_float(static_cast<uint32_t>(127 - exponent_odd) << 23)};
    SplitActivation<T>(v, hi, lo);
    float d[kTiles][4] = {};
    SplitProducts<T>(w, hi, lo, d);
#pragma unroll
    for (int m = 0; m < kTiles; ++m) {
#pragma unroll
      for (int j = 0; j < 4; ++j) acc[m][j] = fmaf(d[m][j], back[j % 2], acc[m][j]);
    }
  } else {
    SplitActivation<T>(v, hi, lo);
    SplitProducts<T>(w, hi, lo, acc);
  }
}

// y for kTiles tiles of 16 rows times kColumnTiles tiles of 8
// activations (p.batch at most 8 kColumnTiles; those past it read as zero
// and are not written), by one block, or with kSplitK by a cluster of
// consecutive blocks along x (the tiles of the cluster's index). Without
// kSplitK the kernel carries none of the split's registers.
template <GgmlType T, int kColumnTiles, int kTiles, bool kSplitK>
__global__ void __launch_bounds__(kFloatMmaWarps* kWarpSize,
                                  !kSplitK            ? 0
                                  : kColumnTiles == 1 ? kFloatMmaSplitMinBlocks
                                                      : kFloatGemmSplitMinBlocks)
    FloatMmaGemvKernel(GemvParams p) {
  // The activations of several column tiles take the registers the GEMV
  // spends on loads ahead.
  constexpr int kUnroll = kColumnTiles == 1 ? kFloatMmaUnroll : 1;
  constexpr int kThreads = kFloatMmaWarps * kWarpSize;
  const int warp = static_cast<int>(threadIdx.x / kWarpSize);
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int g = lane / 4, t = lane % 4;
  const ClusterPlace cluster = ThisClusterPlace<kSplitK>();
  const int row0 = cluster.index * kTiles * 16;
  // This block's run of chunks (all of them without a cluster).
  const int begin = RunStart(p.chunks, cluster.rank, cluster.blocks);
  const int end = RunStart(p.chunks, cluster.rank + 1, cluster.blocks);
  // This thread's 16 bytes of chunk 0 of rows g and g + 8 of each tile.
  const uint8_t* rows[kTiles][2];
#pragma unroll
  for (int m = 0; m < kTiles; ++m) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int row = min(row0 + 16 * m + 8 * h + g, p.rows - 1);
      rows[m][h] = p.weights + static_cast<int64_t>(row) * p.row_bytes + 16 * t;
    }
  }
  // This thread's eight values of chunk 0 of activation 8 n + g (null past
  // the batch).
  const float* x[kColumnTiles];
#pragma unroll
  for (int n = 0; n < kColumnTiles; ++n) {
    const int b = 8 * n + g;
    x[n] = b < p.batch ? p.xf + static_cast<int64_t>(b) * p.chunks * 32 + 8 * t : nullptr;
  }
  float acc[kColumnTiles][kTiles][4] = {};
  WaitForPreviousKernel();  // the activations are written
  for (int first = begin + warp; first < end; first += kFloatMmaWarps * kUnroll) {
    uint4 w[kUnroll][kTiles][2];
    float v[kUnroll][kColumnTiles][8];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int ch = first + u * kFloatMmaWarps;
      if (ch >= end) break;
#pragma unroll
      for (int m = 0; m < kTiles; ++m) {
#pragma unroll
        for (int h = 0; h < 2; ++h) w[u][m][h] = LoadStreaming(reinterpret_cast<const uint4*>(rows[m][h] + 64 * ch));
      }
#pragma unroll
      for (int n = 0; n < kColumnTiles; ++n) {
        const float4 zero = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        const float4 x0 = x[n] != nullptr ? reinterpret_cast<const float4*>(x[n] + 32 * ch)[0] : zero;
        const float4 x1 = x[n] != nullptr ? reinterpret_cast<const float4*>(x[n] + 32 * ch)[1] : zero;
        v[u][n][0] = x0.x, v[u][n][1] = x0.y, v[u][n][2] = x0.z, v[u][n][3] = x0.w;
        v[u][n][4] = x1.x, v[u][n][5] = x1.y, v[u][n][6] = x1.z, v[u][n][7] = x1.w;
      }
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if (first + u * kFloatMmaWarps >= end) break;
#pragma unroll
      for (int n = 0; n < kColumnTiles; ++n) ChunkProducts<T>(w[u], v[u][n], x[n] != nullptr, acc[n]);
    }
  }
  // The warps' sums of each (column tile, row tile, place, lane), added
  // over the cluster's blocks and written, each block writing its share.
  constexpr int kSums = kColumnTiles * kTiles * 4 * kWarpSize;
  __shared__ float sums[kFloatMmaWarps][kSums];
#pragma unroll
  for (int n = 0; n < kColumnTiles; ++n) {
#pragma unroll
    for (int m = 0; m < kTiles; ++m) {
#pragma unroll
      for (int j = 0; j < 4; ++j) sums[warp][((n * kTiles + m) * 4 + j) * kWarpSize + lane] = acc[n][m][j];
    }
  }
  __syncthreads();
  if (kSplitK) SyncCluster();
  for (int i = static_cast<int>(threadIdx.x) + cluster.rank * kThreads; i < kSums; i += cluster.blocks * kThreads) {
    const int l = i % kWarpSize, j = i / kWarpSize % 4, m = i / (4 * kWarpSize) % kTiles;
    const int n = i / (4 * kWarpSize * kTiles);
    const int row = row0 + 16 * m + l / 4 + 8 * (j / 2);
    const int b = 8 * n + 2 * (l % 4) + j % 2;
    float sum = 0.0f;
    if (!kSplitK) {
#pragma unroll
      for (int w = 0; w < kFloatMmaWarps; ++w) sum += sums[w][i];
    } else {
      for (int r = 0; r < cluster.blocks; ++r) {
        const float* block_sums = InClusterBlock(&sums[0][0], r);
#pragma unroll
        for (int w = 0; w < kFloatMmaWarps; ++w) sum += block_sums[w * kSums + i];
      }
    }
    if (row < p.rows && b < p.batch) p.y[static_cast<int64_t>(b) * p.rows + row] = sum;
  }
  // No block leaves (taking its shared memory) while another reads its sums.
  if (kSplitK) SyncCluster();
}

// Launches FloatMmaGemvKernel<T> over p (a plain GEMV of 2 to 8 activations
// or a GEMM pass of up to 8 kColumnTiles), k split over clusters where
// ChooseClusterSplit says so.
template <GgmlType T, int kColumnTiles = 1, int kTiles = kFloatMmaTiles>
cudaError_t LaunchFloatMmaGemv(const GemvParams& p, cudaStream_t stream) {
  constexpr auto kWhole = FloatMmaGemvKernel<T, kColumnTiles, kTiles, false>;
  constexpr auto kSplit = FloatMmaGemvKernel<T, kColumnTiles, kTiles, true>;
  constexpr int kRowsPerBlock = kTiles * 16;
  const dim3 block(kFloatMmaWarps * kWarpSize);
  const int64_t blocks = (static_cast<int64_t>(p.rows) + kRowsPerBlock - 1) / kRowsPerBlock;
  // Each warp keeps kFloatMmaMinWarpChunks chunks or more.
  const int most = p.chunks / (kFloatMmaWarps * kFloatMmaMinWarpChunks);
  int split = 1;
  constexpr int kThreads = kFloatMmaWarps * kWarpSize;
  const auto largest = [&](std::span<const int64_t> at_once) {
    return LargestClusterSplit(blocks, most, at_once, ClusterSizes::kAny);
  };
  if (const cudaError_t error = ChooseClusterSplit<kWhole, kSplit, kThreads>(blocks, most, largest, split);
      error != cudaSuccess) {
    return error;
  }
  if (split == 1) return LaunchAfterPrevious(kWhole, dim3(static_cast<unsigned>(blocks)), block, stream, p);
  return LaunchClustersAfterPrevious(kSplit, dim3(static_cast<unsigned>(blocks * split)), block,
                                     static_cast<unsigned>(split), stream, p);
}

}  // namespace vt::gpu

#endif
