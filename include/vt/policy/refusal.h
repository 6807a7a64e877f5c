// The refusal a person reads when a plan does not fit: the bytes needed (and
// GiB) against the budget, what the placement already took out, the largest
// tensors on the refused device, and the smallest placement change that fits
// (from the resolver), or why none does. Pure.
#pragma once

#include <string>

#include "vt/policy/fit_resolver.h"

namespace vt {

struct RefusalInputs {
  const PlacementPlan* plan = nullptr;
  const PlanInputs* inputs = nullptr;
  const Footprint* footprint = nullptr;
  const FitReport* report = nullptr;
  // The resolver's answer from the same starting point; its flags are the
  // suggestion.
  const FitResolution* suggestion = nullptr;
  uint32_t expert_layer_end = 0;
  size_t largest_count = 5;
};

// Empty when the report fits.
inline std::string DescribeRefusal(const RefusalInputs& in) {
  const DeviceFit* refused = in.report->FirstRefused();
  if (refused == nullptr) return {};
  const std::string device = ToString(refused->device);
  std::string text = "does not fit: " + device + " needs " +
                     FormatBytesExact(refused->need_bytes) + " = weights " +
                     FormatBytes(refused->weights_bytes) + " + KV " +
                     FormatBytes(refused->kv_bytes) + " + reserve " +
                     FormatBytes(refused->reserve_bytes) + ", against a budget of " +
                     FormatBytesExact(refused->budget_bytes) + "\n";

  if (in.footprint->placed_tensor_count > 0) {
    text += "  the placement (" + std::string(NameOf(in.plan->origin)) + ") already took out " +
            std::to_string(in.footprint->placed_tensor_count) + " tensors, " +
            FormatBytes(in.footprint->placed_engine_bytes) + " as " +
            ToString(in.plan->engine_device) + " would hold them\n";
  } else {
    text += "  nothing is placed off " + ToString(in.plan->engine_device) + "\n";
  }

  text += "  largest on " + device + ":";
  for (const TensorBytesOnDevice& tensor :
       LargestTensorsOn(*in.plan, *in.inputs, refused->device, in.largest_count)) {
    text += "\n    " + std::string(tensor.name) + "  " + FormatBytes(tensor.resident_bytes) +
            "  " + std::string(NameOf(tensor.residency));
  }
  text += "\n";

  if (in.suggestion == nullptr) return text;
  if (in.suggestion->fits) {
    const std::string flags =
        FlagsFor(*in.suggestion, in.expert_layer_end, in.inputs->ctx);
    text += "  smallest change that fits: " + (flags.empty() ? std::string("none needed") : flags) +
            "\n";
  } else if (const DeviceFit* still = in.suggestion->report.FirstRefused(); still != nullptr) {
    text += "  nothing fits: with every routed expert on the host and a context of " +
            std::to_string(in.suggestion->ctx) + ", " + ToString(still->device) + " still needs " +
            FormatBytes(still->need_bytes) + " against " + FormatBytes(still->budget_bytes) + "\n";
  }
  return text;
}

}  // namespace vt
