// GGUF metadata: the 13 value types, one value, and the key -> value table of
// a file with typed accessors.
//
// Strings and arrays are views into the file's bytes (no copy of a 150k-entry
// vocabulary); they stay valid while the GgufFile or GgufModel that produced
// them is alive.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

namespace vt {

enum class GgufValueType : uint32_t {
  kU8 = 0,
  kI8 = 1,
  kU16 = 2,
  kI16 = 3,
  kU32 = 4,
  kI32 = 5,
  kF32 = 6,
  kBool = 7,
  kString = 8,
  kArray = 9,
  kU64 = 10,
  kI64 = 11,
  kF64 = 12,
};
inline constexpr uint32_t kGgufValueTypeCount = 13;

// "u8", "i32", "string", "array", ... as gguf tools print them.
std::string_view NameOf(GgufValueType type);

// Bytes one element of a fixed-size type takes in the file; 0 for string and
// array, whose size depends on their contents.
size_t FixedSizeOf(GgufValueType type);

// An array value: its element type, count, and elements. Numeric and bool
// elements stay packed little-endian in `packed`; strings are in `strings`.
// Arrays of arrays do not occur (the reader rejects them).
struct GgufArray {
  GgufValueType element_type = GgufValueType::kU8;
  uint64_t count = 0;
  std::span<const std::byte> packed;      // count * FixedSizeOf(element_type) bytes
  std::vector<std::string_view> strings;  // count entries when element_type is kString

  // Element i of a numeric array read as T, which must match element_type in
  // size (the caller checks element_type). No bounds check beyond debug use.
  template <typename T>
  T NumberAt(uint64_t i) const {
    T value;
    std::memcpy(&value, packed.data() + i * sizeof(T), sizeof(T));
    return value;
  }
};

// One metadata value. The variant's alternatives are in GgufValueType order,
// so index() is the type id.
using GgufValueStorage = std::variant<uint8_t, int8_t, uint16_t, int16_t, uint32_t, int32_t,
                                      float, bool, std::string_view, GgufArray, uint64_t,
                                      int64_t, double>;

struct GgufValue {
  GgufValueStorage storage;

  GgufValueType type() const { return static_cast<GgufValueType>(storage.index()); }
  // The value as a person reads it: numbers in decimal, strings quoted,
  // arrays as "[type x count]" with their first few elements.
  std::string ToDisplayString(size_t max_array_elements = 8) const;
};

struct GgufKeyValue {
  std::string_view key;
  GgufValue value;
};

// The key -> value table of one file, in file order, with lookups. Every
// typed accessor throws GgufError naming the file and key when the key is
// missing or holds another type; the Find* forms return nullptr instead.
class GgufMetadata {
 public:
  GgufMetadata() = default;
  GgufMetadata(std::string file_name, std::vector<GgufKeyValue> entries);

  std::span<const GgufKeyValue> entries() const { return entries_; }
  size_t size() const { return entries_.size(); }
  const std::string& file_name() const { return file_name_; }

  const GgufValue* Find(std::string_view key) const;
  bool Contains(std::string_view key) const { return Find(key) != nullptr; }

  uint8_t GetU8(std::string_view key) const;
  int8_t GetI8(std::string_view key) const;
  uint16_t GetU16(std::string_view key) const;
  int16_t GetI16(std::string_view key) const;
  uint32_t GetU32(std::string_view key) const;
  int32_t GetI32(std::string_view key) const;
  uint64_t GetU64(std::string_view key) const;
  int64_t GetI64(std::string_view key) const;
  float GetF32(std::string_view key) const;
  double GetF64(std::string_view key) const;
  bool GetBool(std::string_view key) const;
  std::string_view GetString(std::string_view key) const;
  const GgufArray& GetArray(std::string_view key) const;

  // Any integer type whose value is >= 0, widened: for keys writers disagree
  // on (u32 here, i32 or u64 there). Throws on a negative value or a
  // non-integer type.
  uint64_t GetUnsigned(std::string_view key) const;

 private:
  template <typename T>
  const T& GetAs(std::string_view key, GgufValueType expected) const;

  std::string file_name_;
  std::vector<GgufKeyValue> entries_;
  std::unordered_map<std::string_view, size_t> index_;
};

}  // namespace vt
