// Everything `vt plan` reports, computed once; the text, JSON and SVG views
// render this one struct, so they cannot show different numbers.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "vt/policy/board.h"
#include "vt/policy/refusal.h"
#include "vt/runtime/model_plan.h"

namespace vt::cli {

// What the operator asked for, parsed and validated.
struct PlanSetup {
  std::string model_path;
  Board board;
  bool board_is_default = false;
  std::string board_flags;  // the flags that choose this board ("--board gfx1151")
  std::vector<OverrideRule> overrides;
  std::vector<std::string> override_texts;
  bool cpu_moe = false;
  std::optional<uint32_t> n_cpu_moe;
  bool fit = false;
  std::optional<uint32_t> ctx;
  uint64_t reserve_bytes = kGiB;
  RouteSwitches switches;
};

// A group of tensors that share a key (a role, a type, or a reason).
struct TensorGroup {
  std::string key;
  std::string device;  // for groups per device; empty otherwise
  std::string detail;  // residency and reason, for --explain
  uint32_t count = 0;
  uint64_t file_bytes = 0;
  uint64_t resident_bytes = 0;
};

struct PlanReport {
  // The model.
  std::vector<std::string> files;
  std::string model_name;
  std::string architecture;
  uint32_t layer_count = 0;
  uint64_t file_bytes = 0;  // full size of every shard, data region included
  bool header_only = false;
  ModelPlanData data;

  // The board and the plan.
  Board board;
  bool board_is_default = false;
  std::string board_flags;
  MemoryPolicy memory_policy;
  PlacementPlan plan;
  uint32_t ctx = 0;
  uint32_t trained_ctx = 0;
  std::vector<std::string> override_texts;
  std::vector<TensorDecision> decisions;  // parallel to data.tensors
  Footprint footprint;
  FitReport fit;

  // Advice.
  bool fit_requested = false;
  std::string placement_flags;  // flags that reproduce the placement shown
  std::string refusal;          // set when the plan does not fit
  std::optional<std::string> suggestion_flags;  // smallest change that fits, if any

  std::vector<TensorGroup> by_role;     // per (role, device)
  std::vector<TensorGroup> by_type;     // per type
  std::vector<TensorGroup> by_reason;   // per (device, role, residency, reason)
};

// Plans `model` as `setup` asks. Never throws for a well-formed model.
PlanReport BuildPlanReport(const GgufModel& model, const PlanSetup& setup);

// The command line that reproduces the report's plan on another machine.
std::string ReproduceCommand(const PlanReport& report, const std::string& model_argument);

void RenderPlanText(const PlanReport& report, bool explain, bool tensors, bool color,
                    std::ostream& out);
void RenderPlanJson(const PlanReport& report, bool tensors, std::ostream& out);
std::string RenderPlanSvg(const PlanReport& report);

}  // namespace vt::cli
