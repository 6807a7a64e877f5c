#include "vt/runtime/gguf_value.h"

#include <array>
#include <charconv>
#include <sstream>

#include "vt/runtime/gguf_error.h"

namespace vt {
namespace {

constexpr std::array<std::string_view, kGgufValueTypeCount> kTypeNames = {
    "u8", "i8", "u16", "i16", "u32", "i32", "f32", "bool", "string", "array", "u64", "i64", "f64"};

constexpr std::array<size_t, kGgufValueTypeCount> kFixedSizes = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0,
                                                                 8, 8, 8};

void AppendQuoted(std::ostringstream& out, std::string_view text) {
  out << '"';
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out << '\\' << c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out << "\\x" << "0123456789abcdef"[(c >> 4) & 0xF] << "0123456789abcdef"[c & 0xF];
    } else {
      out << c;
    }
  }
  out << '"';
}

// Shortest text that reads back as the same float or double.
template <typename Float>
void AppendFloat(std::ostringstream& out, Float value) {
  char text[32];
  const auto result = std::to_chars(text, text + sizeof(text), value);
  out << std::string_view(text, static_cast<size_t>(result.ptr - text));
}

void AppendArrayElement(std::ostringstream& out, const GgufArray& array, uint64_t i) {
  switch (array.element_type) {
    case GgufValueType::kU8: out << +array.NumberAt<uint8_t>(i); return;
    case GgufValueType::kI8: out << +array.NumberAt<int8_t>(i); return;
    case GgufValueType::kU16: out << array.NumberAt<uint16_t>(i); return;
    case GgufValueType::kI16: out << array.NumberAt<int16_t>(i); return;
    case GgufValueType::kU32: out << array.NumberAt<uint32_t>(i); return;
    case GgufValueType::kI32: out << array.NumberAt<int32_t>(i); return;
    case GgufValueType::kF32: AppendFloat(out, array.NumberAt<float>(i)); return;
    case GgufValueType::kBool: out << (array.NumberAt<uint8_t>(i) ? "true" : "false"); return;
    case GgufValueType::kString: AppendQuoted(out, array.strings[i]); return;
    case GgufValueType::kArray: out << "[...]"; return;
    case GgufValueType::kU64: out << array.NumberAt<uint64_t>(i); return;
    case GgufValueType::kI64: out << array.NumberAt<int64_t>(i); return;
    case GgufValueType::kF64: AppendFloat(out, array.NumberAt<double>(i)); return;
  }
}

}  // namespace

std::string_view NameOf(GgufValueType type) {
  const auto id = static_cast<uint32_t>(type);
  return id < kGgufValueTypeCount ? kTypeNames[id] : std::string_view("invalid");
}

size_t FixedSizeOf(GgufValueType type) {
  const auto id = static_cast<uint32_t>(type);
  return id < kGgufValueTypeCount ? kFixedSizes[id] : 0;
}

std::string GgufValue::ToDisplayString(size_t max_array_elements) const {
  std::ostringstream out;
  std::visit(
      [&](const auto& value) {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, GgufArray>) {
          out << '[' << NameOf(value.element_type) << " x " << value.count << ']';
          const uint64_t shown = std::min<uint64_t>(value.count, max_array_elements);
          if (shown > 0) {
            out << ' ';
            for (uint64_t i = 0; i < shown; ++i) {
              out << (i == 0 ? "" : ", ");
              AppendArrayElement(out, value, i);
            }
            if (shown < value.count) out << ", ...";
          }
        } else if constexpr (std::is_same_v<T, std::string_view>) {
          AppendQuoted(out, value);
        } else if constexpr (std::is_same_v<T, bool>) {
          out << (value ? "true" : "false");
        } else if constexpr (std::is_floating_point_v<T>) {
          AppendFloat(out, value);
        } else if constexpr (sizeof(T) == 1) {
          out << +value;  // print u8 / i8 as numbers, not characters
        } else {
          out << value;
        }
      },
      storage);
  return out.str();
}

