// Parsing a byte size an operator types: "68719476736", "64G", "64GiB",
// "58.5GiB", "500MB". Binary suffixes (K, M, G, T, with or without "iB")
// count in 1024s, decimal ones (KB, MB, GB, TB) in 1000s, case-insensitive.
// Pure; nullopt for anything else, negatives and overflows included.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace vt {

constexpr std::optional<uint64_t> ParseByteSize(std::string_view text) {
  if (text.empty()) return std::nullopt;
  uint64_t whole = 0;
  size_t at = 0;
  while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
    if (whole > (UINT64_MAX - 9) / 10) return std::nullopt;
    whole = whole * 10 + static_cast<uint64_t>(text[at] - '0');
    ++at;
  }
  if (at == 0) return std::nullopt;  // no leading digit: "-1", ".5", "G"
  uint64_t fraction = 0;  // up to 6 decimals, scaled by 10^6
  uint64_t fraction_scale = 1;
  if (at < text.size() && text[at] == '.') {
    ++at;
    const size_t digits_at = at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
      if (fraction_scale < 1000000) {
        fraction = fraction * 10 + static_cast<uint64_t>(text[at] - '0');
        fraction_scale *= 10;
      }
      ++at;
    }
    if (at == digits_at) return std::nullopt;
  }
  std::string_view suffix = text.substr(at);
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  const auto is = [&](std::string_view want) {
    if (suffix.size() != want.size()) return false;
    for (size_t i = 0; i < want.size(); ++i) {
      if (lower(suffix[i]) != want[i]) return false;
    }
    return true;
  };
  uint64_t unit = 0;
  if (suffix.empty() || is("b")) unit = 1;
  else if (is("k") || is("kib")) unit = uint64_t{1} << 10;
  else if (is("m") || is("mib")) unit = uint64_t{1} << 20;
  else if (is("g") || is("gib")) unit = uint64_t{1} << 30;
  else if (is("t") || is("tib")) unit = uint64_t{1} << 40;
  else if (is("kb")) unit = 1000;
  else if (is("mb")) unit = 1000 * 1000;
  else if (is("gb")) unit = 1000ull * 1000 * 1000;
  else if (is("tb")) unit = 1000ull * 1000 * 1000 * 1000;
  else return std::nullopt;
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(whole, unit, &bytes)) return std::nullopt;
  if (fraction_scale > 1) {
    if (unit == 1) return std::nullopt;  // no fractions of a byte
    uint64_t part = 0;
    if (__builtin_mul_overflow(fraction, unit, &part)) return std::nullopt;
    if (__builtin_add_overflow(bytes, part / fraction_scale, &bytes)) return std::nullopt;
  }
  return bytes;
}

}  // namespace vt
