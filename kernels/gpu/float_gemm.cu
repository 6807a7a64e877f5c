// The GEMM of the 16-bit floats (F16, BF16) on tiles (CUDA): each block
// owns a tile of kFloatTileRows rows of W by kFloatTileBatch activations
// and walks k one chunk of 32 at a time, copying W's chunks into shared
// memory kFloatTileStages - 1 chunks ahead (cp.async), so that every
// weight it reads from memory meets all of the tile's activations on the
// tensor cores (mma.m16n8k16, float accumulation). Blocks of one tile of
// rows are consecutive, so those running at once read each row from L2
// rather than from memory again.
//
// Its 8 warps split the tile 4 x 2, each owning 32 rows by 32 activations
// (TileShape). The block converts each chunk of its activations once, into
// hi + lo of the weights' type in shared memory, as gemv_float_mma.cuh's
// header states (F16's chunks scaled by powers of two where their range
// needs it), so y keeps the same accuracy as the GEMV's; the warps read
// weights and activations by ldmatrix.
//
// Where the tiles are too few to fill the device, or their last wave
// would leave it mostly idle (float_tile_split.h), a cluster of 2 to 8
// consecutive blocks owns each tile, each block a run of k's chunks; the
// blocks add their sums through each other's shared memory in a fixed
// order, so y is written once and is the same from run to run.
//
// Where a choice here "measured faster", docs/GPU_TUNING.md has the runs.
#include "tensor_core_gemm.h"

#if !defined(VT_HIP)
#include "cluster_split.cuh"
#include "float_tile_split.h"
#include "gemv_float_mma.cuh"
#include "gemv_params.cuh"
#include "resident_blocks.cuh"
#include "span_stage.cuh"
#include "type_dispatch.cuh"

namespace vt::gpu {
namespace {

constexpr int kFloatTileRows = 128;
constexpr int kFloatTileWarps = 8;
constexpr int kFloatTileThreads = kFloatTileWarps * kWarpSize;
// Chunks of W in flight: the one multiplied and kFloatTileStages - 1
// copied ahead.
constexpr int kFloatTileStages = 6;
// Shared rows of a chunk's 32 16-bit values (W's, and the activations' hi
// and lo), padded to 40 so that the eight rows an ldmatrix reads fall in
// distinct banks.
constexpr int kRowBytes = 40 * 2;

// A tile of kFloatTileRows rows x kBatchTile activations split between the
// warps in pieces of kWarpRows rows (the kernels take 64 x 32: tiles of 128
// activations on warps of 64 rows measured slower), and the block's shared
// memory: kFloatTileStages chunks of W, then two chunks' activations (hi,
// then lo, [activation][k]), then their scales back (F16).
template <int kBatchTile, int kWarpRows>
struct TileShape {
  static constexpr int kBatch = kBatchTile;
  static constexpr int kRowsOfWarp = kWarpRows;
  static constexpr int kWarpsAlongRows = kFloatTileRows / kWarpRows;
  static constexpr int kWarpBatch = kBatchTile / (kFloatTileWarps / kWarpsAlongRows);  // activations a warp
  static constexpr int kRowTiles = kWarpRows / 16;    // mma tiles of rows a warp
  static constexpr int kColumnTiles = kWarpBatch / 8;  // ... and of activations
  static_assert(kColumnTiles % 2 == 0, "activation tiles in pairs (one ldmatrix)");

  static constexpr int kWeights = kFloatTileRows * kRowBytes;  // a stage
  static constexpr int kHalves = kBatchTile * kRowBytes;       // hi or lo of a chunk
  static constexpr int kActivations = kFloatTileStages * kWeights;
  static constexpr int kBack = kActivations + 2 * 2 * kHalves;
  static constexpr int kEnd = kBack + 2 * kBatchTile * 4;
  static constexpr int kSums = kBatchTile * (kFloatTileRows + 4) * 4;  // after the last chunk
  static constexpr int kBytes = kEnd > kSums ? kEnd : kSums;

