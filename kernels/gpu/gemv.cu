// Keep-quant GEMV and expert GEMV: each warp owns a few rows (R); its
// lanes walk the rows' 32-value chunks, decode each weight chunk once and
// use it for every activation of the batch. Expert GEMV is the same kernel
// with one grid row per selected expert.
#include "activation_q8.cuh"
#include "block_decode_int.cuh"
#include "launch_checks.h"
#include "type_dispatch.cuh"

namespace vt::gpu {
namespace {

// Rows per warp: 2 for batch 1-2; 4 for larger batches, so each activation
// load serves more rows.
constexpr int kFewRows = 2;
constexpr int kManyRows = 4;
constexpr int kWarpsPerBlock = 4;
constexpr int kThreads = kWarpsPerBlock * kWarpSize;

struct GemvParams {
  const uint8_t* weights;
  int64_t row_bytes;
  int64_t expert_bytes;
  const int32_t* ids;  // null for a plain GEMV
  int64_t experts;
  int rows;
  int chunks;  // 32-value chunks per row
  Q8Activations xq;
  const float* xf;
  int64_t x_slot_stride;  // values between the activations of two slots
  int batch;
  float* y;
  int64_t y_slot_stride;
};

// The weights of this grid row (slot), or null for an expert id out of range.
__device__ const uint8_t* SlotWeights(const GemvParams& p) {
  if (p.ids == nullptr) return p.weights;
  const int32_t id = p.ids[blockIdx.y];
  if (id < 0 || id >= p.experts) return nullptr;
  return p.weights + static_cast<int64_t>(id) * p.expert_bytes;
}

// Sums the lanes' partial results and writes y for this warp's rows.
template <int R>
__device__ void WriteRows(const GemvParams& p, int row0, float (&acc)[R][kMaxGemvBatch]) {
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  float* y = p.y + blockIdx.y * p.y_slot_stride;
#pragma unroll
  for (int r = 0; r < R; ++r) {
#pragma unroll
    for (int b = 0; b < kMaxGemvBatch; ++b) {
      if (b < p.batch) {
        const float sum = WarpSum(acc[r][b]);
        if (lane == 0 && row0 + r < p.rows) y[static_cast<int64_t>(b) * p.rows + row0 + r] = sum;
      }
    }
  }
}

// This warp's first row.
template <int R>
__device__ int FirstRow() {
  return (static_cast<int>(blockIdx.x) * kWarpsPerBlock + static_cast<int>(threadIdx.x / kWarpSize)) * R;
}

template <GgmlType T, int R>
__global__ void __launch_bounds__(kThreads) GemvIntegerKernel(GemvParams p) {
  using B = Block<T>;
  constexpr int kChunksPerBlock = B::kValues / 32;
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int row0 = FirstRow<R>();
  if (row0 >= p.rows) return;
  float acc[R][kMaxGemvBatch] = {};
  const uint8_t* w = SlotWeights(p);
  if (w == nullptr) {
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r][0] = __int_as_float(0x7FC00000);
    WriteRows<R>(p, row0, acc);
    return;
  }
  const uint8_t* row_ptr[R];
#pragma unroll
  for (int r = 0; r < R; ++r) row_ptr[r] = w + static_cast<int64_t>(min(row0 + r, p.rows - 1)) * p.row_bytes;
  const int8_t* codes = p.xq.codes + blockIdx.y * p.x_slot_stride;
  const float4* scales = p.xq.scales + blockIdx.y * (p.x_slot_stride / 32);
  const int64_t x_batch_stride = static_cast<int64_t>(p.chunks) * 32;

  for (int ch = lane; ch < p.chunks; ch += kWarpSize) {
    const int block = ch / kChunksPerBlock, sub = ch % kChunksPerBlock;
    IntChunk wc[R];
#pragma unroll
    for (int r = 0; r < R; ++r) IntBlock<T>::Decode(row_ptr[r] + block * B::kBytes, sub, wc[r]);
#pragma unroll
    for (int b = 0; b < kMaxGemvBatch; ++b) {
      if (b >= p.batch) continue;
      const int4* xp = reinterpret_cast<const int4*>(codes + b * x_batch_stride + 32 * ch);
      const int4 x0 = xp[0], x1 = xp[1];
      const float4 s = scales[b * p.chunks + ch];
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const int* v = wc[r].v;
        const int low = Dot4(v[3], x0.w, Dot4(v[2], x0.z, Dot4(v[1], x0.y, Dot4(v[0], x0.x, 0))));
        const int high = Dot4(v[7], x1.w, Dot4(v[6], x1.z, Dot4(v[5], x1.y, Dot4(v[4], x1.x, 0))));
        acc[r][b] += s.x * (wc[r].d[0] * static_cast<float>(low) + wc[r].d[1] * static_cast<float>(high)) -
                     (wc[r].m[0] * s.y + wc[r].m[1] * s.z);
      }
    }
  }
  WriteRows<R>(p, row0, acc);
}

