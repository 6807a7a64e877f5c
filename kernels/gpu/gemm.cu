// Keep-quant GEMM for prefill. The types with a tensor-core GEMV run on its
// kernel, up to 64 activations per pass over the weights, on a kernel of 2,
// 4 or 8 tiles of 8 as the pass needs (CUDA; Int8Gemm in gemv.cu). F16
// and BF16 (CUDA) run on tiles of 128 rows by 64 activations
// (FloatTileGemm in float_gemm.cu), the last partial where more than
// kFloatMmaGemmMost activations are left past the whole tiles
// (TiledActivations); at most that many left run on the 16-bit float
// GEMV's kernel (FloatMmaGemm in gemv.cu); on both GEMV kernels a pass of
// 8 or fewer runs the GEMV. For the
// others (and on HIP) a block computes a 64-row x 64-activation tile of y.
// Per 64-value step of k, its threads decode two chunks of each of the 64
// weight rows (block_decode.cuh, exact floats) into shared memory next to
// the matching activations, and the four warps multiply the tiles on
// tensor cores (TF32 WMMA, float accumulate). Built as HIP, where WMMA is
// not available, the same tiles are multiplied with plain FMAs.
#include "block_decode.cuh"
#include "launch_checks.h"
#include "tensor_core_gemm.h"
#include "type_dispatch.cuh"

#if !defined(VT_HIP)
#include <mma.h>
#endif

namespace vt::gpu {
namespace {

constexpr int kTileRows = 64;     // weight rows per block
constexpr int kTileBatch = 64;    // activations per block
constexpr int kStep = 64;         // values of k per stage: two chunks
constexpr int kGemmWarps = 4;     // each owns 16 rows x 64 activations
constexpr int kGemmThreads = kGemmWarps * kWarpSize;
constexpr int kLd = kStep + 4;    // padded shared-memory rows (floats)

struct GemmParams {
  const uint8_t* weights;
  int64_t row_bytes;
  int rows;
  int chunks;  // 32-value chunks per row
  const float* x;
  int batch;
  float* y;