  // Threads that convert one activation's chunk, and its values each.
  static constexpr int kConverters = kFloatTileThreads / kBatchTile;
  static constexpr int kValues = 32 / kConverters;
  static_assert(kValues % 8 == 0, "whole 16-byte stores of each half");
};

struct FloatTileParams {
  const uint8_t* weights;
  int64_t row_bytes;
  int rows;
  int chunks;
  const float* x;
  int batch;
  float* y;
  int batch_tiles;  // tiles of activations a tile of rows has
};

// Four 8 x 8 matrices of 16-bit values in shared memory, lane l giving
// the address of a row of matrix l / 8.
__device__ __forceinline__ void LoadMatrices(const uint8_t* row, uint32_t (&m)[4]) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(m[0]), "=r"(m[1]), "=r"(m[2]), "=r"(m[3])
               : "r"(static_cast<unsigned>(__cvta_generic_to_shared(row))));
}

// Copies chunk `chunk` of the block's rows into `stage` (rows past p.rows
// repeat the last row; their sums are never written).
__device__ __forceinline__ void CopyWeights(const FloatTileParams& p, int row0, int chunk, uint8_t* stage) {
  constexpr int kPieces = kFloatTileRows * 4;  // four 16-byte pieces a row's chunk
  for (int i = static_cast<int>(threadIdx.x); i < kPieces; i += kFloatTileThreads) {
    const int row = i / 4, piece = i % 4;
    const int source = min(row0 + row, p.rows - 1);
    CopyPieceAsync(reinterpret_cast<uint4*>(stage + row * kRowBytes + 16 * piece),
                   p.weights + static_cast<int64_t>(source) * p.row_bytes + 64 * static_cast<int64_t>(chunk) +
                       16 * piece);
  }
}

// This thread's values of chunk `chunk` of the tile's activations: values
// kValues q .. of activation b0 + a (thread a kConverters + q; past the
// batch, the last activation's, whose sums are never written).
template <class S>
struct ActivationPiece {
  float v[S::kValues];

  __device__ __forceinline__ void Load(const FloatTileParams& p, int b0, int chunk) {
    const int a = static_cast<int>(threadIdx.x) / S::kConverters, q = static_cast<int>(threadIdx.x) % S::kConverters;
    const float4* source = reinterpret_cast<const float4*>(
        p.x + (static_cast<int64_t>(min(b0 + a, p.batch - 1)) * p.chunks + chunk) * 32 + S::kValues * q);
#pragma unroll
    for (int i = 0; i < S::kValues / 4; ++i) {
      const float4 f = source[i];
      v[4 * i] = f.x, v[4 * i + 1] = f.y, v[4 * i + 2] = f.z, v[4 * i + 3] = f.w;
    }
  }

  // Stores the values as hi + lo of T into `halves` (hi, then lo) and, for
  // F16, each activation's scale back into `back`: 1 where its chunk's
  // largest |value| lies in [2^-1, 2^14), else the inverse of the power of
  // two that puts it in [2^14, 2^15), the values scaled by that power
  // (gemv_float_mma.cuh's header). Returns whether this thread's
  // activation kept its scale.
  template <GgmlType T>
  __device__ __forceinline__ bool Store(uint8_t* halves, float* back) {
    const int a = static_cast<int>(threadIdx.x) / S::kConverters, q = static_cast<int>(threadIdx.x) % S::kConverters;
    bool plain = true;
    if constexpr (T == GgmlType::kF16) {
      float largest = 0.0f;
#pragma unroll
      for (int i = 0; i < S::kValues; ++i) largest = fmaxf(largest, fabsf(v[i]));
#pragma unroll
      for (int offset = 1; offset < S::kConverters; offset *= 2) largest = fmaxf(largest, ShuffleXor(largest, offset));
      plain = largest >= 0x1p-1f && largest < 0x1p14f;
      const int exponent = plain ? 0 : ChunkScaleExponent(largest);
      const float scale = __uint_as_float(static_cast<uint32_t>(exponent + 127) << 23);
#pragma unroll
      for (int i = 0; i < S::kValues; ++i) v[i] *= scale;
      if (q == 0) back[a] = __uint_as_float(static_cast<uint32_t>(127 - exponent) << 23);
    }
    uint32_t hi[S::kValues / 2], lo[S::kValues / 2];
#pragma unroll
    for (int i = 0; i < S::kValues / 2; ++i) {
      float low_back, high_back, unused0, unused1;
      hi[i] = Pack16<T>(v[2 * i], v[2 * i + 1], low_back, high_back);
      lo[i] = Pack16<T>(v[2 * i] - low_back, v[2 * i + 1] - high_back, unused0, unused1);
    }
    uint8_t* place = halves + a * kRowBytes + 2 * S::kValues * q;
#pragma unroll
    for (int i = 0; i < S::kValues / 8; ++i) {
      reinterpret_cast<uint4*>(place)[i] = make_uint4(hi[4 * i], hi[4 * i + 1], hi[4 * i + 2], hi[4 * i + 3]);
      reinterpret_cast<uint4*>(place + S::kHalves)[i] =
          make_uint4(lo[4 * i], lo[4 * i + 1], lo[4 * i + 2], lo[4 * i + 3]);
    }
    return plain;
  }
};

