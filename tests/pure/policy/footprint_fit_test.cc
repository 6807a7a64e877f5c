// Footprint, fit check and fit resolver on a synthetic model, including the
// three failures the seeds describe (a placement the fit check ignored, a
// tower routed by the engine's device, a fit sized by on-disk bytes).
#include <catch2/catch.hpp>

#include <numeric>

#include "synthetic_model.h"
#include "vt/policy/refusal.h"

namespace vt {
namespace {

using testing::MakeSyntheticMoe;
using testing::SyntheticModel;
using testing::SyntheticMoeShape;

constexpr DeviceId kRocm0{DeviceKind::kRocm, 0};

PlanInputs InputsFor(const SyntheticModel& model, uint32_t ctx = 1024) {
  PlanInputs inputs;
  inputs.tensors = model.tensors;
  inputs.kv = model.kv;
  inputs.ctx = ctx;
  inputs.compute_reserve_bytes = 64 * kMiB;
  return inputs;
}

// A board like gfx1151 with a budget of `budget` bytes.
Board RocmBoard(uint64_t budget) {
  Board board = *FindBoard("gfx1151");
  board.memory.total_bytes = budget;
  board.memory.measured_managed_ceiling_bytes = std::nullopt;
  board.margin_bytes = 0;
  return board;
}

// Resident bytes of one tensor on a device of `kind`, computed here from the
// route alone.
uint64_t BytesOn(const PlannedTensor& tensor, DeviceKind kind) {
  const Route route = RouteGgufTensor({tensor.cls.role, tensor.type, tensor.ne, CapsOf(kind), {}});
  return route.residency == Residency::kExpandBf16 ? static_cast<uint64_t>(tensor.elements()) * 2
                                                   : tensor.file_bytes;
}

TEST_CASE("footprint: every tensor counted once, on the device that runs it", "[policy][footprint]") {
  const SyntheticModel model = MakeSyntheticMoe({});
  const PlanInputs inputs = InputsFor(model);
  for (uint32_t host_layers : {0u, 3u, 8u}) {
    CAPTURE(host_layers);
    const PlacementPlan plan =
        WithHostExpertLayers(NoPlacement(kRocm0), model.layer_count, host_layers, PlacementOrigin::kNCpuMoe);
    const Footprint footprint = ComputeFootprint(plan, inputs);
    uint64_t counted = 0;
    uint64_t weights = 0;
    for (const DeviceUsage& usage : footprint.devices) {
      counted += usage.tensor_count;
      weights += usage.weights_bytes;
    }
    CHECK(counted == model.tensors.size());
    uint64_t expected_weights = 0;
    uint64_t expected_host = 0;
    uint32_t expected_placed = 0;
    for (const PlannedTensor& tensor : model.tensors) {
      const bool on_host = tensor.cls.routed_expert && tensor.cls.layer < static_cast<int32_t>(host_layers);
      const uint64_t bytes = BytesOn(tensor, on_host ? DeviceKind::kCpu : DeviceKind::kRocm);
      expected_weights += bytes;
      if (on_host) {
        expected_host += bytes;
        ++expected_placed;
      }
    }
    CHECK(weights == expected_weights);
    CHECK(footprint.placed_tensor_count == expected_placed);
    CHECK(footprint.placed_bytes == expected_host);
    if (host_layers > 0) {
      REQUIRE(footprint.Find(kHostDevice) != nullptr);
      CHECK(footprint.Find(kHostDevice)->weights_bytes == expected_host);
      CHECK(footprint.Find(kHostDevice)->reserve_bytes == 0);
    }
    CHECK(footprint.devices.front().device == kRocm0);
    CHECK(footprint.devices.front().kv_bytes == KvBytes(model.kv, 1024));
    CHECK(footprint.devices.front().reserve_bytes == 64 * kMiB);
  }
}

TEST_CASE("seed failure (a): with cpu-moe the device need leaves out every expert tower",
          "[policy][seed]") {
  const SyntheticModel model = MakeSyntheticMoe({});
  const PlanInputs inputs = InputsFor(model);
  const PlacementPlan unplaced = NoPlacement(kRocm0);
  const PlacementPlan cpu_moe =
      WithHostExpertLayers(unplaced, model.layer_count, model.layer_count, PlacementOrigin::kCpuMoe);
  const uint64_t before = ComputeFootprint(unplaced, inputs).Find(kRocm0)->weights_bytes;
  const Footprint after = ComputeFootprint(cpu_moe, inputs);
  uint64_t non_expert = 0;
  for (const PlannedTensor& tensor : model.tensors) {
    if (!tensor.cls.routed_expert) non_expert += BytesOn(tensor, DeviceKind::kRocm);
  }
  CHECK(after.Find(kRocm0)->weights_bytes == non_expert);
  CHECK(after.Find(kRocm0)->weights_bytes < before);
  CHECK(after.placed_tensor_count == 3 * (model.layer_count - 1));

  // The refusal states what the placement took out.
  const FitReport report = CheckFit(after, RocmBoard(non_expert / 2));
  REQUIRE_FALSE(report.fits);
  const RefusalInputs refusal{&cpu_moe, &inputs, &after, &report, nullptr, model.layer_count, 3};
  CHECK_THAT(DescribeRefusal(refusal),
             Catch::Contains("the placement (cpu-moe) already took out 21 tensors"));
}

TEST_CASE("seed failure (b): a host-placed IQ1_S tower keeps its blocks, an unplaced one expands",
          "[policy][seed]") {
  const SyntheticModel model = MakeSyntheticMoe({});
  const PlacementPlan plan =
      WithHostExpertLayers(NoPlacement(kRocm0), model.layer_count, 4, PlacementOrigin::kNCpuMoe);
  const auto find = [&](std::string_view name) -> const PlannedTensor& {
    for (const PlannedTensor& tensor : model.tensors) {
      if (tensor.name == name) return tensor;
    }
    FAIL("no tensor " << name);
    return model.tensors.front();
  };
  const TensorDecision placed = DecideTensor(plan, find("blk.3.ffn_gate_exps.weight"), {});
  CHECK(placed.device == kHostDevice);
  CHECK(placed.route.residency == Residency::kKeepQuantBlocks);
  const TensorDecision kept_on_device = DecideTensor(plan, find("blk.4.ffn_gate_exps.weight"), {});
  CHECK(kept_on_device.device == kRocm0);
  CHECK(kept_on_device.route.residency == Residency::kExpandBf16);
  CHECK(kept_on_device.resident_bytes == 1024ull * 512 * 16 * 2);
}

TEST_CASE("seed failure (c): the fit sizes a tower left on the device expanded", "[policy][seed]") {
  const SyntheticModel model = MakeSyntheticMoe({});
  const PlanInputs inputs = InputsFor(model);
  // Budget: everything but the experts of the last layer fits on the device,
  // when that layer's towers are counted *expanded*. By on-disk bytes, far
  // fewer host layers would seem enough.
  const PlacementPlan seven = WithHostExpertLayers(NoPlacement(kRocm0), 8, 7, PlacementOrigin::kNCpuMoe);
  const uint64_t budget = ComputeFootprint(seven, inputs).Find(kRocm0)->need_bytes();

  FitRequest request;
  request.base = NoPlacement(kRocm0);
  request.inputs = inputs;
  request.board = RocmBoard(budget);
  request.layer_count = model.layer_count;
  const FitResolution fit = ResolveFit(request);
  REQUIRE(fit.fits);
  CHECK(fit.plan.host_expert_layers == 7);
  CHECK(fit.plan.origin == PlacementOrigin::kFit);
  CHECK(fit.ctx == 1024);

  // A fit by on-disk bytes would have stopped earlier: with 6 host layers
  // the device's file bytes alone are under budget.
  uint64_t disk_bytes_six = 0;
  for (const PlannedTensor& tensor : model.tensors) {
    if (!(tensor.cls.routed_expert && tensor.cls.layer < 6)) disk_bytes_six += tensor.file_bytes;
  }
  CHECK(disk_bytes_six + KvBytes(model.kv, 1024) + 64 * kMiB <= budget);
}

TEST_CASE("the resolver returns the fewest host layers: one fewer does not fit", "[policy][fit]") {
  const SyntheticModel model = MakeSyntheticMoe({});
  const PlanInputs inputs = InputsFor(model);
  const uint64_t full = ComputeFootprint(NoPlacement(kRocm0), inputs).Find(kRocm0)->need_bytes();
  for (uint64_t budget = full / 8; budget <= full + kMiB; budget += full / 16) {
    CAPTURE(budget);
    FitRequest request;
    request.base = NoPlacement(kRocm0);
    request.inputs = inputs;
    request.board = RocmBoard(budget);
    request.layer_count = model.layer_count;
    const FitResolution fit = ResolveFit(request);
    if (!fit.fits) continue;
    const uint32_t n = fit.plan.host_expert_layers;
    CHECK(fit.report.fits);
    if (fit.ctx == inputs.ctx && n > 0) {
      const PlacementPlan fewer =
          WithHostExpertLayers(NoPlacement(kRocm0), 8, n - 1, PlacementOrigin::kNCpuMoe);
      CHECK_FALSE(CheckFit(ComputeFootprint(fewer, inputs), request.board).fits);
    }
  }
}

TEST_CASE("the resolver shortens the context only when every expert is on the host",
          "[policy][fit]") {
  SyntheticModel model = MakeSyntheticMoe({});
  PlanInputs inputs = InputsFor(model, 32768);
  const PlacementPlan all = WithHostExpertLayers(NoPlacement(kRocm0), 8, 8, PlacementOrigin::kCpuMoe);
  PlanInputs short_inputs = inputs;
  short_inputs.ctx = 8192;
  const uint64_t budget = ComputeFootprint(all, short_inputs).Find(kRocm0)->need_bytes();

  FitRequest request;
  request.base = NoPlacement(kRocm0);
  request.inputs = inputs;
  request.board = RocmBoard(budget);
  request.layer_count = 8;
  const FitResolution fit = ResolveFit(request);
  REQUIRE(fit.fits);
  CHECK(fit.plan.host_expert_layers == 8);
  CHECK(fit.ctx == 8192);  // the longest multiple of 256 that fits
  CHECK(FlagsFor(fit, 8, 32768) == "--cpu-moe --ctx 8192");

  request.board = RocmBoard(budget / 100);  // nothing fits
  const FitResolution none = ResolveFit(request);
  CHECK_FALSE(none.fits);
  CHECK(none.ctx == 512);
}

TEST_CASE("the resolver honours a tensor the user pinned to the device", "[policy][fit]") {
  const SyntheticModel base_model = MakeSyntheticMoe({});
  std::vector<OverrideRule> overrides = {*ParseOverrideRule("blk\\.1\\.ffn_.*_exps=rocm0").rule};
  std::vector<PlannedTensor> tensors = base_model.tensors;
  for (PlannedTensor& tensor : tensors) tensor.override_rule = FirstMatchingOverride(overrides, tensor.name);
  PlanInputs inputs = InputsFor(base_model);
  inputs.tensors = tensors;
  PlacementPlan base = NoPlacement(kRocm0);
  base.overrides = overrides;
  const PlacementPlan all = WithHostExpertLayers(base, 8, 8, PlacementOrigin::kCpuMoe);
  const uint64_t budget = ComputeFootprint(all, inputs).Find(kRocm0)->need_bytes();

  FitRequest request{base, inputs, RocmBoard(budget), 8, 512};
  const FitResolution fit = ResolveFit(request);
  REQUIRE(fit.fits);
  CHECK(fit.plan.host_expert_layers == 8);
  for (const PlannedTensor& tensor : tensors) {
    if (tensor.cls.routed_expert && tensor.cls.layer == 1) {
      CHECK(ComputeDeviceFor(fit.plan, tensor.site()) == kRocm0);
    }
  }
}

TEST_CASE("a refusal names the bytes, the budget, the largest tensors and the fix",
          "[policy][fit]") {
  const SyntheticModel model = MakeSyntheticMoe({});
  const PlanInputs inputs = InputsFor(model);
  const PlacementPlan plan = NoPlacement(kRocm0);
  const Footprint footprint = ComputeFootprint(plan, inputs);
  const uint64_t need = footprint.Find(kRocm0)->need_bytes();
  const Board board = RocmBoard(need / 2);
  const FitReport report = CheckFit(footprint, board);
  REQUIRE_FALSE(report.fits);
  FitRequest request{plan, inputs, board, model.layer_count, 512};
  const FitResolution suggestion = ResolveFit(request);
  REQUIRE(suggestion.fits);
  const RefusalInputs refusal{&plan, &inputs, &footprint, &report, &suggestion, 8, 3};
  const std::string text = DescribeRefusal(refusal);
  CHECK_THAT(text, Catch::StartsWith("does not fit: rocm:0 needs " + std::to_string(need) + " bytes ("));
  CHECK_THAT(text, Catch::Contains("against a budget of " + std::to_string(need / 2) + " bytes"));
  CHECK_THAT(text, Catch::Contains("nothing is placed off rocm:0"));
  CHECK_THAT(text, Catch::Contains("largest on rocm:0:\n    blk.1.ffn_down_exps.weight  16.00 MiB  expand-bf16"));
  CHECK_THAT(text, Catch::Contains("smallest change that fits: --n-cpu-moe " +
                                   std::to_string(suggestion.plan.host_expert_layers)));
  CHECK(DescribeRefusal({&plan, &inputs, &footprint, &suggestion.report, nullptr, 8, 3}).empty());
}

}  // namespace
}  // namespace vt
