// Pins every row of the ggml type table. Expected block sizes are written as
// the sum of each block's fields (ggml-common.h layouts), not copied from the
// table under test.
#include <catch2/catch.hpp>

#include "vt/policy/ggml_type.h"

namespace vt {
namespace {

#define PIN_TYPE(enumerator, id, type_name, elements, bytes, is_quantized)          \
  STATIC_REQUIRE(static_cast<uint32_t>(GgmlType::enumerator) == (id));             \
  STATIC_REQUIRE(TraitsOf(GgmlType::enumerator).name == std::string_view(type_name)); \
  STATIC_REQUIRE(TraitsOf(GgmlType::enumerator).block_elements == (elements));     \
  STATIC_REQUIRE(TraitsOf(GgmlType::enumerator).block_bytes == (bytes));           \
  STATIC_REQUIRE(TraitsOf(GgmlType::enumerator).quantized == (is_quantized));      \
  STATIC_REQUIRE(!TraitsOf(GgmlType::enumerator).removed);                         \
  STATIC_REQUIRE(IsReadableGgmlTypeId(id));                                        \
  STATIC_REQUIRE(GgmlTypeFromName(type_name) == GgmlType::enumerator)

TEST_CASE("every live ggml type has its id, name and block size", "[ggml_type]") {
  // Plain scalars: one element per block, its own size.
  PIN_TYPE(kF32, 0, "f32", 1, 4, false);
  PIN_TYPE(kF16, 1, "f16", 1, 2, false);
  PIN_TYPE(kI8, 24, "i8", 1, 1, false);
  PIN_TYPE(kI16, 25, "i16", 1, 2, false);
  PIN_TYPE(kI32, 26, "i32", 1, 4, false);
  PIN_TYPE(kI64, 27, "i64", 1, 8, false);
  PIN_TYPE(kF64, 28, "f64", 1, 8, false);
  PIN_TYPE(kBF16, 30, "bf16", 1, 2, false);
  // 32-element blocks: half scales plus packed quants.
  PIN_TYPE(kQ4_0, 2, "q4_0", 32, 2 + 32 / 2, true);
  PIN_TYPE(kQ4_1, 3, "q4_1", 32, 2 + 2 + 32 / 2, true);
  PIN_TYPE(kQ5_0, 6, "q5_0", 32, 2 + 4 + 32 / 2, true);
  PIN_TYPE(kQ5_1, 7, "q5_1", 32, 2 + 2 + 4 + 32 / 2, true);
  PIN_TYPE(kQ8_0, 8, "q8_0", 32, 2 + 32, true);
  PIN_TYPE(kQ8_1, 9, "q8_1", 32, 2 + 2 + 32, true);
  PIN_TYPE(kIQ4_NL, 20, "iq4_nl", 32, 2 + 32 / 2, true);
  PIN_TYPE(kMXFP4, 39, "mxfp4", 32, 1 + 32 / 2, true);
  // Super-blocks of 256 (QK_K).
  PIN_TYPE(kQ2_K, 10, "q2_K", 256, 256 / 16 + 256 / 4 + 2 + 2, true);
  PIN_TYPE(kQ3_K, 11, "q3_K", 256, 256 / 8 + 256 / 4 + 12 + 2, true);
  PIN_TYPE(kQ4_K, 12, "q4_K", 256, 2 + 2 + 12 + 256 / 2, true);
  PIN_TYPE(kQ5_K, 13, "q5_K", 256, 2 + 2 + 12 + 256 / 8 + 256 / 2, true);
  PIN_TYPE(kQ6_K, 14, "q6_K", 256, 256 / 2 + 256 / 4 + 256 / 16 + 2, true);
  PIN_TYPE(kQ8_K, 15, "q8_K", 256, 4 + 256 + 2 * (256 / 16), true);
  PIN_TYPE(kIQ2_XXS, 16, "iq2_xxs", 256, 2 + 2 * (256 / 8), true);
  PIN_TYPE(kIQ2_XS, 17, "iq2_xs", 256, 2 + 2 * (256 / 8) + 256 / 32, true);
  PIN_TYPE(kIQ3_XXS, 18, "iq3_xxs", 256, 2 + 3 * 256 / 8, true);
  PIN_TYPE(kIQ1_S, 19, "iq1_s", 256, 2 + 256 / 8 + 2 * (256 / 32), true);
  PIN_TYPE(kIQ3_S, 21, "iq3_s", 256, 2 + 256 / 4 + 256 / 32 + 256 / 8 + 256 / 64, true);
  PIN_TYPE(kIQ2_S, 22, "iq2_s", 256, 2 + 256 / 4 + 256 / 32 + 256 / 32, true);
  PIN_TYPE(kIQ4_XS, 23, "iq4_xs", 256, 2 + 2 + 256 / 64 + 256 / 2, true);
  PIN_TYPE(kIQ1_M, 29, "iq1_m", 256, 256 / 8 + 256 / 16 + 256 / 32, true);
  PIN_TYPE(kTQ1_0, 34, "tq1_0", 256, (256 - 4 * 256 / 64) / 5 + 256 / 64 + 2, true);
  PIN_TYPE(kTQ2_0, 35, "tq2_0", 256, 256 / 4 + 2, true);
  // Newer small-block formats.
  PIN_TYPE(kNVFP4, 40, "nvfp4", 64, 64 / 16 + 64 / 2, true);
  PIN_TYPE(kQ1_0, 41, "q1_0", 128, 2 + 128 / 8, true);
  PIN_TYPE(kQ2_0, 42, "q2_0", 64, 2 + 64 / 4, true);
}

TEST_CASE("removed ids are known by name and not readable", "[ggml_type]") {
  struct Removed {
    uint32_t id;
    std::string_view name;
  };
  constexpr Removed kRemoved[] = {{4, "q4_2"},       {5, "q4_3"},       {31, "q4_0_4_4"},
                                  {32, "q4_0_4_8"},  {33, "q4_0_8_8"},  {36, "iq4_nl_4_4"},
                                  {37, "iq4_nl_4_8"}, {38, "iq4_nl_8_8"}};
  for (const Removed& removed : kRemoved) {
    CAPTURE(removed.id);
    const auto traits = GgmlTypeTraitsOfId(removed.id);
    REQUIRE(traits.has_value());
    CHECK(traits->removed);
    CHECK(traits->name == removed.name);
    CHECK_FALSE(IsReadableGgmlTypeId(removed.id));
    CHECK_FALSE(GgmlTypeFromName(removed.name).has_value());
  }
  STATIC_REQUIRE(kGgmlTypeIdCount == 43);
  STATIC_REQUIRE_FALSE(GgmlTypeTraitsOfId(43).has_value());
  STATIC_REQUIRE_FALSE(IsReadableGgmlTypeId(43));
  STATIC_REQUIRE_FALSE(IsReadableGgmlTypeId(0xFFFFFFFFu));
}

TEST_CASE("AllGgmlTypes lists every readable id once, in order", "[ggml_type]") {
  constexpr auto all = AllGgmlTypes();
  uint32_t readable = 0;
  for (uint32_t id = 0; id < 64; ++id) readable += IsReadableGgmlTypeId(id) ? 1 : 0;
  CHECK(all.size() == readable);
  for (size_t i = 1; i < all.size(); ++i) {
    CHECK(static_cast<uint32_t>(all[i - 1]) < static_cast<uint32_t>(all[i]));
  }
  CHECK_FALSE(GgmlTypeFromName("Q4_K").has_value());  // names are case-sensitive
}

}  // namespace
}  // namespace vt
