#include <catch2/catch.hpp>

#include "vt/policy/placement.h"

namespace vt {
namespace {

constexpr DeviceId kRocm0{DeviceKind::kRocm, 0};
constexpr DeviceId kCuda0{DeviceKind::kCuda, 0};
constexpr DeviceId kCuda1{DeviceKind::kCuda, 1};

TEST_CASE("a never-installed plan answers its engine device for every tensor",
          "[policy][placement]") {
  PlacementPlan plan = WithHostExpertLayers(NoPlacement(kRocm0), 8, 8, PlacementOrigin::kCpuMoe);
  plan.installed = false;  // resolved, then never installed
  for (const TensorSite site : {TensorSite{3, true, -1}, TensorSite{3, false, -1},
                                TensorSite{-1, false, -1}, TensorSite{3, true, 0}}) {
    CHECK(ComputeDeviceFor(plan, site) == kRocm0);
  }
}

TEST_CASE("an installed plan answers override, then expert device, then layer device",
          "[policy][placement]") {
  PlacementPlan plan = WithHostExpertLayers(NoPlacement(kCuda0), 4, 2, PlacementOrigin::kNCpuMoe);
  plan.layer_device = {kCuda0, kCuda0, kCuda1, kCuda1};
  auto rule = ParseOverrideRule("blk\\.3\\.ffn_up_exps=cpu");
  REQUIRE(rule.rule.has_value());
  plan.overrides.push_back(*rule.rule);

  struct Row {
    const char* what;
    TensorSite site;
    DeviceId expected;
  };
  const Row rows[] = {
      {"expert of a host layer", {1, true, -1}, kHostDevice},
      {"attention of a host-expert layer", {1, false, -1}, kCuda0},
      {"expert of an unplaced layer follows its layer", {2, true, -1}, kCuda1},
      {"attention of layer 3", {3, false, -1}, kCuda1},
      {"an override wins over the layer", {3, true, 0}, kHostDevice},
      {"a global tensor", {-1, false, -1}, kCuda0},
      {"a layer past the plan's tables", {40, true, -1}, kCuda0},
  };
  for (const Row& row : rows) {
    CAPTURE(row.what);
    CHECK(ToString(ComputeDeviceFor(plan, row.site)) == ToString(row.expected));
  }
}

TEST_CASE("override rules parse, match the first rule, and report bad input",
          "[policy][placement]") {
  std::vector<OverrideRule> rules;
  for (const char* text : {"ffn_(up|down)_exps=CPU", "exps=cuda:1", "attn=cuda0"}) {
    OverrideParse parsed = ParseOverrideRule(text);
    REQUIRE(parsed.rule.has_value());
    rules.push_back(*parsed.rule);
  }
  CHECK(FirstMatchingOverride(rules, "blk.4.ffn_up_exps.weight") == 0);
  CHECK(FirstMatchingOverride(rules, "blk.4.ffn_gate_exps.weight") == 1);
  CHECK(FirstMatchingOverride(rules, "blk.4.attn_q.weight") == 2);
  CHECK(FirstMatchingOverride(rules, "token_embd.weight") == -1);
  CHECK(rules[1].device == kCuda1);

  CHECK_THAT(ParseOverrideRule("exps").error, Catch::Contains("is not REGEX=DEVICE"));
  CHECK_THAT(ParseOverrideRule("=cpu").error, Catch::Contains("is not REGEX=DEVICE"));
  CHECK_THAT(ParseOverrideRule("exps=gpu").error, Catch::Contains("'gpu' in 'exps=gpu' is not a device"));
  CHECK_THAT(ParseOverrideRule("ffn_(up=cpu").error,
             Catch::Contains("'ffn_(up' is not a valid regular expression"));
}

TEST_CASE("n-cpu-moe places the first N layers' experts on the host", "[policy][placement]") {
  const PlacementPlan plan = WithHostExpertLayers(NoPlacement(kRocm0), 6, 4, PlacementOrigin::kNCpuMoe);
  CHECK(plan.installed);
  CHECK(plan.host_expert_layers == 4);
  for (int32_t layer = 0; layer < 6; ++layer) {
    CAPTURE(layer);
    CHECK(ComputeDeviceFor(plan, {layer, true, -1}) == (layer < 4 ? kHostDevice : kRocm0));
    CHECK(ComputeDeviceFor(plan, {layer, false, -1}) == kRocm0);
  }
  CHECK(WithHostExpertLayers(NoPlacement(kRocm0), 6, 99, PlacementOrigin::kCpuMoe).host_expert_layers == 6);
}

TEST_CASE("layers split over devices in proportion to their weights", "[policy][placement]") {
  const auto split = SplitLayersByWeight(10, {kCuda0, kCuda1}, {1.0, 1.0});
  REQUIRE(split.size() == 10);
  for (uint32_t layer = 0; layer < 10; ++layer) {
    CHECK(split[layer] == (layer < 5 ? kCuda0 : kCuda1));
  }
  const auto uneven = SplitLayersByWeight(8, {kCuda0, kCuda1}, {3.0, 1.0});
  CHECK(std::count(uneven.begin(), uneven.end(), kCuda0) == 6);
  CHECK(uneven.back() == kCuda1);
}

}  // namespace
}  // namespace vt