template <GgmlType T, int R>
__global__ void __launch_bounds__(kThreads) GemvFloatKernel(GemvParams p) {
  using B = Block<T>;
  constexpr int kChunksPerBlock = B::kValues / 32;
  const int lane = static_cast<int>(threadIdx.x % kWarpSize);
  const int row0 = FirstRow<R>();
  if (row0 >= p.rows) return;
  float acc[R][kMaxGemvBatch] = {};
  const uint8_t* w = SlotWeights(p);
  if (w == nullptr) {
#pragma unroll
    for (int r = 0; r < R; ++r) acc[r][0] = __int_as_float(0x7FC00000);
    WriteRows<R>(p, row0, acc);
    return;
  }
  const float* x = p.xf + blockIdx.y * p.x_slot_stride;
  const int64_t x_batch_stride = static_cast<int64_t>(p.chunks) * 32;
  for (int ch = lane; ch < p.chunks; ch += kWarpSize) {
    const int block = ch / kChunksPerBlock, sub = ch % kChunksPerBlock;
#pragma unroll 1
    for (int r = 0; r < R; ++r) {
      float v[32];
      B::Decode(w + static_cast<int64_t>(min(row0 + r, p.rows - 1)) * p.row_bytes + block * B::kBytes, sub, v);
#pragma unroll
      for (int b = 0; b < kMaxGemvBatch; ++b) {
        if (b >= p.batch) continue;
        const float4* xp = reinterpret_cast<const float4*>(x + b * x_batch_stride + 32 * ch);
        float sum = 0.0f;
#pragma unroll
        for (int q = 0; q < 8; ++q) {
          const float4 xv = xp[q];
          sum += v[4 * q] * xv.x + v[4 * q + 1] * xv.y + v[4 * q + 2] * xv.z + v[4 * q + 3] * xv.w;
        }
        acc[r][b] += sum;
      }
    }
  }
  WriteRows<R>(p, row0, acc);
}

// Quantizes the activations (integer path) and launches the GEMV of type T.
template <GgmlType T>
LaunchStatus LaunchGemv(GemvParams p, int activations, int slots, void* workspace, cudaStream_t stream,
                        const char* entry) {
  const int64_t k = static_cast<int64_t>(p.chunks) * 32;
  if constexpr (kUsesIntegerGemv<T>) {
    p.xq = CarveWorkspace(workspace, k, activations);
    const int64_t runs = static_cast<int64_t>(activations) * p.chunks;
    const int64_t quant_blocks = (runs * kWarpSize + 255) / 256;
    QuantizeActivationsQ8<<<static_cast<unsigned>(quant_blocks < 65535 ? quant_blocks : 65535), 256, 0, stream>>>(
        p.xf, runs, p.xq);
  }
  auto launch = [&](auto rows_per_warp) {
    constexpr int R = decltype(rows_per_warp)::value;
    const int rows_per_block = R * kWarpsPerBlock;
    const dim3 grid(static_cast<unsigned>((p.rows + rows_per_block - 1) / rows_per_block), static_cast<unsigned>(slots));
    if constexpr (kUsesIntegerGemv<T>) {
      GemvIntegerKernel<T, R><<<grid, kThreads, 0, stream>>>(p);
    } else {
      GemvFloatKernel<T, R><<<grid, kThreads, 0, stream>>>(p);
    }
  };
  if (p.batch <= 2) {
    launch(std::integral_constant<int, kFewRows>{});
  } else {
    launch(std::integral_constant<int, kManyRows>{});
  }
  return LastLaunch(entry);
}

}  // namespace

LaunchStatus Gemv(const GemvArgs& a, void* workspace, size_t workspace_bytes, StreamHandle stream) {
  if (std::string error = CheckGemv(a, workspace, workspace_bytes); !error.empty()) return {error};
  GemvParams p{};
  p.weights = static_cast<const uint8_t*>(a.weights);
  p.row_bytes = a.k / KernelBlockValues(a.type) * KernelBlockBytes(a.type);
  p.rows = static_cast<int>(a.rows);
  p.chunks = static_cast<int>(a.k / 32);
  p.xf = a.x;
  p.batch = a.batch;
  p.y = a.y;
  return DispatchDecoded(a.type, [&](auto tag) {
    return LaunchGemv<decltype(tag)::value>(p, a.batch, 1, workspace, static_cast<cudaStream_t>(stream), "Gemv");
  });
}

LaunchStatus ExpertGemv(const ExpertGemvArgs& a, void* workspace, size_t workspace_bytes, StreamHandle stream) {
  if (std::string error = CheckExpertGemv(a, workspace, workspace_bytes); !error.empty()) return {error};
  GemvParams p{};
  p.weights = static_cast<const uint8_t*>(a.tower);
  p.row_bytes = a.k / KernelBlockValues(a.type) * KernelBlockBytes(a.type);
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
  const int activations = a.shared_x ? 1 : a.count;
  return DispatchDecoded(a.type, [&](auto tag) {
    return LaunchGemv<decltype(tag)::value>(p, activations, a.count, workspace, static_cast<cudaStream_t>(stream),
                                            "ExpertGemv");
  });
}

}  // namespace vt::gpu
