// The planner over every corpus model: every tensor classified and routed
// exactly once, footprints that add up, and the seeds' three failures on the
// DeepSeek-V3-shaped UD-IQ1_S model on the gfx1151 profile.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>

#include "test_paths.h"
#include "vt/policy/fit_resolver.h"
#include "vt/runtime/model_plan.h"

namespace vt {
namespace {

struct CorpusModel {
  const char* path;
  bool header_only;
};

constexpr CorpusModel kModels[] = {
    {"scale/deepseek-v3-shaped-ud-iq1s-00001-of-00006.gguf", true},
    {"scale/qwen3-235b-a22b-shaped-q4km-00001-of-00003.gguf", true},
    {"scale/gpt-oss-120b-shaped-mxfp4.gguf", true},
    {"scale/llama-3.1-70b-shaped-q4km.gguf", true},
    {"scale/llama-3.1-8b-shaped-f16.gguf", true},
    {"tiny/tiny-glm-dsa-ud-iq1s-00001-of-00003.gguf", false},
    {"tiny/tiny-gpt-oss-mxfp4.gguf", false},
    {"tiny/tiny-llama-f16-tied.gguf", false},
    {"tiny/tiny-llama-q4km.gguf", false},
    {"tiny/tiny-qwen3moe-iq.gguf", false},
    {"tiny/tiny-qwen3moe-q8-00001-of-00002.gguf", false},
};

GgufModel OpenCorpusModel(const CorpusModel& model) {
  GgufReadOptions options;
  options.allow_missing_data = model.header_only;
  return GgufModel::Open(*testing::CorpusDir() / model.path, options);
}

TEST_CASE("no corpus tensor is unclaimed, and experts are exactly the *_exps tensors",
          "[oracle][policy]") {
  if (!testing::CorpusDir()) return;
  for (const CorpusModel& entry : kModels) {
    CAPTURE(entry.path);
    const GgufModel model = OpenCorpusModel(entry);
    const ModelPlanData data = DescribeForPlanning(model, {});
    CHECK(data.layer_count > 0);
    for (const PlannedTensor& tensor : data.tensors) {
      CAPTURE(tensor.name);
      CHECK(tensor.cls.role != TensorRole::kUnclaimed);
      CHECK(tensor.cls.routed_expert == (tensor.name.find("_exps.") != std::string_view::npos));
    }
  }
}

TEST_CASE("every corpus tensor is routed once and footprints add up on every board",
          "[oracle][policy]") {
  if (!testing::CorpusDir()) return;
  for (const CorpusModel& entry : kModels) {
    const GgufModel model = OpenCorpusModel(entry);
    const ModelPlanData data = DescribeForPlanning(model, {});
    for (const Board& board : kBoardProfiles) {
      for (uint32_t host_layers : {0u, data.layer_count / 2, data.layer_count}) {
        CAPTURE(entry.path, board.name, host_layers);
        const PlacementPlan plan = WithHostExpertLayers(
            NoPlacement(EngineDeviceOf(board)), data.layer_count, host_layers, PlacementOrigin::kNCpuMoe);
        PlanInputs inputs{data.tensors, data.kv, 4096, {}, kGiB};
        const Footprint footprint = ComputeFootprint(plan, inputs);
        uint64_t resident = 0;
        std::set<std::string_view> seen;
        for (const PlannedTensor& tensor : data.tensors) {
          resident += DecideTensor(plan, tensor, inputs.switches).resident_bytes;
          seen.insert(tensor.name);
        }
        uint64_t weights = 0;
        uint64_t count = 0;
        for (const DeviceUsage& usage : footprint.devices) {
          weights += usage.weights_bytes;
          count += usage.tensor_count;
        }
        CHECK(seen.size() == data.tensors.size());
        CHECK(count == data.tensors.size());
        CHECK(weights == resident);
      }
    }
  }
}

struct DeepSeek {
  GgufModel model;
  ModelPlanData data;
};

DeepSeek OpenDeepSeek() {
  GgufReadOptions options;
  options.allow_missing_data = true;
  GgufModel model = GgufModel::Open(
      *testing::CorpusDir() / "scale/deepseek-v3-shaped-ud-iq1s-00001-of-00006.gguf", options);
  ModelPlanData data = DescribeForPlanning(model, {});
  return {std::move(model), std::move(data)};
}

constexpr DeviceId kRocm0{DeviceKind::kRocm, 0};

TEST_CASE("seed failure (a) on DeepSeek-V3 UD-IQ1_S, gfx1151: cpu-moe takes every tower out",
          "[oracle][policy][seed]") {
  if (!testing::CorpusDir()) return;
  const DeepSeek ds = OpenDeepSeek();
  const PlanInputs inputs{ds.data.tensors, ds.data.kv, 4096, {}, kGiB};
  const PlacementPlan unplaced = NoPlacement(kRocm0);
  const PlacementPlan cpu_moe =
      WithHostExpertLayers(unplaced, ds.data.layer_count, ds.data.layer_count, PlacementOrigin::kCpuMoe);
  const Footprint before = ComputeFootprint(unplaced, inputs);
  const Footprint after = ComputeFootprint(cpu_moe, inputs);
  uint64_t expert_file_bytes = 0;
  uint32_t expert_tensors = 0;
  for (const PlannedTensor& tensor : ds.data.tensors) {
    if (!tensor.cls.routed_expert) continue;
    expert_file_bytes += tensor.file_bytes;
    ++expert_tensors;
    CHECK(ComputeDeviceFor(cpu_moe, tensor.site()) == kHostDevice);
  }
  CHECK(expert_tensors == 58 * 3);  // 61 layers, 3 dense
  CHECK(after.placed_tensor_count == expert_tensors);
  // The host keeps every tower's blocks: its bytes are the towers' file bytes.
  CHECK(after.Find(kHostDevice)->weights_bytes == expert_file_bytes);
  // The device figure drops by far more than the towers' file bytes, since
  // unplaced on ROCm they would have expanded.
  CHECK(before.Find(kRocm0)->weights_bytes - after.Find(kRocm0)->weights_bytes > 4 * expert_file_bytes);
  const FitReport report = CheckFit(after, *FindBoard("gfx1151"));
  CHECK(report.fits);
}

TEST_CASE("seed failure (b) on DeepSeek-V3: host tower keeps blocks, device tower expands",
          "[oracle][policy][seed]") {
  if (!testing::CorpusDir()) return;
  const DeepSeek ds = OpenDeepSeek();
  const PlacementPlan plan =
      WithHostExpertLayers(NoPlacement(kRocm0), ds.data.layer_count, 4, PlacementOrigin::kNCpuMoe);
  for (const PlannedTensor& tensor : ds.data.tensors) {
    if (tensor.name == "blk.3.ffn_gate_exps.weight") {
      REQUIRE(tensor.type == GgmlType::kIQ1_S);
      const TensorDecision decision = DecideTensor(plan, tensor, {});
      CHECK(decision.device == kHostDevice);
      CHECK(decision.route.residency == Residency::kKeepQuantBlocks);
      CHECK(decision.resident_bytes == tensor.file_bytes);
    }
    if (tensor.name == "blk.4.ffn_gate_exps.weight") {
      const TensorDecision decision = DecideTensor(plan, tensor, {});
      CHECK(decision.device == kRocm0);
      CHECK(decision.route.residency == Residency::kExpandBf16);
      CHECK(decision.resident_bytes == 7168ull * 2048 * 256 * 2);
    }
  }
}

TEST_CASE("seed failure (c) on DeepSeek-V3: --fit on gfx1151 sizes unplaced towers expanded",
          "[oracle][policy][seed]") {
  if (!testing::CorpusDir()) return;
  const DeepSeek ds = OpenDeepSeek();
  FitRequest request;
  request.base = NoPlacement(kRocm0);
  request.inputs = {ds.data.tensors, ds.data.kv, 4096, {}, kGiB};
  request.board = *FindBoard("gfx1151");
  request.layer_count = ds.data.layer_count;
  const FitResolution fit = ResolveFit(request);
  REQUIRE(fit.fits);
  const uint32_t n = fit.plan.host_expert_layers;
  // Each tower left on the device is sized expanded: 2 bytes per element.
  uint32_t device_towers = 0;
  for (const PlannedTensor& tensor : ds.data.tensors) {
    if (!tensor.cls.routed_expert || tensor.cls.layer < static_cast<int32_t>(n)) continue;
    const TensorDecision decision = DecideTensor(fit.plan, tensor, {});
    CHECK(decision.device == kRocm0);
    CHECK(decision.resident_bytes == static_cast<uint64_t>(tensor.elements()) * 2);
    ++device_towers;
  }
  CHECK(device_towers > 0);
  // Minimal: one fewer host layer does not fit.
  const PlacementPlan one_fewer = WithHostExpertLayers(NoPlacement(kRocm0), ds.data.layer_count,
                                                       n - 1, PlacementOrigin::kNCpuMoe);
  CHECK_FALSE(CheckFit(ComputeFootprint(one_fewer, request.inputs), request.board).fits);
  // Sized by on-disk bytes instead, far fewer host layers would have seemed
  // to fit: the 22-of-78 mistake the seed describes.
  const uint64_t budget = DeviceBudgetBytes(request.board);
  uint32_t disk_n = 0;
  for (; disk_n < n; ++disk_n) {
    uint64_t disk_need = KvBytes(ds.data.kv, 4096) + kGiB;
    for (const PlannedTensor& tensor : ds.data.tensors) {
      if (!(tensor.cls.routed_expert && tensor.cls.layer < static_cast<int32_t>(disk_n))) {
        disk_need += tensor.file_bytes;
      }
    }
    if (disk_need <= budget) break;
  }
  CAPTURE(n, disk_n);
  CHECK(disk_n + 10 < n);
}

}  // namespace
}  // namespace vt
