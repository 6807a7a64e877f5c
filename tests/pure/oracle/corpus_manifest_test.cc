// vt's reading of every corpus file equals ggml's own reading of it, as
// recorded field by field in manifest.jsonl.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "test_paths.h"
#include "vt/runtime/gguf_model.h"

namespace vt {
namespace {

struct ManifestEntry {
  nlohmann::json json;
  std::filesystem::path path;
  bool header_only;  // scale/ files carry no data region
};

std::vector<ManifestEntry> ReadManifest(const std::filesystem::path& corpus) {
  std::vector<ManifestEntry> entries;
  std::ifstream in(corpus / "manifest.jsonl");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    ManifestEntry entry;
    entry.json = nlohmann::json::parse(line);
    const std::string file = entry.json.at("file");
    entry.header_only = !std::filesystem::exists(corpus / "tiny" / file);
    entry.path = corpus / (entry.header_only ? "scale" : "tiny") / file;
    entries.push_back(std::move(entry));
  }
  return entries;
}

TEST_CASE("every corpus file reads as ggml read it", "[oracle][corpus]") {
  const auto corpus = testing::CorpusDir();
  if (!corpus) {
    WARN("corpus absent: nothing checked");
    return;
  }
  const std::vector<ManifestEntry> entries = ReadManifest(*corpus);
  REQUIRE(entries.size() >= 21);
  size_t tensors_checked = 0;
  for (const ManifestEntry& entry : entries) {
    const nlohmann::json& expected = entry.json;
    CAPTURE(entry.path.string());
    REQUIRE(std::filesystem::exists(entry.path));
    GgufReadOptions options;
    options.allow_missing_data = entry.header_only;
    const GgufFile file = GgufFile::Open(entry.path, options);

    CHECK(file.version() == expected.at("version").get<uint32_t>());
    CHECK(file.alignment() == expected.at("alignment").get<uint64_t>());
    CHECK(file.data_offset() == expected.at("data_offset").get<uint64_t>());
    CHECK(file.metadata().size() == expected.at("n_kv").get<size_t>());
    CHECK(file.data_offset() + file.data_bytes() == expected.at("full_size").get<uint64_t>());
    CHECK(file.has_data() == !entry.header_only);

    const nlohmann::json& tensors = expected.at("tensors");
    REQUIRE(file.tensors().size() == expected.at("n_tensors").get<size_t>());
    REQUIRE(file.tensors().size() == tensors.size());
    for (size_t i = 0; i < tensors.size(); ++i) {
      const GgufTensorInfo& tensor = file.tensors()[i];
      const nlohmann::json& t = tensors[i];
      CAPTURE(i, t.at("name").get<std::string>());
      CHECK(tensor.name == t.at("name").get<std::string>());
      CHECK(NameOf(tensor.type) == t.at("type").get<std::string>());
      CHECK(static_cast<uint32_t>(tensor.type) == t.at("type_id").get<uint32_t>());
      CHECK(tensor.ne == t.at("ne").get<TensorDims>());
      CHECK(tensor.offset == t.at("offset").get<uint64_t>());
      CHECK(tensor.bytes == t.at("bytes").get<uint64_t>());
      ++tensors_checked;
    }
  }
  CHECK(tensors_checked > 3000);
}

TEST_CASE("every GGUF file in the corpus is in the manifest", "[oracle][corpus]") {
  const auto corpus = testing::CorpusDir();
  if (!corpus) return;
  std::set<std::string> listed;
  for (const ManifestEntry& entry : ReadManifest(*corpus)) listed.insert(entry.json.at("file"));
  for (const char* folder : {"tiny", "scale"}) {
    for (const auto& file : std::filesystem::directory_iterator(*corpus / folder)) {
      if (file.path().extension() == ".gguf") {
        CAPTURE(file.path().string());
        CHECK(listed.count(file.path().filename().string()) == 1);
      }
    }
  }
}

TEST_CASE("header-only corpus files are refused without the header-only option",
          "[oracle][corpus]") {
  const auto corpus = testing::CorpusDir();
  if (!corpus) return;
  const auto path = *corpus / "scale" / "llama-3.1-8b-shaped-f16.gguf";
  CHECK_THROWS_WITH(GgufFile::Open(path), Catch::Contains("past the end of the file") &&
                                              Catch::Contains("header-only"));
}

TEST_CASE("split corpus models open as one table from any shard", "[oracle][corpus][split]") {
  const auto corpus = testing::CorpusDir();
  if (!corpus) return;
  struct SplitSet {
    const char* first_shard;
    const char* last_shard;
    size_t shards;
    size_t tensors;
    bool header_only;
  };
  // Tensor totals from the manifest: the sum of n_tensors over each set.
  const SplitSet sets[] = {
      {"scale/deepseek-v3-shaped-ud-iq1s-00001-of-00006.gguf",
       "scale/deepseek-v3-shaped-ud-iq1s-00006-of-00006.gguf", 6, 1086, true},
      {"scale/qwen3-235b-a22b-shaped-q4km-00001-of-00003.gguf",
       "scale/qwen3-235b-a22b-shaped-q4km-00003-of-00003.gguf", 3, 1131, true},
      {"tiny/tiny-glm-dsa-ud-iq1s-00001-of-00003.gguf",
       "tiny/tiny-glm-dsa-ud-iq1s-00003-of-00003.gguf", 3, 88, false},
      {"tiny/tiny-qwen3moe-q8-00001-of-00002.gguf", "tiny/tiny-qwen3moe-q8-00002-of-00002.gguf",
       2, 39, false},
  };
  for (const SplitSet& set : sets) {
    CAPTURE(set.first_shard);
    GgufReadOptions options;
    options.allow_missing_data = set.header_only;
    const GgufModel from_first = GgufModel::Open(*corpus / set.first_shard, options);
    const GgufModel from_last = GgufModel::Open(*corpus / set.last_shard, options);
    CHECK(from_first.shards().size() == set.shards);
    CHECK(from_first.tensors().size() == set.tensors);
    REQUIRE(from_last.tensors().size() == from_first.tensors().size());
    for (size_t i = 0; i < from_first.tensors().size(); ++i) {
      CHECK(from_first.tensors()[i].name == from_last.tensors()[i].name);
      CHECK(from_first.tensors()[i].shard == from_last.tensors()[i].shard);
    }
    CHECK(from_first.metadata().Contains("general.architecture"));
  }
}

TEST_CASE("tiny corpus tensors' bytes are readable through the mapping", "[oracle][corpus]") {
  const auto corpus = testing::CorpusDir();
  if (!corpus) return;
  const GgufModel model = GgufModel::Open(*corpus / "tiny" / "tiny-llama-f16-tied.gguf");
  REQUIRE(model.has_data());
  uint64_t total = 0;
  for (const GgufTensorInfo& tensor : model.tensors()) {
    total += model.TensorBytes(tensor).size();
  }
  CHECK(total == model.tensor_bytes());
  CHECK(model.FindTensor("output.weight") == nullptr);  // tied head: no separate output
}

TEST_CASE("the quantization golden file reads, every type of it included",
          "[oracle][golden]") {
  const auto golden = testing::OracleGoldenFile();
  if (!golden) return;
  const GgufFile file = GgufFile::Open(*golden);
  const GgufArray& types = file.metadata().GetArray("oracle.types");
  const uint64_t rows = file.metadata().GetU64("oracle.rows");
  const uint64_t k = file.metadata().GetU64("oracle.k");
  REQUIRE(types.strings.size() == types.count);
  for (std::string_view type_name : types.strings) {
    CAPTURE(type_name);
    const auto type = GgmlTypeFromName(type_name);
    REQUIRE(type.has_value());
    const GgufTensorInfo* quantized = file.FindTensor(std::string(type_name) + ".q");
    REQUIRE(quantized != nullptr);
    CHECK(quantized->type == *type);
    CHECK(quantized->ne == TensorDims{static_cast<int64_t>(k), static_cast<int64_t>(rows), 1, 1});
    CHECK(file.FindTensor(std::string(type_name) + ".deq") != nullptr);
  }
}

}  // namespace
}  // namespace vt
