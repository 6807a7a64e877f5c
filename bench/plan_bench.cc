// Reading, routing, placing and fitting a model: everything `vt plan` does
// before it prints. The figure is the 6-shard DeepSeek-V3-shaped
// UD-IQ1_S model on the gfx1151 profile.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>

#include "vt/policy/fit_resolver.h"
#include "vt/runtime/model_plan.h"

namespace {

std::filesystem::path CorpusDir() {
  if (const char* dir = std::getenv("VT_CORPUS_DIR"); dir != nullptr && *dir != '\0') return dir;
  return std::filesystem::path(VT_SOURCE_DIR).parent_path() / "shared" / "corpus";
}

void ReadRoutePlaceFit(benchmark::State& state, const char* relative_path, const char* board_name) {
  const std::filesystem::path path = CorpusDir() / relative_path;
  if (!std::filesystem::exists(path)) {
    state.SkipWithError(("corpus file absent: " + path.string()).c_str());
    return;
  }
  const vt::Board board = *vt::FindBoard(board_name);
  vt::GgufReadOptions options;
  options.allow_missing_data = true;
  uint32_t host_layers = 0;
  uint32_t candidates = 0;
  for (auto _ : state) {
    const vt::GgufModel model = vt::GgufModel::Open(path, options);
    const vt::ModelPlanData data = vt::DescribeForPlanning(model, {});
    vt::FitRequest request;
    request.base = vt::NoPlacement(vt::EngineDeviceOf(board));
    request.inputs = {data.tensors, data.kv, 4096, {}, vt::kGiB};
    request.board = board;
    request.layer_count = data.layer_count;
    const vt::FitResolution fit = vt::ResolveFit(request);
    host_layers = fit.plan.host_expert_layers;
    candidates = fit.candidates_tried;
    benchmark::DoNotOptimize(fit.report.fits);
  }
  state.counters["host_expert_layers"] = host_layers;
  state.counters["candidates"] = candidates;
}

BENCHMARK_CAPTURE(ReadRoutePlaceFit, deepseek_v3_gfx1151,
                  "scale/deepseek-v3-shaped-ud-iq1s-00001-of-00006.gguf", "gfx1151")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ReadRoutePlaceFit, qwen3_235b_rtx24,
                  "scale/qwen3-235b-a22b-shaped-q4km-00001-of-00003.gguf", "rtx24")
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(ReadRoutePlaceFit, gpt_oss_120b_h200, "scale/gpt-oss-120b-shaped-mxfp4.gguf",
                  "h200")
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
