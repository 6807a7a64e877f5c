// The fit check: each device's need (weights + KV + reserve) against its
// budget, where budget = min(reported total - margin, managed ceiling when
// allocations are managed).
//
// Accelerators always have a budget. The host has one only on a CPU-only
// board; on an accelerator board, host-placed weights stay in the file
// mapping (paged from disk when RAM is short), so the host gets a note, not a
// verdict. Pure.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "vt/policy/board.h"
#include "vt/policy/byte_text.h"
#include "vt/policy/footprint.h"

namespace vt {

struct DeviceFit {
  DeviceId device;
  uint64_t weights_bytes = 0;
  uint64_t kv_bytes = 0;
  uint64_t reserve_bytes = 0;
  uint64_t need_bytes = 0;
  bool has_budget = false;
  uint64_t budget_bytes = 0;  // meaningful when has_budget
  uint32_t tensor_count = 0;
  bool fits = true;
};

struct FitReport {
  std::vector<DeviceFit> devices;
  bool fits = true;

  const DeviceFit* FirstRefused() const {
    for (const DeviceFit& device : devices) {
      if (!device.fits) return &device;
    }
    return nullptr;
  }
};

// The budget a device of `board` gets, if it gets one.
constexpr bool DeviceHasBudget(const Board& board, DeviceId device) {
  return !device.IsHost() || board.kind == DeviceKind::kCpu;
}

inline FitReport CheckFit(const Footprint& footprint, const Board& board) {
  FitReport report;
  for (const DeviceUsage& usage : footprint.devices) {
    DeviceFit fit;
    fit.device = usage.device;
    fit.weights_bytes = usage.weights_bytes;
    fit.kv_bytes = usage.kv_bytes;
    fit.reserve_bytes = usage.reserve_bytes;
    fit.need_bytes = usage.need_bytes();
    fit.tensor_count = usage.tensor_count;
    fit.has_budget = DeviceHasBudget(board, usage.device);
    if (fit.has_budget) {
      fit.budget_bytes = DeviceBudgetBytes(board);
      fit.fits = fit.need_bytes <= fit.budget_bytes;
    }
    report.fits = report.fits && fit.fits;
    report.devices.push_back(fit);
  }
  return report;
}

struct TensorBytesOnDevice {
  std::string_view name;
  uint64_t resident_bytes = 0;
  Residency residency = Residency::kKeepNativeFloat;
};

// The `count` tensors with the most resident bytes on `device`, largest first.
inline std::vector<TensorBytesOnDevice> LargestTensorsOn(const PlacementPlan& plan,
                                                         const PlanInputs& inputs, DeviceId device,
                                                         size_t count) {
  std::vector<TensorBytesOnDevice> found;
  for (const PlannedTensor& tensor : inputs.tensors) {
    const TensorDecision decision = DecideTensor(plan, tensor, inputs.switches);
    if (decision.device == device) {
      found.push_back({tensor.name, decision.resident_bytes, decision.route.residency});
    }
  }
  const size_t keep = std::min(count, found.size());
  std::partial_sort(found.begin(), found.begin() + static_cast<long>(keep), found.end(),
                    [](const TensorBytesOnDevice& a, const TensorBytesOnDevice& b) {
                      return a.resident_bytes != b.resident_bytes
                                 ? a.resident_bytes > b.resident_bytes
                                 : a.name < b.name;
                    });
  found.resize(keep);
  return found;
}

}  // namespace vt