GgufMetadata::GgufMetadata(std::string file_name, std::vector<GgufKeyValue> entries)
    : file_name_(std::move(file_name)), entries_(std::move(entries)) {
  index_.reserve(entries_.size());
  for (size_t i = 0; i < entries_.size(); ++i) index_.emplace(entries_[i].key, i);
}

const GgufValue* GgufMetadata::Find(std::string_view key) const {
  const auto found = index_.find(key);
  return found == index_.end() ? nullptr : &entries_[found->second].value;
}

template <typename T>
const T& GgufMetadata::GetAs(std::string_view key, GgufValueType expected) const {
  const GgufValue* value = Find(key);
  if (value == nullptr) {
    throw GgufError(file_name_ + ": key '" + std::string(key) + "' is missing");
  }
  if (value->type() != expected) {
    throw GgufError(file_name_ + ": key '" + std::string(key) + "' holds " +
                    std::string(NameOf(value->type())) + " " + value->ToDisplayString(3) +
                    ", expected " + std::string(NameOf(expected)));
  }
  return std::get<T>(value->storage);
}

uint8_t GgufMetadata::GetU8(std::string_view key) const {
  return GetAs<uint8_t>(key, GgufValueType::kU8);
}
int8_t GgufMetadata::GetI8(std::string_view key) const {
  return GetAs<int8_t>(key, GgufValueType::kI8);
}
uint16_t GgufMetadata::GetU16(std::string_view key) const {
  return GetAs<uint16_t>(key, GgufValueType::kU16);
}
int16_t GgufMetadata::GetI16(std::string_view key) const {
  return GetAs<int16_t>(key, GgufValueType::kI16);
}
uint32_t GgufMetadata::GetU32(std::string_view key) const {
  return GetAs<uint32_t>(key, GgufValueType::kU32);
}
int32_t GgufMetadata::GetI32(std::string_view key) const {
  return GetAs<int32_t>(key, GgufValueType::kI32);
}
uint64_t GgufMetadata::GetU64(std::string_view key) const {
  return GetAs<uint64_t>(key, GgufValueType::kU64);
}
int64_t GgufMetadata::GetI64(std::string_view key) const {
  return GetAs<int64_t>(key, GgufValueType::kI64);
}
float GgufMetadata::GetF32(std::string_view key) const {
  return GetAs<float>(key, GgufValueType::kF32);
}
double GgufMetadata::GetF64(std::string_view key) const {
  return GetAs<double>(key, GgufValueType::kF64);
}
bool GgufMetadata::GetBool(std::string_view key) const {
  return GetAs<bool>(key, GgufValueType::kBool);
}
std::string_view GgufMetadata::GetString(std::string_view key) const {
  return GetAs<std::string_view>(key, GgufValueType::kString);
}
const GgufArray& GgufMetadata::GetArray(std::string_view key) const {
  return GetAs<GgufArray>(key, GgufValueType::kArray);
}

uint64_t GgufMetadata::GetUnsigned(std::string_view key) const {
  const GgufValue* value = Find(key);
  if (value == nullptr) {
    throw GgufError(file_name_ + ": key '" + std::string(key) + "' is missing");
  }
  const auto fail = [&](const char* why) -> uint64_t {
    throw GgufError(file_name_ + ": key '" + std::string(key) + "' holds " +
                    std::string(NameOf(value->type())) + " " + value->ToDisplayString(3) + ", " +
                    why);
  };
  return std::visit(
      [&](const auto& held) -> uint64_t {
        using T = std::decay_t<decltype(held)>;
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
          if constexpr (std::is_signed_v<T>) {
            if (held < 0) return fail("expected a non-negative integer");
          }
          return static_cast<uint64_t>(held);
        } else {
          return fail("expected an integer");
        }
      },
      value->storage);
}

}  // namespace vt