// The warp's operands for values 16 h .. of a chunk: a[m], W's rows
// kWarpRows wm + 16 m ..; b[part][n2], activation tiles 2 n2 and 2 n2 + 1
// of the warp's (b0, b1 of each) from hi (part 0) or lo (part 1).
template <class S>
struct ChunkHalfOperands {
  uint32_t a[S::kRowTiles][4];
  uint32_t b[2][S::kColumnTiles / 2][4];

  __device__ __forceinline__ void Load(const uint8_t* weights, const uint8_t* halves, int h, int wm, int wn) {
    const int lane = static_cast<int>(threadIdx.x % kWarpSize);
#pragma unroll
    for (int m = 0; m < S::kRowTiles; ++m) {
      LoadMatrices(weights + (S::kRowsOfWarp * wm + 16 * m + lane % 16) * kRowBytes + 2 * (16 * h + 8 * (lane / 16)),
                   a[m]);
    }
#pragma unroll
    for (int part = 0; part < 2; ++part) {
#pragma unroll
      for (int n2 = 0; n2 < S::kColumnTiles / 2; ++n2) {
        const int activation = S::kWarpBatch * wn + 16 * n2 + 8 * (lane / 16) + lane % 8;
        LoadMatrices(halves + part * S::kHalves + activation * kRowBytes + 2 * (16 * h + 8 * (lane / 8 % 2)),
                     b[part][n2]);
      }
    }
  }
  // d += W's rows of tile m times activation tile n, hi and lo.
  template <GgmlType T>
  __device__ __forceinline__ void Multiply(int m, int n, float (&d)[4]) const {
#pragma unroll
    for (int part = 0; part < 2; ++part) {
      const uint32_t(&bp)[4] = b[part][n / 2];
      MmaFloat16<T>(d, a[m][0], a[m][1], a[m][2], a[m][3], bp[2 * (n % 2)], bp[2 * (n % 2) + 1]);
    }
  }
};

// The warp's products over one chunk (weights: its stage; halves: its hi
// then lo; back: its scales back, read unless `plain`), added into acc:
// rows kWarpRows wm + 16 m + (g, g + 8), activations kWarpBatch wn + 8 n +
// (2t, 2t + 1), the mma's d places.
template <GgmlType T, class S>
__device__ __forceinline__ void ChunkOfTile(const uint8_t* weights, const uint8_t* halves, const float* back,
                                            bool plain, int wm, int wn,
                                            float (&acc)[S::kRowTiles][S::kColumnTiles][4]) {
  if (plain) {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      ChunkHalfOperands<S> operands;
      operands.Load(weights, halves, h, wm, wn);
#pragma unroll
      for (int m = 0; m < S::kRowTiles; ++m) {
#pragma unroll
        for (int n = 0; n < S::kColumnTiles; ++n) operands.template Multiply<T>(m, n, acc[m][n]);
      }
    }
    return;
  }
  // F16 with some activation's chunk scaled: each tile of activations'
  // products over the chunk, scaled back (its operands read again for each).
  const int t = static_cast<int>(threadIdx.x % 4);
#pragma unroll
  for (int n = 0; n < S::kColumnTiles; ++n) {
    float d[S::kRowTiles][4] = {};
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      ChunkHalfOperands<S> operands;
      operands.Load(weights, halves, h, wm, wn);
#pragma unroll
      for (int m = 0; m < S::kRowTiles; ++m) operands.template Multiply<T>(m, n, d[m]);
    }
    const float2 scale = *reinterpret_cast<const float2*>(back + S::kWarpBatch * wn + 8 * n + 2 * t);
