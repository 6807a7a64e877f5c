// Reading model headers: the first step of every `vt plan`. Times opening,
// mapping and validating whole models, split sets included.
//
// Corpus: $VT_CORPUS_DIR, else ../shared/corpus beside the source tree.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>

#include "vt/runtime/gguf_model.h"

namespace {

std::filesystem::path CorpusDir() {
  if (const char* dir = std::getenv("VT_CORPUS_DIR"); dir != nullptr && *dir != '\0') return dir;
  return std::filesystem::path(VT_SOURCE_DIR).parent_path() / "shared" / "corpus";
}

void OpenModel(benchmark::State& state, const char* relative_path, bool header_only) {
  const std::filesystem::path path = CorpusDir() / relative_path;
  if (!std::filesystem::exists(path)) {
    state.SkipWithError(("corpus file absent: " + path.string()).c_str());
    return;
  }
  vt::GgufReadOptions options;
  options.allow_missing_data = header_only;
  size_t tensors = 0;
  for (auto _ : state) {
    const vt::GgufModel model = vt::GgufModel::Open(path, options);
    tensors = model.tensors().size();
    benchmark::DoNotOptimize(tensors);
  }
  state.counters["tensors"] = static_cast<double>(tensors);
  state.counters["tensors_per_s"] =
      benchmark::Counter(static_cast<double>(tensors), benchmark::Counter::kIsIterationInvariantRate);
}

// The figure: the 6-shard DeepSeek-V3-shaped model, 1086 tensors.
BENCHMARK_CAPTURE(OpenModel, deepseek_v3_6_shards,
                  "scale/deepseek-v3-shaped-ud-iq1s-00001-of-00006.gguf", true)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(OpenModel, qwen3_235b_3_shards,
                  "scale/qwen3-235b-a22b-shaped-q4km-00001-of-00003.gguf", true)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(OpenModel, gpt_oss_120b, "scale/gpt-oss-120b-shaped-mxfp4.gguf", true)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(OpenModel, tiny_llama_with_data, "tiny/tiny-llama-q4km.gguf", false)
    ->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
