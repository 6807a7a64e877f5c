#include "plan_report.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

namespace vt::cli {
namespace {

// The plan the operator's flags describe, before any fitting.
PlacementPlan BasePlan(const PlanSetup& setup, const ModelPlanData& data) {
  PlacementPlan plan = NoPlacement(EngineDeviceOf(setup.board));
  if (setup.board.kind != DeviceKind::kCpu && setup.board.device_count > 1) {
    std::vector<DeviceId> devices;
    std::vector<double> weights;
    for (uint8_t i = 0; i < setup.board.device_count; ++i) {
      devices.push_back({setup.board.kind, i});
      weights.push_back(1.0);  // identical devices: equal shares
    }
    plan.layer_device = SplitLayersByWeight(data.layer_count, devices, weights);
    plan.installed = true;
    plan.origin = PlacementOrigin::kLayerSplit;
  }
  if (!setup.overrides.empty()) {
    plan.overrides = setup.overrides;
    plan.installed = true;
    if (plan.origin == PlacementOrigin::kNone) plan.origin = PlacementOrigin::kOverrides;
  }
  if (setup.cpu_moe) {
    plan = WithHostExpertLayers(plan, data.layer_count, data.layer_count, PlacementOrigin::kCpuMoe);
  } else if (setup.n_cpu_moe) {
    plan = WithHostExpertLayers(plan, data.layer_count, *setup.n_cpu_moe, PlacementOrigin::kNCpuMoe);
  }
  return plan;
}

std::string PlacementFlags(const PlacementPlan& plan, uint32_t expert_end) {
  if (plan.host_expert_layers == 0) return "";
  if (plan.host_expert_layers >= expert_end) return "--cpu-moe";
  return "--n-cpu-moe " + std::to_string(plan.host_expert_layers);
}

void Accumulate(std::vector<TensorGroup>& groups, const std::string& key, const std::string& device,
                const std::string& detail, const PlannedTensor& tensor,
                const TensorDecision& decision) {
  auto found = std::find_if(groups.begin(), groups.end(), [&](const TensorGroup& group) {
    return group.key == key && group.device == device && group.detail == detail;
  });
  if (found == groups.end()) {
    groups.push_back({key, device, detail});
    found = groups.end() - 1;
  }
  found->count += 1;
  found->file_bytes += tensor.file_bytes;
  found->resident_bytes += decision.resident_bytes;
}

}  // namespace

PlanReport BuildPlanReport(const GgufModel& model, const PlanSetup& setup) {
  PlanReport report;
  for (const GgufFile& shard : model.shards()) {
    report.files.push_back(std::filesystem::path(shard.path()).filename().string());
    report.file_bytes += shard.data_offset() + shard.data_bytes();
  }
  report.header_only = !model.has_data();
  if (const GgufValue* name = model.metadata().Find("general.name");
      name != nullptr && name->type() == GgufValueType::kString) {
    report.model_name = std::string(std::get<std::string_view>(name->storage));
  }
  report.data = DescribeForPlanning(model, setup.overrides);
  report.architecture = report.data.architecture;
  report.layer_count = report.data.layer_count;
  report.trained_ctx = report.data.kv.trained_context;
  report.board = setup.board;
  report.board_is_default = setup.board_is_default;
  report.board_flags = setup.board_flags;
  report.memory_policy = DecideMemoryPolicy(setup.board.memory, setup.board.margin_bytes);
  report.override_texts = setup.override_texts;
  report.fit_requested = setup.fit;

  const uint32_t default_ctx =
      report.trained_ctx > 0 ? std::min<uint32_t>(4096, report.trained_ctx) : 4096;
  const uint32_t wanted_ctx = setup.ctx.value_or(default_ctx);
  const uint32_t expert_end = ExpertLayerEnd(report.data.tensors);
  const PlacementPlan base = BasePlan(setup, report.data);
  const PlanInputs inputs{report.data.tensors, report.data.kv, wanted_ctx, setup.switches,
                          setup.reserve_bytes};
  FitRequest request{base, inputs, setup.board, report.layer_count, std::min(512u, wanted_ctx)};
  if (setup.fit) {
    const FitResolution resolution = ResolveFit(request);
    report.plan = resolution.plan;
    report.ctx = resolution.ctx;
  } else {
    report.plan = base;
    report.ctx = wanted_ctx;
  }
  report.placement_flags = PlacementFlags(report.plan, expert_end);
  if (report.ctx != default_ctx) {
    report.placement_flags += (report.placement_flags.empty() ? "" : " ") + std::string("--ctx ") +
                              std::to_string(report.ctx);
  }

  PlanInputs final_inputs = inputs;
  final_inputs.ctx = report.ctx;
  report.footprint = ComputeFootprint(report.plan, final_inputs);
  report.fit = CheckFit(report.footprint, setup.board);
  report.decisions.reserve(report.data.tensors.size());
  for (const PlannedTensor& tensor : report.data.tensors) {
    const TensorDecision decision = DecideTensor(report.plan, tensor, setup.switches);
    report.decisions.push_back(decision);
    const std::string device = ToString(decision.device);
    const std::string role(NameOf(tensor.cls.role));
    Accumulate(report.by_role, role, device, "", tensor, decision);
    Accumulate(report.by_type, std::string(NameOf(tensor.type)), "", "", tensor, decision);
    Accumulate(report.by_reason, role, device,
               std::string(NameOf(decision.route.residency)) + ": " +
                   std::string(Describe(decision.route.reason)),
               tensor, decision);
  }
  std::stable_sort(report.by_type.begin(), report.by_type.end(),
                   [](const TensorGroup& a, const TensorGroup& b) {
                     return a.resident_bytes > b.resident_bytes;
                   });

  if (!report.fit.fits) {
    FitResolution suggestion;
    const bool could_suggest = !setup.fit;
    if (could_suggest) {
      suggestion = ResolveFit(request);
      if (suggestion.fits) report.suggestion_flags = FlagsFor(suggestion, expert_end, wanted_ctx);
    }
    const RefusalInputs refusal{&report.plan, &final_inputs, &report.footprint, &report.fit,
                                could_suggest ? &suggestion : nullptr, expert_end, 5};
    report.refusal = DescribeRefusal(refusal);
  }
  return report;
}

std::string ReproduceCommand(const PlanReport& report, const std::string& model_argument) {
  std::string command = "vt plan " + model_argument;
  if (!report.board_flags.empty()) command += " " + report.board_flags;
  for (const std::string& rule : report.override_texts) command += " --override-tensor '" + rule + "'";
  if (!report.placement_flags.empty()) command += " " + report.placement_flags;
  return command;
}

}  // namespace vt::cli
