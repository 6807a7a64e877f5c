// The footprint of a plan: for every device, the resident bytes of the
// tensors it executes, its KV cache and its compute reserve.
//
// Each tensor is decided once, by DecideTensor: the device from
// ComputeDeviceFor, the route from RouteGgufTensor with *that* device's
// capability, the bytes from ResidentBytes. A tensor the plan moved off the
// engine device leaves the engine's bound and is counted (count and bytes)
// where it went. Pure.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "vt/policy/device_caps.h"
#include "vt/policy/kv_cache.h"
#include "vt/policy/placement.h"
#include "vt/policy/route.h"
#include "vt/policy/tensor_role.h"

namespace vt {

// One tensor as the planner needs it: identity, type, shape, file bytes and
// its class and override match (computed once when the model is read).
struct PlannedTensor {
  std::string_view name;
  GgmlType type = GgmlType::kF32;
  TensorDims ne = {1, 1, 1, 1};
  uint64_t file_bytes = 0;
  TensorClass cls;
  int32_t override_rule = -1;

  TensorSite site() const { return {cls.layer, cls.routed_expert, override_rule}; }
  int64_t elements() const { return ne[0] * ne[1] * ne[2] * ne[3]; }
};

struct TensorDecision {
  DeviceId device;
  Route route;
  uint64_t resident_bytes = 0;
  bool placed = false;  // the plan moved it off the engine device
};

inline TensorDecision DecideTensor(const PlacementPlan& plan, const PlannedTensor& tensor,
                                   const RouteSwitches& switches) {
  TensorDecision decision;
  decision.device = ComputeDeviceFor(plan, tensor.site());
  decision.route = RouteGgufTensor(
      RouteInputs{tensor.cls.role, tensor.type, tensor.ne, CapsOf(decision.device.kind), switches});
  decision.resident_bytes =
      ResidentBytes(decision.route.residency, tensor.file_bytes, tensor.elements());
  decision.placed = decision.device != plan.engine_device;
  return decision;
}

// What the planner needs besides the plan.
struct PlanInputs {
  std::span<const PlannedTensor> tensors;
  KvCacheShape kv;
  uint32_t ctx = 0;
  RouteSwitches switches;
  uint64_t compute_reserve_bytes = 0;  // per accelerator, for activations and workspaces
};

struct DeviceUsage {
  DeviceId device;
  uint64_t weights_bytes = 0;
  uint32_t tensor_count = 0;
  uint64_t kv_bytes = 0;
  uint64_t reserve_bytes = 0;
  uint32_t placed_in_count = 0;  // tensors placed here off the engine device
  uint64_t placed_in_bytes = 0;

  uint64_t need_bytes() const { return weights_bytes + kv_bytes + reserve_bytes; }
};

struct Footprint {
  std::vector<DeviceUsage> devices;  // engine device first, the host last
  uint32_t placed_tensor_count = 0;  // tensors moved off the engine device
  uint64_t placed_bytes = 0;         // their resident bytes where they went
  // What those tensors would take on the engine device, routed for it: the
  // bytes the placement took out of the engine's bound.
  uint64_t placed_engine_bytes = 0;

  const DeviceUsage* Find(DeviceId device) const {
    for (const DeviceUsage& usage : devices) {
      if (usage.device == device) return &usage;
    }
    return nullptr;
  }
};

namespace footprint_detail {
inline DeviceUsage& UsageFor(Footprint& footprint, DeviceId device) {
  for (DeviceUsage& usage : footprint.devices) {
    if (usage.device == device) return usage;
  }
  footprint.devices.push_back(DeviceUsage{device});
  return footprint.devices.back();
}
}  // namespace footprint_detail

inline Footprint ComputeFootprint(const PlacementPlan& plan, const PlanInputs& inputs) {
  using footprint_detail::UsageFor;
  Footprint footprint;
  UsageFor(footprint, plan.engine_device);
  for (const PlannedTensor& tensor : inputs.tensors) {
    const TensorDecision decision = DecideTensor(plan, tensor, inputs.switches);
    DeviceUsage& usage = UsageFor(footprint, decision.device);
    usage.weights_bytes += decision.resident_bytes;
    usage.tensor_count += 1;
    if (decision.placed) {
      usage.placed_in_count += 1;
      usage.placed_in_bytes += decision.resident_bytes;
      footprint.placed_tensor_count += 1;
      footprint.placed_bytes += decision.resident_bytes;
      const Route engine_route =
          RouteGgufTensor(RouteInputs{tensor.cls.role, tensor.type, tensor.ne,
                                      CapsOf(plan.engine_device.kind), inputs.switches});
      footprint.placed_engine_bytes +=
          ResidentBytes(engine_route.residency, tensor.file_bytes, tensor.elements());
    }
  }
  for (uint32_t layer = 0; layer < inputs.kv.n_layers; ++layer) {
    const DeviceId device = LayerDeviceFor(plan, static_cast<int32_t>(layer));
    UsageFor(footprint, device).kv_bytes += KvBytesForLayer(inputs.kv, layer, inputs.ctx);
  }
  for (DeviceUsage& usage : footprint.devices) {
    if (!usage.device.IsHost()) usage.reserve_bytes = inputs.compute_reserve_bytes;
  }
  // Host last, so reports read accelerator first.
  std::stable_partition(footprint.devices.begin(), footprint.devices.end(),
                        [](const DeviceUsage& usage) { return !usage.device.IsHost(); });
  return footprint;
}

}  // namespace vt
