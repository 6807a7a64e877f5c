// The dequantizer of each type, and the row entry points.
#include "vt/kernels/cpu/dequantize.h"

#include <array>
#include <vector>

#include "dequantize_blocks.h"
#include "vt/kernels/cpu/float_formats.h"

namespace vt::cpu {
namespace {

using blocks::DequantizeFn;

constexpr std::array<DequantizeFn, kGgmlTypeIdCount> MakeTable() {
  std::array<DequantizeFn, kGgmlTypeIdCount> table{};
  const auto set = [&](GgmlType type, DequantizeFn fn) { table[static_cast<uint32_t>(type)] = fn; };
  set(GgmlType::kF32, blocks::F32);
  set(GgmlType::kF16, blocks::F16);
  set(GgmlType::kBF16, blocks::BF16);
  set(GgmlType::kQ4_0, blocks::Q4_0);
  set(GgmlType::kQ4_1, blocks::Q4_1);
  set(GgmlType::kQ5_0, blocks::Q5_0);
  set(GgmlType::kQ5_1, blocks::Q5_1);
  set(GgmlType::kQ8_0, blocks::Q8_0);
  set(GgmlType::kQ8_1, blocks::Q8_1);
  set(GgmlType::kQ1_0, blocks::Q1_0);
  set(GgmlType::kQ2_0, blocks::Q2_0);
  set(GgmlType::kIQ4_NL, blocks::IQ4_NL);
  set(GgmlType::kMXFP4, blocks::MXFP4);
  set(GgmlType::kNVFP4, blocks::NVFP4);
  set(GgmlType::kQ2_K, blocks::Q2_K);
  set(GgmlType::kQ3_K, blocks::Q3_K);
  set(GgmlType::kQ4_K, blocks::Q4_K);
  set(GgmlType::kQ5_K, blocks::Q5_K);
  set(GgmlType::kQ6_K, blocks::Q6_K);
  set(GgmlType::kQ8_K, blocks::Q8_K);
  set(GgmlType::kIQ4_XS, blocks::IQ4_XS);
  set(GgmlType::kIQ1_S, blocks::IQ1_S);
  set(GgmlType::kIQ1_M, blocks::IQ1_M);
  set(GgmlType::kIQ2_XXS, blocks::IQ2_XXS);
  set(GgmlType::kIQ2_XS, blocks::IQ2_XS);
  set(GgmlType::kIQ2_S, blocks::IQ2_S);
  set(GgmlType::kIQ3_XXS, blocks::IQ3_XXS);
  set(GgmlType::kIQ3_S, blocks::IQ3_S);
  set(GgmlType::kTQ1_0, blocks::TQ1_0);
  set(GgmlType::kTQ2_0, blocks::TQ2_0);
  return table;
}

constexpr std::array<DequantizeFn, kGgmlTypeIdCount> kDequantizers = MakeTable();

}  // namespace

bool HasDequantizer(GgmlType type) { return kDequantizers[static_cast<uint32_t>(type)] != nullptr; }

bool DequantizeRow(GgmlType type, const void* source, float* out, int64_t n) {
  const DequantizeFn fn = kDequantizers[static_cast<uint32_t>(type)];
  const int64_t block = TraitsOf(type).block_elements;
  if (fn == nullptr || n < 0 || n % block != 0) return false;
  fn(static_cast<const uint8_t*>(source), out, n / block);
  return true;
}

bool DequantizeRowBf16(GgmlType type, const void* source, uint16_t* out, int64_t n) {
  const int64_t block = TraitsOf(type).block_elements;
  if (!HasDequantizer(type) || n < 0 || n % block != 0) return false;
  std::vector<float> row(static_cast<size_t>(n));
  DequantizeRow(type, source, row.data(), n);
  for (int64_t i = 0; i < n; ++i) out[i] = FloatToBf16(row[static_cast<size_t>(i)]);
  return true;
}

}  // namespace vt::cpu
