// The ggml tensor type table: for every type id a GGUF file may carry, its
// name, how many elements one block holds and how many bytes that block takes.
//
// Pure and constexpr: the table is a format constant (ggml's `ggml_type` enum
// and `type_traits`), so every entry is pinned at compile time by the tests.
// Ids ggml removed (4, 5, 31-33, 36-38) are kept by name so a file that still
// carries one gets an error that says what it was, not "unknown type".
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace vt {

enum class GgmlType : uint32_t {
  kF32 = 0,
  kF16 = 1,
  kQ4_0 = 2,
  kQ4_1 = 3,
  kQ5_0 = 6,
  kQ5_1 = 7,
  kQ8_0 = 8,
  kQ8_1 = 9,
  kQ2_K = 10,
  kQ3_K = 11,
  kQ4_K = 12,
  kQ5_K = 13,
  kQ6_K = 14,
  kQ8_K = 15,
  kIQ2_XXS = 16,
  kIQ2_XS = 17,
  kIQ3_XXS = 18,
  kIQ1_S = 19,
  kIQ4_NL = 20,
  kIQ3_S = 21,
  kIQ2_S = 22,
  kIQ4_XS = 23,
  kI8 = 24,
  kI16 = 25,
  kI32 = 26,
  kI64 = 27,
  kF64 = 28,
  kIQ1_M = 29,
  kBF16 = 30,
  kTQ1_0 = 34,
  kTQ2_0 = 35,
  kMXFP4 = 39,
  kNVFP4 = 40,
  kQ1_0 = 41,
  kQ2_0 = 42,
};

// One past the largest id ggml defines (GGML_TYPE_COUNT).
inline constexpr uint32_t kGgmlTypeIdCount = 43;

// What one type id means. For a removed id, `removed` is true, `name` is the
// name it had and the block sizes are zero.
struct GgmlTypeTraits {
  std::string_view name;     // ggml's name, as gguf files and tools print it
  uint32_t block_elements;   // elements per block (1 for plain scalars)
  uint32_t block_bytes;      // bytes per block
  bool quantized;            // stored in blocks with scales, not plain numbers
  bool removed;              // ggml no longer reads this id
};

namespace detail {
inline constexpr std::array<GgmlTypeTraits, kGgmlTypeIdCount> kGgmlTypeTable = {{
    {"f32", 1, 4, false, false},        // 0
    {"f16", 1, 2, false, false},        // 1
    {"q4_0", 32, 18, true, false},      // 2
    {"q4_1", 32, 20, true, false},      // 3
    {"q4_2", 0, 0, true, true},         // 4
    {"q4_3", 0, 0, true, true},         // 5
    {"q5_0", 32, 22, true, false},      // 6
    {"q5_1", 32, 24, true, false},      // 7
    {"q8_0", 32, 34, true, false},      // 8
    {"q8_1", 32, 36, true, false},      // 9
    {"q2_K", 256, 84, true, false},     // 10
    {"q3_K", 256, 110, true, false},    // 11
    {"q4_K", 256, 144, true, false},    // 12
    {"q5_K", 256, 176, true, false},    // 13
    {"q6_K", 256, 210, true, false},    // 14
    {"q8_K", 256, 292, true, false},    // 15
    {"iq2_xxs", 256, 66, true, false},  // 16
    {"iq2_xs", 256, 74, true, false},   // 17
    {"iq3_xxs", 256, 98, true, false},  // 18
    {"iq1_s", 256, 50, true, false},    // 19
    {"iq4_nl", 32, 18, true, false},    // 20
    {"iq3_s", 256, 110, true, false},   // 21
    {"iq2_s", 256, 82, true, false},    // 22
    {"iq4_xs", 256, 136, true, false},  // 23
    {"i8", 1, 1, false, false},         // 24
    {"i16", 1, 2, false, false},        // 25
    {"i32", 1, 4, false, false},        // 26
    {"i64", 1, 8, false, false},        // 27
    {"f64", 1, 8, false, false},        // 28
    {"iq1_m", 256, 56, true, false},    // 29
    {"bf16", 1, 2, false, false},       // 30
    {"q4_0_4_4", 0, 0, true, true},     // 31
    {"q4_0_4_8", 0, 0, true, true},     // 32
    {"q4_0_8_8", 0, 0, true, true},     // 33
    {"tq1_0", 256, 54, true, false},    // 34
    {"tq2_0", 256, 66, true, false},    // 35
    {"iq4_nl_4_4", 0, 0, true, true},   // 36
    {"iq4_nl_4_8", 0, 0, true, true},   // 37
    {"iq4_nl_8_8", 0, 0, true, true},   // 38
    {"mxfp4", 32, 17, true, false},     // 39
    {"nvfp4", 64, 36, true, false},     // 40
    {"q1_0", 128, 18, true, false},     // 41
    {"q2_0", 64, 18, true, false},      // 42
}};
}  // namespace detail

// Traits of any id below kGgmlTypeIdCount, removed ones included; nullopt for
// ids ggml never defined.
constexpr std::optional<GgmlTypeTraits> GgmlTypeTraitsOfId(uint32_t id) {
  if (id >= kGgmlTypeIdCount) return std::nullopt;
  return detail::kGgmlTypeTable[id];
}

// True when a file may carry this id: defined and not removed.
constexpr bool IsReadableGgmlTypeId(uint32_t id) {
  return id < kGgmlTypeIdCount && !detail::kGgmlTypeTable[id].removed;
}

// Traits of a live type. Every enumerator names a live id.
constexpr const GgmlTypeTraits& TraitsOf(GgmlType type) {
  return detail::kGgmlTypeTable[static_cast<uint32_t>(type)];
}

constexpr std::string_view NameOf(GgmlType type) { return TraitsOf(type).name; }

// Inverse of NameOf over live types, e.g. "q4_K" -> kQ4_K. Case-sensitive,
// like ggml's own names. nullopt for anything else.
constexpr std::optional<GgmlType> GgmlTypeFromName(std::string_view name) {
  for (uint32_t id = 0; id < kGgmlTypeIdCount; ++id) {
    const GgmlTypeTraits& traits = detail::kGgmlTypeTable[id];
    if (!traits.removed && traits.name == name) return static_cast<GgmlType>(id);
  }
  return std::nullopt;
}

// Every live type, in id order: for tables that must cover them all.
constexpr std::array<GgmlType, 35> AllGgmlTypes() {
  std::array<GgmlType, 35> types{};
  size_t next = 0;
  for (uint32_t id = 0; id < kGgmlTypeIdCount; ++id) {
    if (!detail::kGgmlTypeTable[id].removed) types[next++] = static_cast<GgmlType>(id);
  }
  return types;
}

}  // namespace vt
