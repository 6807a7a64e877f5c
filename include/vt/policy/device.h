// Which device runs a tensor: the kinds vt plans for, and one device of a
// board (a kind and an index, "cuda:1"). The host is the CPU.
//
// Pure: names and parsing only; capability lives in device_caps.h.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vt {

enum class DeviceKind : uint8_t { kCpu, kCuda, kRocm, kMetal, kVulkan, kXpu, kTenstorrent };

inline constexpr std::array<DeviceKind, 7> kAllDeviceKinds = {
    DeviceKind::kCpu,   DeviceKind::kCuda, DeviceKind::kRocm,       DeviceKind::kMetal,
    DeviceKind::kVulkan, DeviceKind::kXpu, DeviceKind::kTenstorrent};

constexpr std::string_view NameOf(DeviceKind kind) {
  switch (kind) {
    case DeviceKind::kCpu: return "cpu";
    case DeviceKind::kCuda: return "cuda";
    case DeviceKind::kRocm: return "rocm";
    case DeviceKind::kMetal: return "metal";
    case DeviceKind::kVulkan: return "vulkan";
    case DeviceKind::kXpu: return "xpu";
    case DeviceKind::kTenstorrent: return "tenstorrent";
  }
  return "unknown";
}

// Case-insensitive inverse of NameOf; "host" and "hip" are accepted aliases.
constexpr std::optional<DeviceKind> DeviceKindFromName(std::string_view name) {
  const auto lower_equals = [](std::string_view text, std::string_view lower) {
    if (text.size() != lower.size()) return false;
    for (size_t i = 0; i < text.size(); ++i) {
      char c = text[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != lower[i]) return false;
    }
    return true;
  };
  for (DeviceKind kind : kAllDeviceKinds) {
    if (lower_equals(name, NameOf(kind))) return kind;
  }
  if (lower_equals(name, "host")) return DeviceKind::kCpu;
  if (lower_equals(name, "hip")) return DeviceKind::kRocm;
  return std::nullopt;
}

struct DeviceId {
  DeviceKind kind = DeviceKind::kCpu;
  uint8_t index = 0;

  constexpr bool IsHost() const { return kind == DeviceKind::kCpu; }
  friend constexpr bool operator==(const DeviceId&, const DeviceId&) = default;
};

inline constexpr DeviceId kHostDevice{DeviceKind::kCpu, 0};

// "cpu" for the host, "cuda:0" for an accelerator.
inline std::string ToString(DeviceId device) {
  if (device.IsHost()) return "cpu";
  return std::string(NameOf(device.kind)) + ":" + std::to_string(device.index);
}

// Parses "cpu", "host", "cuda", "cuda:1", "CUDA1", "rocm0" (llama.cpp's
// buffer names are accepted, case-insensitive). A bare kind means index 0.
constexpr std::optional<DeviceId> ParseDeviceId(std::string_view text) {
  size_t digits_at = text.size();
  while (digits_at > 0 && text[digits_at - 1] >= '0' && text[digits_at - 1] <= '9') --digits_at;
  std::string_view kind_text = text.substr(0, digits_at);
  const std::string_view digits = text.substr(digits_at);
  if (!kind_text.empty() && kind_text.back() == ':') {
    if (digits.empty()) return std::nullopt;
    kind_text.remove_suffix(1);
  }
  const std::optional<DeviceKind> kind = DeviceKindFromName(kind_text);
  if (!kind) return std::nullopt;
  unsigned index = 0;
  if (digits.size() > 3) return std::nullopt;
  for (char c : digits) index = index * 10 + static_cast<unsigned>(c - '0');
  if (index > 255 || (*kind == DeviceKind::kCpu && index != 0)) return std::nullopt;
  return DeviceId{*kind, static_cast<uint8_t>(index)};
}

}  // namespace vt
