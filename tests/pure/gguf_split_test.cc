// Split models: a set of "-0000N-of-0000M.gguf" shards read as one table.
#include <catch2/catch.hpp>

#include "gguf_builder.h"
#include "vt/runtime/gguf_model.h"

namespace vt {
namespace {

using testing::BuildGguf;
using testing::EncodeScalar;
using testing::GgufSpec;
using testing::KvSpec;
using testing::TempDir;
using testing::WriteFile;

struct SplitKeyValues {
  uint16_t number;
  uint16_t count;
  int32_t tensors_count;
};

// Shard `number` (0-based) of a set: two f32 tensors named after the shard.
GgufSpec ShardSpec(SplitKeyValues keys) {
  GgufSpec spec;
  if (keys.number == 0) spec.kvs.push_back(testing::StringKv("general.architecture", "llama"));
  spec.kvs.push_back({"split.no", 2, EncodeScalar<uint16_t>(keys.number)});
  spec.kvs.push_back({"split.count", 2, EncodeScalar<uint16_t>(keys.count)});
  spec.kvs.push_back({"split.tensors.count", 5, EncodeScalar<int32_t>(keys.tensors_count)});
  const std::string stem = "blk." + std::to_string(keys.number);
  spec.tensors.push_back({stem + ".attn_norm.weight", {4}, 0, 0});
  spec.tensors.push_back({stem + ".ffn_norm.weight", {8}, 0, 32});
  spec.data_bytes = 64;
  return spec;
}

std::filesystem::path ShardPath(const TempDir& dir, int number, int count) {
  char name[64];
  std::snprintf(name, sizeof(name), "model-%05d-of-%05d.gguf", number, count);
  return dir.path() / name;
}

void WriteSet(const TempDir& dir, int count) {
  for (int i = 0; i < count; ++i) {
    const auto spec = ShardSpec({static_cast<uint16_t>(i), static_cast<uint16_t>(count),
                                 2 * count});
    WriteFile(ShardPath(dir, i + 1, count), BuildGguf(spec));
  }
}

TEST_CASE("split names parse and print", "[gguf][split]") {
  const auto name = ParseSplitName("/m/DeepSeek-V3-UD-IQ1_S-00002-of-00006.gguf");
  REQUIRE(name.has_value());
  CHECK(name->prefix == "/m/DeepSeek-V3-UD-IQ1_S");
  CHECK(name->number == 2);
  CHECK(name->count == 6);
  CHECK(name->PathOf(6) == "/m/DeepSeek-V3-UD-IQ1_S-00006-of-00006.gguf");

  for (const char* not_split : {"model.gguf", "model-00001-of-00003.bin", "m-0001-of-00003.gguf",
                                "m-00004-of-00003.gguf", "m-00000-of-00003.gguf",
                                "m-00001-of-0000x.gguf", "-00001-of-00002.gguf"}) {
    CAPTURE(not_split);
    CHECK_FALSE(ParseSplitName(not_split).has_value());
  }
}

TEST_CASE("any shard opens the whole set as one tensor table", "[gguf][split]") {
  TempDir dir;
  WriteSet(dir, 3);
  for (int opened = 1; opened <= 3; ++opened) {
    CAPTURE(opened);
    const GgufModel model = GgufModel::Open(ShardPath(dir, opened, 3));
    REQUIRE(model.shards().size() == 3);
    CHECK(model.shards()[0].path() == ShardPath(dir, 1, 3).string());
    REQUIRE(model.tensors().size() == 6);
    CHECK(model.metadata().GetString("general.architecture") == "llama");
    const GgufTensorInfo* tensor = model.FindTensor("blk.2.ffn_norm.weight");
    REQUIRE(tensor != nullptr);
    CHECK(tensor->shard == 2);
    CHECK(tensor->bytes == 32);
    // The bytes come from shard 3's file: the builder's pattern at offset 32.
    CHECK(model.TensorBytes(*tensor)[0] == std::byte{(32 * 7 + 1) & 0xFF});
    CHECK(model.tensor_bytes() == 3 * (16 + 32));
  }
}

TEST_CASE("a missing shard is named", "[gguf][split]") {
  TempDir dir;
  WriteSet(dir, 3);
  std::filesystem::remove(ShardPath(dir, 2, 3));
  CHECK_THROWS_WITH(GgufModel::Open(ShardPath(dir, 1, 3)),
                    ShardPath(dir, 2, 3).string() + ": shard 2 of 3 is missing (opened from " +
                        ShardPath(dir, 1, 3).string() + ")");
}

TEST_CASE("shards whose split keys disagree with the set are refused", "[gguf][split]") {
  struct Row {
    const char* what;
    int shard;  // 0-based shard to rewrite
    SplitKeyValues keys;
    const char* expected;
  };
  const Row rows[] = {
      {"split.no out of place", 1, {2, 3, 6}, "split.no = 2 but the file is shard 1"},
      {"split.count differs", 2, {2, 4, 6}, "split.count = 4 but 3 shard(s) were found"},
      {"tensor count differs", 0, {0, 3, 7}, "split.tensors.count = 7 but the shards hold 6"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.what);
    TempDir dir;
    WriteSet(dir, 3);
    GgufSpec spec = ShardSpec(row.keys);
    WriteFile(ShardPath(dir, row.shard + 1, 3), BuildGguf(spec));
    CHECK_THROWS_WITH(GgufModel::Open(ShardPath(dir, 1, 3)),
                      Catch::StartsWith(ShardPath(dir, row.shard + 1, 3).string()) &&
                          Catch::Contains(row.expected));
  }
}

TEST_CASE("a tensor in two shards is refused", "[gguf][split]") {
  TempDir dir;
  WriteSet(dir, 2);
  GgufSpec spec = ShardSpec({1, 2, 4});
  spec.tensors[0].name = "blk.0.attn_norm.weight";
  WriteFile(ShardPath(dir, 2, 2), BuildGguf(spec));
  CHECK_THROWS_WITH(GgufModel::Open(ShardPath(dir, 1, 2)),
                    Catch::Contains("tensor 'blk.0.attn_norm.weight' is also in") &&
                        Catch::Contains("model-00001-of-00002.gguf"));
}

TEST_CASE("a shard without a split name is refused when its keys say split", "[gguf][split]") {
  TempDir dir;
  WriteFile(dir.path() / "renamed.gguf", BuildGguf(ShardSpec({0, 2, 4})));
  CHECK_THROWS_WITH(GgufModel::Open(dir.path() / "renamed.gguf"),
                    Catch::Contains("split.count = 2 but 1 shard(s) were found"));
}

TEST_CASE("a single file is a one-shard model", "[gguf][split]") {
  TempDir dir;
  WriteFile(dir.path() / "one.gguf", BuildGguf(testing::ValidSpec()));
  const GgufModel model = GgufModel::Open(dir.path() / "one.gguf");
  CHECK(model.shards().size() == 1);
  CHECK(model.tensors().size() == 2);
  CHECK(model.has_data());
}

TEST_CASE("unreadable paths fail with the path and the reason", "[gguf]") {
  TempDir dir;
  CHECK_THROWS_WITH(GgufFile::Open(dir.path() / "absent.gguf"),
                    (dir.path() / "absent.gguf").string() +
                        ": cannot open: No such file or directory");
  CHECK_THROWS_WITH(GgufFile::Open(dir.path()), Catch::Contains("is a directory"));
  WriteFile(dir.path() / "empty.gguf", {});
  CHECK_THROWS_WITH(GgufFile::Open(dir.path() / "empty.gguf"),
                    Catch::Contains("the file is 0 bytes, too short"));
}

}  // namespace
}  // namespace vt