#pragma unroll
    for (int m = 0; m < S::kRowTiles; ++m) {
#pragma unroll
      for (int i = 0; i < 4; ++i) acc[m][n][i] = fmaf(d[m][i], i % 2 == 0 ? scale.x : scale.y, acc[m][n][i]);
    }
  }
}

// y for one tile of kFloatTileRows rows x S::kBatch activations (rows and
// activations past the ends are not written), by one block, or with
// kSplitK by a cluster of consecutive blocks along x.
//
// At step i a block multiplies chunk i: W's from stage i % kFloatTileStages
// (copied kFloatTileStages - 1 steps before), the activations' from
// halves i % 2 (converted the step before, from values loaded the step
// before that). One barrier a step: past it, every thread has finished
// step i - 1, so the step's copy may take chunk i - 1's stage and its
// conversion chunk i - 1's halves.
template <GgmlType T, class S, bool kSplitK>
__global__ void __launch_bounds__(kFloatTileThreads, 2) FloatTileGemmKernel(FloatTileParams p) {
  extern __shared__ __align__(16) uint8_t shared[];
  const int warp = static_cast<int>(threadIdx.x / kWarpSize);
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int wm = warp % S::kWarpsAlongRows, wn = warp / S::kWarpsAlongRows;
  const ClusterPlace cluster = ThisClusterPlace<kSplitK>();
  const int row0 = cluster.index / p.batch_tiles * kFloatTileRows;
  const int b0 = cluster.index % p.batch_tiles * S::kBatch;
  const int begin = RunStart(p.chunks, cluster.rank, cluster.blocks);
  const int count = RunStart(p.chunks, cluster.rank + 1, cluster.blocks) - begin;
  auto stage = [&](int i) { return shared + (i % kFloatTileStages) * S::kWeights; };
  auto halves = [&](int i) { return shared + S::kActivations + (i % 2) * 2 * S::kHalves; };
  auto back = [&](int i) { return reinterpret_cast<float*>(shared + S::kBack) + (i % 2) * S::kBatch; };

  float acc[S::kRowTiles][S::kColumnTiles][4] = {};
  WaitForPreviousKernel();  // W (an expand's output, maybe) and x are written; y is free
#pragma unroll
  for (int i = 0; i < kFloatTileStages - 1; ++i) {
    if (i < count) CopyWeights(p, row0, begin + i, stage(i));
    CommitSpanCopies();
  }
  ActivationPiece<S> piece;
  piece.Load(p, b0, begin);
  bool plain = piece.template Store<T>(halves(0), back(0));
  if (count > 1) piece.Load(p, b0, begin + 1);
  for (int i = 0; i < count; ++i) {
    WaitForSpanCopies<kFloatTileStages - 2>();  // chunk i of W is in
    plain = __syncthreads_and(plain);       // ... for every thread, as are chunk i's halves
    const int ahead = i + kFloatTileStages - 1;
    if (ahead < count) CopyWeights(p, row0, begin + ahead, stage(ahead));
    CommitSpanCopies();
    const bool chunk_plain = plain;
    if (i + 1 < count) plain = piece.template Store<T>(halves(i + 1), back(i + 1));
    if (i + 2 < count) piece.Load(p, b0, begin + i + 2);
    ChunkOfTile<T, S>(stage(i), halves(i), back(i), chunk_plain, wm, wn, acc);
  }
  WaitForSpanCopies<0>();
  __syncthreads();  // the shared memory becomes the sums: [activation][row]
  constexpr int kSumStride = kFloatTileRows + 4;
  float* sums = reinterpret_cast<float*>(shared);
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int m = 0; m < S::kRowTiles; ++m) {
#pragma unroll
    for (int n = 0; n < S::kColumnTiles; ++n) {
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int row = S::kRowsOfWarp * wm + 16 * m + g + 8 * (j / 2);
        const int b = S::kWarpBatch * wn + 8 * n + 2 * t + j % 2;
        sums[b * kSumStride + row] = acc[m][n][j];
      }
    }
  }
  __syncthreads();
  if constexpr (kSplitK) SyncCluster();
  // Each block of the cluster adds and writes its share, rows fastest.
  for (int i = static_cast<int>(threadIdx.x) + cluster.rank * kFloatTileThreads; i < S::kBatch * kFloatTileRows;
       i += cluster.blocks * kFloatTileThreads) {
    const int b = i / kFloatTileRows, row = i % kFloatTileRows;
    float sum = 0.0f;
    if constexpr (kSplitK) {
      for (int r = 0; r < cluster.blocks; ++r) sum += InClusterBlock(sums, r)[b * kSumStride + row];
    } else {
      sum = sums[b * kSumStride + row];
    }
    if (row0 + row < p.rows && b0 + b < p.batch) p.y[static_cast<int64_t>(b0 + b) * p.rows + row0 + row] = sum;
  }
  // No block leaves (taking its shared memory) while another reads its sums.
  if constexpr (kSplitK) SyncCluster();
}

