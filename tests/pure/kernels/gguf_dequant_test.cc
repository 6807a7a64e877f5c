// vt's dequantizers against a second, independent oracle: PyPI gguf's numpy
// dequantization of fresh random blocks (a new seed each run, written by
// write_gguf_dequant_fixtures.py as a CTest fixture).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "test_paths.h"
#include "vt/kernels/cpu/dequantize.h"

namespace vt {
namespace {

const std::filesystem::path kFixtures = VT_GGUF_DEQUANT_DIR;

std::vector<char> ReadAll(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Same bits, or both NaN, or within one part in 2^20 (numpy may associate a
// scale product differently; every other difference is a defect).
bool Agrees(float a, float b) {
  if (std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b)) return true;
  if (std::isnan(a) && std::isnan(b)) return true;
  if (!std::isfinite(a) || !std::isfinite(b)) return false;
  return std::fabs(a - b) <= std::ldexp(std::max(std::fabs(a), std::fabs(b)), -20);
}

TEST_CASE("dequantization agrees with PyPI gguf's on fresh random blocks", "[kernels][gguf]") {
  std::ifstream in(kFixtures / "index.json");
  const nlohmann::json index = nlohmann::json::parse(in);
  INFO("seed " << index.at("seed"));
  size_t types = 0;
  for (const nlohmann::json& entry : index.at("types")) {
    const std::string name = entry.at("type");
    const auto type = static_cast<GgmlType>(entry.at("type_id").get<uint32_t>());
    const int64_t n = entry.at("elements");
    CAPTURE(name);
    REQUIRE(cpu::HasDequantizer(type));
    const std::vector<char> blocks = ReadAll(kFixtures / (name + ".blocks"));
    const std::vector<char> expected = ReadAll(kFixtures / (name + ".expected"));
    REQUIRE(expected.size() == static_cast<size_t>(n) * 4);
    std::vector<float> got(static_cast<size_t>(n), -7.0f);
    REQUIRE(cpu::DequantizeRow(type, blocks.data(), got.data(), n));
    int64_t disagreements = 0;
    int64_t exact = 0;
    for (int64_t i = 0; i < n; ++i) {
      float want;
      std::memcpy(&want, expected.data() + i * 4, 4);
      const float g = got[static_cast<size_t>(i)];
      disagreements += Agrees(g, want) ? 0 : 1;
      exact += std::bit_cast<uint32_t>(g) == std::bit_cast<uint32_t>(want) ? 1 : 0;
    }
    CAPTURE(exact, n);
    CHECK(disagreements == 0);
    ++types;
  }
  CHECK(types >= 20);
}

}  // namespace
}  // namespace vt

int main(int argc, char** argv) {
  if (!vt::testing::IsListingTests(argc, argv) && !std::filesystem::exists(vt::kFixtures / "index.json")) {
    std::cout << "skipped: no fixtures from gguf's dequantizers in " << vt::kFixtures.string()
              << " (is the python package gguf installed? run scripts/setup.sh)\n";
    return vt::testing::kSkipExitCode;
  }
  return Catch::Session().run(argc, argv);
}
