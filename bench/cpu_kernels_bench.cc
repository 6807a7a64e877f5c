// vec_dot and dequantize throughput per GGUF type on this CPU: weight GB/s
// and TSC cycles per 32 values, over rows of 4M values (as ggml's
// test-quantize-perf measures vec_dot; like it, vec_dot reports both the
// average and the quickest call). The ISA column says whether the SIMD
// kernel or the scalar reference ran. On a CPU with AVX-512 VNNI, rows
// vec_dot_avx2/<type> time the AVX2 build of the same kernel, the baseline
// for the AVX-512 build VecDot picks.
#include <benchmark/benchmark.h>
#include <x86intrin.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <string_view>
#include <random>
#include <vector>

#include "vt/kernels/cpu/activation.h"
#include "vt/kernels/cpu/dequantize.h"
#include "vt/kernels/cpu/gemv.h"
#include "vec_dot_simd.h"
#include "vt/kernels/cpu/vec_dot.h"

namespace {

int64_t kValues = 4 << 20;  // --values N (vt option, before Google Benchmark's) changes it

// Rows and activations start on a 64-byte line, as ggml's test-quantize-perf
// allocates them (its default alignment offset is 0), so the two benches
// read the same lines per block.
template <class T>
struct LineAligned {
  using value_type = T;
  LineAligned() = default;
  template <class U>
  LineAligned(const LineAligned<U>&) {}
  T* allocate(size_t n) {
    return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{64}));
  }
  void deallocate(T* p, size_t) { ::operator delete(p, std::align_val_t{64}); }
  bool operator==(const LineAligned&) const { return true; }
};
using Bytes = std::vector<uint8_t, LineAligned<uint8_t>>;

// Random blocks whose f16 fields are all set to a small finite value, so no
// NaN or denormal slows a path; timing does not depend on the codes.
Bytes RandomRow(vt::GgmlType type) {
  const vt::GgmlTypeTraits& traits = vt::TraitsOf(type);
  Bytes row(static_cast<size_t>(kValues / traits.block_elements * traits.block_bytes));
  std::mt19937 random(static_cast<uint32_t>(type) + 1);
  for (uint8_t& b : row) b = static_cast<uint8_t>(random());
  // Clear the top exponent bits of every odd byte: every f16 field is then
  // finite and below 2. The 8-bit exponents of MXFP4 and NVFP4 are set near
  // 1.0, so no denormal arithmetic (slow on x86) skews a timing.
  for (size_t i = 1; i < row.size(); i += 2) row[i] &= 0x3F;
  for (size_t b = 0; b < row.size(); b += traits.block_bytes) {
    if (type == vt::GgmlType::kMXFP4) row[b] = 127;
    if (type == vt::GgmlType::kNVFP4) std::memset(&row[b], 0x38, 4);
  }
  return row;
}

