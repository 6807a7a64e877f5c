// Boards vt plans for: a kind of device, how many of them, their memory
// properties, a safety margin, and the host's memory. Named profiles for the
// boards vt is measured on, and the same structure for a board a user
// describes with flags (--budget, --managed-ceiling).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "vt/policy/device.h"
#include "vt/rocm/memory_policy.h"

namespace vt {

inline constexpr uint64_t kGiB = uint64_t{1} << 30;
inline constexpr uint64_t kMiB = uint64_t{1} << 20;

struct Board {
  std::string_view name;
  std::string_view description;
  DeviceKind kind = DeviceKind::kCpu;
  uint8_t device_count = 1;          // accelerators of `kind` (0 for a CPU-only board)
  DeviceMemoryProperties memory;     // per accelerator (or the host, on a CPU board)
  uint64_t margin_bytes = 0;         // kept free on each device
  std::optional<uint64_t> host_bytes;  // host memory available to weights, when known
};

// The budget of one device of the board: the memory policy's ceiling.
constexpr uint64_t DeviceBudgetBytes(const Board& board) {
  return DecideMemoryPolicy(board.memory, board.margin_bytes).budget_ceiling_bytes;
}

// The device a plan for this board executes on by default.
constexpr DeviceId EngineDeviceOf(const Board& board) {
  return board.kind == DeviceKind::kCpu ? kHostDevice : DeviceId{board.kind, 0};
}

namespace board_detail {
constexpr uint64_t Tenths(uint64_t gib_tenths) { return gib_tenths * kGiB / 10; }
}  // namespace board_detail

// Named profiles. Properties as the runtimes report them on those boards.
inline constexpr std::array<Board, 6> kBoardProfiles = {{
    {"gfx1151", "AMD Strix Halo (gfx1151), 64 GiB unified, managed allocations",
     DeviceKind::kRocm, 1,
     {true, true, true, false, 64 * kGiB, 58 * kGiB}, 512 * kMiB, 64 * kGiB},
    {"h200", "NVIDIA H200, 139.8 GiB HBM3e", DeviceKind::kCuda, 1,
     {false, true, true, false, board_detail::Tenths(1398), std::nullopt}, 1 * kGiB, 128 * kGiB},
    {"h200x2", "two NVIDIA H200 of one host", DeviceKind::kCuda, 2,
     {false, true, true, false, board_detail::Tenths(1398), std::nullopt}, 1 * kGiB, 256 * kGiB},
    {"rtx24", "a 24 GiB consumer card (RTX 4090 class)", DeviceKind::kCuda, 1,
     {false, true, true, false, 24 * kGiB, std::nullopt}, 1 * kGiB, 64 * kGiB},
    {"apple-m3-max", "Apple M3 Max, 128 GiB unified (96 GiB GPU working set)", DeviceKind::kMetal, 1,
     {true, true, true, true, 128 * kGiB, 96 * kGiB}, 1 * kGiB, 128 * kGiB},
    {"cpu", "CPU only, 128 GiB of RAM", DeviceKind::kCpu, 0,
     {false, false, false, true, 128 * kGiB, std::nullopt}, 4 * kGiB, 128 * kGiB},
}};

constexpr std::optional<Board> FindBoard(std::string_view name) {
  for (const Board& board : kBoardProfiles) {
    if (board.name == name) return board;
  }
  return std::nullopt;
}

}  // namespace vt
