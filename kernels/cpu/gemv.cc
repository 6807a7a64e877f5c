#include "vt/kernels/cpu/gemv.h"

#include <algorithm>
#include <thread>
#include <vector>

#include "vt/kernels/cpu/activation.h"
#include "vt/kernels/cpu/float_formats.h"
#include "vt/kernels/cpu/vec_dot.h"

namespace vt::cpu {
namespace {

// Rows per task: enough work per thread to amortize its start.
constexpr int64_t kMinRowsPerThread = 16;

bool Supported(const MatrixView& w) {
  const GgmlType format = ActivationFormatFor(w.type);
  return HasVecDot(w.type) && w.k > 0 && w.k % TraitsOf(w.type).block_elements == 0 &&
         w.k % TraitsOf(format).block_elements == 0 && w.rows >= 0;
}

uint64_t ActivationRowBytes(GgmlType format, int64_t k) {
  const GgmlTypeTraits& traits = TraitsOf(format);
  return static_cast<uint64_t>(k / traits.block_elements) * traits.block_bytes;
}

// x (batch rows of k floats) in the activation format of w's type.
std::vector<uint8_t> QuantizeBatch(const MatrixView& w, const float* x, int64_t batch) {
  const GgmlType format = ActivationFormatFor(w.type);
  const uint64_t row_bytes = ActivationRowBytes(format, w.k);
  std::vector<uint8_t> out(row_bytes * static_cast<uint64_t>(batch));
  for (int64_t b = 0; b < batch; ++b) {
    uint8_t* row = out.data() + row_bytes * static_cast<uint64_t>(b);
    if (TraitsOf(format).quantized) {
      QuantizeActivation(format, x + b * w.k, row, w.k);
    } else if (format == GgmlType::kF32) {
      std::copy(x + b * w.k, x + (b + 1) * w.k, reinterpret_cast<float*>(row));
    } else {
      // F16 / BF16 weights take activations in their own format.
      auto* halves = reinterpret_cast<uint16_t*>(row);
      for (int64_t i = 0; i < w.k; ++i) {
        halves[i] = format == GgmlType::kBF16 ? FloatToBf16Bits(x[b * w.k + i]) : FloatToHalfBits(x[b * w.k + i]);
      }
    }
  }
  return out;
}

template <typename RowFn>
void ForRows(int64_t rows, uint32_t threads, RowFn row_fn) {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  const int64_t tasks = std::max<int64_t>(1, std::min<int64_t>(threads, rows / kMinRowsPerThread));
  const auto run = [&](int64_t task) {
    const int64_t begin = rows * task / tasks;
    const int64_t end = rows * (task + 1) / tasks;
    for (int64_t r = begin; r < end; ++r) row_fn(r);
  };
  std::vector<std::thread> workers;
  workers.reserve(static_cast<size_t>(tasks - 1));
  for (int64_t task = 1; task < tasks; ++task) workers.emplace_back(run, task);
  run(0);
  for (std::thread& worker : workers) worker.join();
}

}  // namespace

bool Gemm(const MatrixView& w, const float* x, int64_t batch, float* y, uint32_t threads) {
  if (!Supported(w) || batch < 0) return false;
  const std::vector<uint8_t> xq = QuantizeBatch(w, x, batch);
  const uint64_t x_row_bytes = ActivationRowBytes(ActivationFormatFor(w.type), w.k);
  const uint64_t w_row_bytes =
      static_cast<uint64_t>(w.k / TraitsOf(w.type).block_elements) * TraitsOf(w.type).block_bytes;
  const auto* weights = static_cast<const uint8_t*>(w.data);
  ForRows(w.rows, threads, [&](int64_t r) {
    const uint8_t* row = weights + w_row_bytes * static_cast<uint64_t>(r);
    for (int64_t b = 0; b < batch; ++b) {
      y[b * w.rows + r] = VecDot(w.type, row, xq.data() + x_row_bytes * static_cast<uint64_t>(b), w.k);
    }
  });
  return true;
}

bool Gemv(const MatrixView& w, const float* x, float* y, uint32_t threads) {
  return Gemm(w, x, 1, y, threads);
}

}  // namespace vt::cpu
