// What the GPU kernel tests share: fresh seeds, poisoned outputs, the
// GEMV's arguments, the check of one output against the CPU reference
// (kernel_reference.h's bound) and of a whole GEMV, and the buffers of
// launches queued back to back.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "device_array.h"
#include "kernel_reference.h"
#include "vt/kernels/gpu/kernels.h"

namespace vt::testing {

inline constexpr uint8_t kPoisonByte = 0xFF;  // bf16 0xFFFF and f32 0xFFFFFFFF: NaNs the CPU never makes

inline uint64_t FreshSeed() { return (static_cast<uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}(); }

inline gpu::MatmulArgs Matmul(GgmlType type, const void* weights, int64_t rows, int64_t k, const float* x,
                              int64_t batch, float* y) {
  gpu::MatmulArgs args;
  args.type = type;
  args.weights = weights;
  args.rows = rows;
  args.k = k;
  args.x = x;
  args.batch = static_cast<int>(batch);
  args.y = y;
  return args;
}

struct GemvShape {
  int64_t rows;
  int64_t k_blocks;
  int batch;
};

// Counts `got` in `failures` where it is off the CPU reference: w_row
// (dequantized) dotted with x over k, within ExpectedDot's bound
// (`integer`: the int8 path's). Reports the first three, each after
// where().
template <typename Where>
void CheckDot(GgmlType type, float got, const float* w_row, const float* x, int64_t k, bool integer, int& failures,
              Where where) {
  const Expected e = ExpectedDot(w_row, x, k, integer, ActivationRun(type));
  if (!(std::fabs(got - e.value) <= e.tolerance) && ++failures <= 3) {
    UNSCOPED_INFO(where() << ": got " << got << ", want " << e.value << " +- " << e.tolerance);
  }
}

// Outputs of a GEMV (`got`: activation after activation of `rows`) off the
// CPU reference (CheckDot): row r of `w_values` (dequantized, rows x k)
// dotted with activation b of x ([batch][k]); reported after `context`.
inline int GemvMismatches(GgmlType type, const std::vector<float>& got, const std::vector<float>& w_values,
                          const float* x, int64_t rows, int64_t k, int batch, bool integer,
                          const std::string& context = "") {
  int failures = 0;
  for (int b = 0; b < batch; ++b) {
    for (int64_t r = 0; r < rows; ++r) {
      CheckDot(type, got[static_cast<size_t>(b * rows + r)], w_values.data() + r * k, x + b * k, k, integer, failures,
               [&] { return context + "activation " + std::to_string(b) + " row " + std::to_string(r); });
    }
  }
  return failures;
}

// Runs the GEMV on random weights and activations (`given_x` instead, if
// set: k * batch floats) and checks every output against the float64 dot of
// the CPU-dequantized row with x.
inline void CheckGemv(GgmlType type, GemvShape shape, std::mt19937_64& rng,
                      const std::vector<float>* given_x = nullptr) {
  const int64_t k = gpu::KernelBlockValues(type) * shape.k_blocks;
  CAPTURE(NameOf(type), shape.rows, k, shape.batch);
  const std::vector<uint8_t> w = RandomBlocks(type, shape.rows * k, rng);
  const std::vector<float> x =
      given_x != nullptr ? *given_x : RandomFloats(static_cast<size_t>(k * shape.batch), rng);
  REQUIRE(static_cast<int64_t>(x.size()) == k * shape.batch);
  const std::vector<float> w_values = Dequantized(type, w, shape.rows * k);

  DeviceArray<uint8_t> device_w(w);
  DeviceArray<float> device_x(x);
  DeviceArray<float> y(static_cast<size_t>(shape.rows * shape.batch));
  y.Poison(kPoisonByte);
  const size_t workspace_bytes = gpu::GemvWorkspaceBytes(k, shape.batch);
  DeviceArray<uint8_t> workspace(workspace_bytes);
  const gpu::GemvArgs args = Matmul(type, device_w.get(), shape.rows, k, device_x.get(), shape.batch, y.get());
  const gpu::LaunchStatus status = gpu::Gemv(args, workspace.get(), workspace_bytes, nullptr);
  INFO(status.error);
  REQUIRE(status.ok());
  CHECK(GemvMismatches(type, y.Download(), w_values, x.data(), shape.rows, k, shape.batch,
                       gpu::UsesIntegerGemv(type)) == 0);
}

// Inputs and outputs of launches 0 .. count - 1 queued back to back:
// launch i's random activations (x_values(i) floats, on the host and the
// device) and its poisoned output (y_values(i) floats).
struct LaunchBuffers {
  std::vector<std::vector<float>> xs;
  std::vector<std::unique_ptr<DeviceArray<float>>> device_xs, ys;
};
template <class XValues, class YValues>
LaunchBuffers RandomLaunches(int count, XValues x_values, YValues y_values, std::mt19937_64& rng) {
  LaunchBuffers launches;
  for (int i = 0; i < count; ++i) {
    launches.xs.push_back(RandomFloats(static_cast<size_t>(x_values(i)), rng));
    launches.device_xs.push_back(std::make_unique<DeviceArray<float>>(launches.xs.back()));
    launches.ys.push_back(std::make_unique<DeviceArray<float>>(static_cast<size_t>(y_values(i))));
    launches.ys.back()->Poison(kPoisonByte);
  }
  return launches;
}

}  // namespace vt::testing
