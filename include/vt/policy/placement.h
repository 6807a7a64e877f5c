// The placement plan: which device executes each tensor, and
// ComputeDeviceFor, the one function routing, the loader's peek and the
// footprint all ask, so they cannot disagree about a tensor.
//
// A plan is installed or not. A never-installed plan answers its engine
// device for every tensor. An installed one answers, in order: the first
// override rule whose pattern matches the name (llama.cpp -ot semantics),
// then the layer's routed-expert device for routed-expert tensors, then the
// layer's device, then the engine device.
//
// Pure: std::regex is the only dependency; no environment, no globals.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "vt/policy/device.h"

namespace vt {

enum class PlacementOrigin : uint8_t {
  kNone,        // nothing placed: every tensor on the engine device
  kCpuMoe,      // --cpu-moe: every routed-expert tower on the host
  kNCpuMoe,     // --n-cpu-moe N: routed experts of layers 0..N-1 on the host
  kOverrides,   // --override-tensor rules only
  kFit,         // chosen by the fit resolver
  kLayerSplit,  // layers split across several accelerators
};

constexpr std::string_view NameOf(PlacementOrigin origin) {
  switch (origin) {
    case PlacementOrigin::kNone: return "none";
    case PlacementOrigin::kCpuMoe: return "cpu-moe";
    case PlacementOrigin::kNCpuMoe: return "n-cpu-moe";
    case PlacementOrigin::kOverrides: return "override-tensor";
    case PlacementOrigin::kFit: return "fit";
    case PlacementOrigin::kLayerSplit: return "layer-split";
  }
  return "unknown";
}

// "REGEX=DEVICE": tensors whose name the regex matches (search, as
// llama.cpp does) run on DEVICE.
struct OverrideRule {
  std::string pattern;
  std::regex regex;
  DeviceId device;
};

struct OverrideParse {
  std::optional<OverrideRule> rule;
  std::string error;  // set when rule is empty: names the text and what is wrong
};

// Parses one "REGEX=DEVICE" argument. Never throws: a bad regex or device is
// an error string.
inline OverrideParse ParseOverrideRule(std::string_view text) {
  OverrideParse result;
  const size_t equals = text.rfind('=');
  if (equals == std::string_view::npos || equals == 0 || equals + 1 == text.size()) {
    result.error = std::string("'").append(text).append("' is not REGEX=DEVICE");
    return result;
  }
  const std::string_view device_text = text.substr(equals + 1);
  const std::optional<DeviceId> device = ParseDeviceId(device_text);
  if (!device) {
    result.error = std::string("'")
                       .append(device_text)
                       .append("' in '")
                       .append(text)
                       .append("' is not a device (cpu, cuda, cuda:1, rocm0, ...)");
    return result;
  }
  OverrideRule rule;
  rule.pattern = std::string(text.substr(0, equals));
  try {
    rule.regex = std::regex(rule.pattern, std::regex::ECMAScript | std::regex::optimize);
  } catch (const std::regex_error& error) {
    result.error = std::string("'")
                       .append(rule.pattern)
                       .append("' is not a valid regular expression: ")
                       .append(error.what());
    return result;
  }
  rule.device = *device;
  result.rule = std::move(rule);
  return result;
}

// Index of the first rule whose pattern matches somewhere in `name`; -1 if none.
inline int32_t FirstMatchingOverride(const std::vector<OverrideRule>& rules, std::string_view name) {
  for (size_t i = 0; i < rules.size(); ++i) {
    if (std::regex_search(name.begin(), name.end(), rules[i].regex)) return static_cast<int32_t>(i);
  }
  return -1;
}

struct PlacementPlan {
  bool installed = false;
  DeviceId engine_device = kHostDevice;  // the device the plan was resolved for
  // Per layer: the device running the layer's non-expert tensors (KV cache
  // included). Empty or short: the engine device.
  std::vector<DeviceId> layer_device;
  // Per layer: the device running the layer's routed experts, when placed.
  std::vector<std::optional<DeviceId>> expert_device;
  std::vector<OverrideRule> overrides;  // first match wins
  PlacementOrigin origin = PlacementOrigin::kNone;
  uint32_t host_expert_layers = 0;  // layers whose routed experts run on the host
};

// Where a tensor sits in the model, as placement sees it. override_rule is
// FirstMatchingOverride over the same plan's overrides (computed once per
// tensor, since patterns do not change while a resolver tries plans).
struct TensorSite {
  int32_t layer = -1;
  bool routed_expert = false;
  int32_t override_rule = -1;
};

// The device that executes a tensor under `plan`.
inline DeviceId ComputeDeviceFor(const PlacementPlan& plan, const TensorSite& site) {
  if (!plan.installed) return plan.engine_device;
  if (site.override_rule >= 0 && static_cast<size_t>(site.override_rule) < plan.overrides.size()) {
    return plan.overrides[static_cast<size_t>(site.override_rule)].device;
  }
  if (site.layer >= 0) {
    const auto layer = static_cast<size_t>(site.layer);
    if (site.routed_expert && layer < plan.expert_device.size() && plan.expert_device[layer]) {
      return *plan.expert_device[layer];
    }
    if (layer < plan.layer_device.size()) return plan.layer_device[layer];
  }
  return plan.engine_device;
}

// The device running layer `layer`'s non-expert tensors and its KV cache.
inline DeviceId LayerDeviceFor(const PlacementPlan& plan, int32_t layer) {
  return ComputeDeviceFor(plan, TensorSite{layer, false, -1});
}

// A plan that places nothing.
inline PlacementPlan NoPlacement(DeviceId engine_device) {
  PlacementPlan plan;
  plan.engine_device = engine_device;
  return plan;
}

// Routed experts of layers 0..host_layers-1 on the host (llama.cpp
// --n-cpu-moe N). origin is kCpuMoe when every layer is placed.
inline PlacementPlan WithHostExpertLayers(PlacementPlan plan, uint32_t layer_count,
                                          uint32_t host_layers, PlacementOrigin origin) {
  plan.installed = true;
  plan.origin = origin;
  plan.host_expert_layers = std::min(host_layers, layer_count);
  plan.expert_device.assign(layer_count, std::nullopt);
  for (uint32_t layer = 0; layer < plan.host_expert_layers; ++layer) {
    plan.expert_device[layer] = kHostDevice;
  }
  return plan;
}

// Splits layers over `devices` in proportion to `weights` (e.g. each
// device's budget), contiguous runs in order, like llama.cpp --tensor-split.
// Every device with a positive weight gets at least one layer when there are
// enough layers.
inline std::vector<DeviceId> SplitLayersByWeight(uint32_t layer_count,
                                                 const std::vector<DeviceId>& devices,
                                                 const std::vector<double>& weights) {
  std::vector<DeviceId> layer_device(layer_count, devices.empty() ? kHostDevice : devices[0]);
  double total = 0;
  for (double w : weights) total += w > 0 ? w : 0;
  if (devices.empty() || total <= 0) return layer_device;
  double cumulative = 0;
  uint32_t next_layer = 0;
  for (size_t d = 0; d < devices.size() && d < weights.size(); ++d) {
    cumulative += weights[d] > 0 ? weights[d] : 0;
    const auto end = d + 1 == devices.size()
                         ? layer_count
                         : static_cast<uint32_t>(cumulative / total * layer_count + 0.5);
    for (; next_layer < end && next_layer < layer_count; ++next_layer) {
      layer_device[next_layer] = devices[d];
    }
  }
  return layer_device;
}

}  // namespace vt
