// Byte counts as people read them, for reasons and refusals.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>

namespace vt {

// "512 B", "1.50 KiB", "139.80 GiB": binary units, two decimals above bytes.
inline std::string FormatBytes(uint64_t bytes) {
  constexpr std::array<const char*, 6> kUnits = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < kUnits.size()) {
    value /= 1024.0;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f %s", value, kUnits[unit]);
  return text;
}

// "216433205760 bytes (201.56 GiB)": exact and readable together.
inline std::string FormatBytesExact(uint64_t bytes) {
  return std::to_string(bytes) + " bytes (" + FormatBytes(bytes) + ")";
}

}  // namespace vt