// The blocks of the cluster that owns each of `tiles` tiles of `chunks`
// chunks (1: none), by CheapestTileSplit over what the device holds at
// once (UnitsAtOnce): blocks of kWhole, and clusters of kSplit of the
// sizes whose blocks keep kFloatTileMinBlockChunks chunks (both kernels
// taking kBytes of shared memory, which asking allows them).
template <auto kWhole, auto kSplit, int kBytes>
cudaError_t ChooseTileSplit(int64_t tiles, int chunks, int& split) {
  split = 1;
  int64_t at_once[kMaxClusterSplit] = {};
  int count = 1;
  if (cudaError_t error =
          UnitsAtOnce<kWhole, kSplit, kFloatTileThreads, kBytes>(chunks / kFloatTileMinBlockChunks, at_once, count);
      error != cudaSuccess) {
    return error;
  }
  split = CheapestTileSplit(tiles, chunks, std::span<const int64_t>(at_once, static_cast<size_t>(count)));
  return cudaSuccess;
}

template <GgmlType T, class S>
cudaError_t LaunchFloatTileGemm(const GemmArgs& a, cudaStream_t stream) {
  constexpr auto kWhole = FloatTileGemmKernel<T, S, false>;
  constexpr auto kSplit = FloatTileGemmKernel<T, S, true>;
  FloatTileParams p{};
  p.weights = static_cast<const uint8_t*>(a.weights);
  p.row_bytes = a.k * 2;
  p.rows = static_cast<int>(a.rows);
  p.chunks = static_cast<int>(a.k / 32);
  p.x = a.x;
  p.batch = a.batch;
  p.y = a.y;
  p.batch_tiles = (a.batch + S::kBatch - 1) / S::kBatch;
  const int64_t tiles = (a.rows + kFloatTileRows - 1) / kFloatTileRows * p.batch_tiles;
  int split = 1;
  if (cudaError_t error = ChooseTileSplit<kWhole, kSplit, S::kBytes>(tiles, p.chunks, split); error != cudaSuccess) {
    return error;
  }
  if (tiles * split > INT32_MAX) return cudaErrorInvalidConfiguration;  // more blocks than a grid's x holds
  if (split == 1) {
    return LaunchConfiguredAfterPrevious(kWhole, dim3(static_cast<unsigned>(tiles)), dim3(kFloatTileThreads), 1,
                                         S::kBytes, stream, p);
  }
  return LaunchConfiguredAfterPrevious(kSplit, dim3(static_cast<unsigned>(tiles * split)), dim3(kFloatTileThreads),
                                       static_cast<unsigned>(split), S::kBytes, stream, p);
}

template <GgmlType T>
LaunchStatus LaunchFloatTileGemmOf(const GemmArgs& a, cudaStream_t stream) {
  const cudaError_t launched = LaunchFloatTileGemm<T, TileShape<kFloatTileBatch, 32>>(a, stream);
  if (launched != cudaSuccess) return {std::string("Gemm: launch failed: ") + cudaGetErrorString(launched)};
  return LastLaunch("Gemm");
}

}  // namespace

LaunchStatus FloatTileGemm(const GemmArgs& a, StreamHandle stream) {
  const auto s = static_cast<cudaStream_t>(stream);
  return a.type == GgmlType::kF16 ? LaunchFloatTileGemmOf<GgmlType::kF16>(a, s)
                                  : LaunchFloatTileGemmOf<GgmlType::kBF16>(a, s);
}

}  // namespace vt::gpu

#endif