// `kernel`: an x86 build to time directly, or null for VecDot's own choice.
void VecDot(benchmark::State& state, vt::GgmlType type, vt::cpu::SimdVecDot kernel) {
  const Bytes weights = RandomRow(type);
  const vt::GgmlType format = vt::cpu::ActivationFormatFor(type);
  std::vector<float> x(kValues);
  std::mt19937 random(7);
  std::normal_distribution<float> normal;
  for (float& v : x) v = normal(random);
  Bytes xq(static_cast<size_t>(kValues / vt::TraitsOf(format).block_elements * vt::TraitsOf(format).block_bytes) +
           64);
  if (vt::TraitsOf(format).quantized) {
    vt::cpu::QuantizeActivation(format, x.data(), xq.data(), kValues);
  } else {
    std::memcpy(xq.data(), weights.data(), std::min(xq.size(), weights.size()));
  }
  const int64_t blocks = kValues / vt::TraitsOf(type).block_elements;
  uint64_t cycles = 0;
  uint64_t fewest = UINT64_MAX;  // the quickest single call, as ggml's "min cycles"
  for (auto _ : state) {
    const uint64_t start = __rdtsc();
    benchmark::DoNotOptimize(kernel != nullptr ? kernel(weights.data(), xq.data(), blocks)
                                               : vt::cpu::VecDot(type, weights.data(), xq.data(), kValues));
    const uint64_t spent = __rdtsc() - start;
    cycles += spent;
    fewest = std::min(fewest, spent);
  }
  const double runs_of_32 = static_cast<double>(kValues) / 32.0;
  state.counters["cycles_per_32"] = static_cast<double>(cycles) / static_cast<double>(state.iterations()) / runs_of_32;
  state.counters["min_cycles_per_32"] = static_cast<double>(fewest) / runs_of_32;
  state.counters["weight_GB/s"] = benchmark::Counter(static_cast<double>(weights.size()) / 1e9,
                                                     benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(kernel != nullptr ? "avx2" : vt::cpu::VecDotIsa(type));
}

void Dequantize(benchmark::State& state, vt::GgmlType type) {
  const Bytes weights = RandomRow(type);
  std::vector<float> out(kValues);
  uint64_t cycles = 0;
  for (auto _ : state) {
    const uint64_t start = __rdtsc();
    vt::cpu::DequantizeRow(type, weights.data(), out.data(), kValues);
    benchmark::DoNotOptimize(out.data());
    cycles += __rdtsc() - start;
  }
  state.counters["cycles_per_32"] =
      static_cast<double>(cycles) / static_cast<double>(state.iterations()) / (static_cast<double>(kValues) / 32.0);
  state.counters["weight_GB/s"] = benchmark::Counter(static_cast<double>(weights.size()) / 1e9,
                                                     benchmark::Counter::kIsIterationInvariantRate);
}

// GEMV: y = W x over a 4096 x 4096 matrix (or rows x K = 4096 x kValues / 1024),
// weights GB/s, `threads` threads.
void Gemv(benchmark::State& state, vt::GgmlType type, uint32_t threads) {
  const int64_t k = 4096;
  const int64_t rows = 4096;
  const vt::GgmlTypeTraits& traits = vt::TraitsOf(type);
  std::vector<uint8_t> weights(static_cast<size_t>(rows * k / traits.block_elements * traits.block_bytes));
  std::mt19937 random(3);
  for (uint8_t& b : weights) b = static_cast<uint8_t>(random());
  for (size_t i = 1; i < weights.size(); i += 2) weights[i] &= 0x3F;
  for (size_t b = 0; b < weights.size(); b += traits.block_bytes) {
    if (type == vt::GgmlType::kMXFP4) weights[b] = 127;  // no denormal scales
  }
  std::vector<float> x(k, 0.5f), y(rows);
  const vt::cpu::MatrixView view{type, weights.data(), rows, k};
  for (auto _ : state) {
    vt::cpu::Gemv(view, x.data(), y.data(), threads);
    benchmark::DoNotOptimize(y.data());
  }
  state.counters["weight_GB/s"] = benchmark::Counter(static_cast<double>(weights.size()) / 1e9,
                                                     benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(vt::cpu::VecDotIsa(type));
}

void RegisterAll() {
  for (vt::GgmlType type : {vt::GgmlType::kQ8_0, vt::GgmlType::kQ4_0, vt::GgmlType::kQ4_K,
                            vt::GgmlType::kQ6_K, vt::GgmlType::kMXFP4}) {
    for (uint32_t threads : {1u, 2u}) {
      benchmark::RegisterBenchmark(("gemv_4096x4096/" + std::string(vt::NameOf(type)) + "/threads:" +
                                    std::to_string(threads)).c_str(),
                                   Gemv, type, threads)
          ->UseRealTime()->Unit(benchmark::kMillisecond);
    }
  }
  for (vt::GgmlType type : vt::AllGgmlTypes()) {
    if (!vt::cpu::HasVecDot(type) || !vt::TraitsOf(type).quantized) continue;
    const std::string name(vt::NameOf(type));
    benchmark::RegisterBenchmark(("vec_dot/" + name).c_str(), VecDot, type, nullptr)->Unit(benchmark::kMillisecond);
    if (std::string_view(vt::cpu::VecDotIsa(type)) == "avx512-vnni") {
      benchmark::RegisterBenchmark(("vec_dot_avx2/" + name).c_str(), VecDot, type,
                                   vt::cpu::X86VecDot(vt::cpu::X86Isa::kAvx2, type))
          ->Unit(benchmark::kMillisecond);
    }
    benchmark::RegisterBenchmark(("dequantize/" + name).c_str(), Dequantize, type)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace

int main(int argc, char** argv) {
  // "--values N": row length (default 4M, the anchor; 65536 keeps a
  // row and its activations in L2, measuring the kernel rather than L3).
  if (argc > 2 && std::string_view(argv[1]) == "--values") {
    kValues = std::stoll(argv[2]);
    argv[2] = argv[0];
    argv += 2;
    argc -= 2;
  }
  RegisterAll();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