  explicit GemmParams(const GemmArgs& a)
      : weights(static_cast<const uint8_t*>(a.weights)),
        row_bytes(RowBytes(a.type, a.k)),
        rows(static_cast<int>(a.rows)),
        chunks(static_cast<int>(a.k / 32)),
        x(a.x),
        batch(a.batch),
        y(a.y) {}
};

// Stages values [64 s, 64 s + 64) of the block's weight rows (thread t
// decodes chunk 2 s + t % 2 of row t / 2) and of its activations (thread t
// loads 32 values of activation t / 2). Rows, activations and chunks past
// the end read as zero.
template <GgmlType T>
__device__ void StageStep(const GemmParams& p, int row0, int b0, int s, float (*ws)[kLd], float (*xs)[kLd]) {
  using B = Block<T>;
  constexpr int kChunksPerBlock = B::kValues / 32;
  const int t = static_cast<int>(threadIdx.x);
  const int half = t % 2;
  const int ch = 2 * s + half;
  float v[32];
  const int row = row0 + t / 2;
  if (row < p.rows && ch < p.chunks) {
    B::Decode(p.weights + static_cast<int64_t>(row) * p.row_bytes + (ch / kChunksPerBlock) * B::kBytes,
              ch % kChunksPerBlock, v);
  } else {
#pragma unroll
    for (int j = 0; j < 32; ++j) v[j] = 0.0f;
  }
#pragma unroll
  for (int j = 0; j < 32; ++j) ws[t / 2][32 * half + j] = v[j];
  const int b = b0 + t / 2;
  const bool present = b < p.batch && ch < p.chunks;
  const float4* xp = reinterpret_cast<const float4*>(p.x + static_cast<int64_t>(b) * p.chunks * 32 + 32 * ch);
#pragma unroll
  for (int q = 0; q < 8; ++q) {
    const float4 xv = present ? xp[q] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    xs[t / 2][32 * half + 4 * q] = xv.x;
    xs[t / 2][32 * half + 4 * q + 1] = xv.y;
    xs[t / 2][32 * half + 4 * q + 2] = xv.z;
    xs[t / 2][32 * half + 4 * q + 3] = xv.w;
  }
}

template <GgmlType T>
__global__ void __launch_bounds__(kGemmThreads) GemmKernel(GemmParams p) {
  // Weight and activation tiles; after the last step the same memory holds
  // the output tile. WMMA wants 32-byte aligned tile pointers; every row
  // offset used is a multiple of 32 bytes.
  __shared__ __align__(32) float smem[(kTileRows + kTileBatch) * kLd];
  float (*ws)[kLd] = reinterpret_cast<float (*)[kLd]>(smem);
  float (*xs)[kLd] = reinterpret_cast<float (*)[kLd]>(smem + kTileRows * kLd);
  float (*out)[kTileRows + 4] = reinterpret_cast<float (*)[kTileRows + 4]>(smem);  // [activation][row]
  const int warp = static_cast<int>(threadIdx.x / kWarpSize);
  const int row0 = static_cast<int>(blockIdx.x) * kTileRows;
  const int b0 = static_cast<int>(blockIdx.y) * kTileBatch;
  const int steps = (p.chunks + 1) / 2;

#if !defined(VT_HIP)
  namespace wmma = nvcuda::wmma;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[kTileBatch / 16];
#pragma unroll
  for (int n = 0; n < kTileBatch / 16; ++n) wmma::fill_fragment(acc[n], 0.0f);
#else
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  float acc[2][16] = {};
#endif
  for (int s = 0; s < steps; ++s) {
    __syncthreads();  // the previous step's tiles are consumed
    StageStep<T>(p, row0, b0, s, ws, xs);
    __syncthreads();
#if !defined(VT_HIP)
#pragma unroll
    for (int kk = 0; kk < kStep; kk += 8) {
      wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
      wmma::load_matrix_sync(a, &ws[16 * warp][kk], kLd);
#pragma unroll
      for (int i = 0; i < a.num_elements; ++i) a.x[i] = wmma::__float_to_tf32(a.x[i]);
#pragma unroll
      for (int n = 0; n < kTileBatch / 16; ++n) {
        // B(k, j) = x[j][k]: the activations tile read column-major.
        wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> b;
        wmma::load_matrix_sync(b, &xs[16 * n][kk], kLd);
#pragma unroll
        for (int i = 0; i < b.num_elements; ++i) b.x[i] = wmma::__float_to_tf32(b.x[i]);
        wmma::mma_sync(acc[n], a, b, acc[n]);
      }
    }
#else
    // Lane = activations lane and lane + 32; the warp's 16 rows.
    for (int kk = 0; kk < kStep; ++kk) {
      const float x0 = xs[lane][kk], x1 = xs[lane + 32][kk];
#pragma unroll
      for (int r = 0; r < 16; ++r) {
        acc[0][r] += ws[16 * warp + r][kk] * x0;
        acc[1][r] += ws[16 * warp + r][kk] * x1;
      }
    }
#endif
  }
  __syncthreads();  // the tiles become the output tile
#if !defined(VT_HIP)
  // C(i, j) = y for row 16 warp + i, activation 16 n + j: column-major into out.
#pragma unroll
  for (int n = 0; n < kTileBatch / 16; ++n) {
    wmma::store_matrix_sync(&out[16 * n][16 * warp], acc[n], kTileRows + 4, wmma::mem_col_major);
  }
#else
#pragma unroll
  for (int r = 0; r < 16; ++r) {
    out[lane][16 * warp + r] = acc[0][r];
    out[lane + 32][16 * warp + r] = acc[1][r];
  }
#endif
  __syncthreads();
  for (int i = static_cast<int>(threadIdx.x); i < kTileRows * kTileBatch; i += kGemmThreads) {
    const int b = i / kTileRows, r = i % kTileRows;
    if (row0 + r < p.rows && b0 + b < p.batch) p.y[static_cast<int64_t>(b0 + b) * p.rows + row0 + r] = out[b][r];
  }
}

}  // namespace

LaunchStatus Gemm(const GemmArgs& a, void* workspace, size_t workspace_bytes, StreamHandle stream) {
  if (std::string error = CheckGemm(a, workspace, workspace_bytes); !error.empty()) return {error};
#if !defined(VT_HIP)
  if (Int8GemmTypes(DeviceKind::kCuda).Contains(a.type)) return Int8Gemm(a, workspace, stream);
  if (a.type == GgmlType::kF16 || a.type == GgmlType::kBF16) {
    const int64_t tiled = TiledActivations(a.batch);
    if (tiled > 0) {
      if (LaunchStatus status = FloatTileGemm(ActivationsOf(a, 0, tiled), stream); !status.ok()) return status;
    }
    return tiled < a.batch ? FloatMmaGemm(ActivationsOf(a, tiled, a.batch - tiled), stream) : LaunchStatus{};
  }
#endif
  const GemmParams p(a);
  const dim3 grid(static_cast<unsigned>((a.rows + kTileRows - 1) / kTileRows),
                  static_cast<unsigned>((a.batch + kTileBatch - 1) / kTileBatch));
  return DispatchDecoded(a.type, [&](auto tag) {
    GemmKernel<decltype(tag)::value><<<grid, kGemmThreads, 0, static_cast<cudaStream_t>(stream)>>>(p);
    return LastLaunch("Gemm");
  });
}

}  // namespace vt::gpu
