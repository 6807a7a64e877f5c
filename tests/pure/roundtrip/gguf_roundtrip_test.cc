// Files written by ggml's own Python writer (PyPI gguf) read back by vt: every
// metadata type, several tensor types, a custom alignment and split output.
// The expectations come from the values handed to the writer.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>

#include <nlohmann/json.hpp>

#include "test_paths.h"
#include "vt/runtime/gguf_model.h"

namespace vt {
namespace {

const std::filesystem::path kFixtures = VT_ROUNDTRIP_DIR;

uint64_t Fnv1a64(std::span<const std::byte> bytes) {
  uint64_t hash = 0xCBF29CE484222325ull;
  for (std::byte b : bytes) hash = (hash ^ static_cast<uint8_t>(b)) * 0x100000001B3ull;
  return hash;
}

nlohmann::json Expected() {
  std::ifstream in(kFixtures / "expected.json");
  return nlohmann::json::parse(in);
}

void CheckValue(const GgufMetadata& metadata, const std::string& key, const nlohmann::json& spec) {
  CAPTURE(key);
  const std::string type = spec[0];
  const nlohmann::json& value = spec[1];
  const GgufValue* found = metadata.Find(key);
  REQUIRE(found != nullptr);
  CHECK(NameOf(found->type()) == type);
  if (type == "u8") CHECK(metadata.GetU8(key) == value.get<uint8_t>());
  if (type == "i8") CHECK(metadata.GetI8(key) == value.get<int8_t>());
  if (type == "u16") CHECK(metadata.GetU16(key) == value.get<uint16_t>());
  if (type == "i16") CHECK(metadata.GetI16(key) == value.get<int16_t>());
  if (type == "u32") CHECK(metadata.GetU32(key) == value.get<uint32_t>());
  if (type == "i32") CHECK(metadata.GetI32(key) == value.get<int32_t>());
  if (type == "u64") CHECK(metadata.GetU64(key) == value.get<uint64_t>());
  if (type == "i64") CHECK(metadata.GetI64(key) == value.get<int64_t>());
  if (type == "f32") CHECK(metadata.GetF32(key) == value.get<float>());
  if (type == "f64") CHECK(metadata.GetF64(key) == value.get<double>());
  if (type == "bool") CHECK(metadata.GetBool(key) == value.get<bool>());
  if (type == "string") CHECK(metadata.GetString(key) == value.get<std::string>());
  if (type == "array") {
    const GgufArray& array = metadata.GetArray(key);
    REQUIRE(array.count == value.size());
    if (array.count == 0) return;
    const std::string element_type = spec[2];
    CHECK(NameOf(array.element_type) == element_type);
    for (uint64_t i = 0; i < array.count; ++i) {
      if (element_type == "string") CHECK(array.strings[i] == value[i].get<std::string>());
      if (element_type == "i32") CHECK(array.NumberAt<int32_t>(i) == value[i].get<int32_t>());
      if (element_type == "f32") CHECK(array.NumberAt<float>(i) == value[i].get<float>());
    }
  }
}

void CheckModel(const GgufModel& model, const nlohmann::json& expected) {
  for (const auto& [key, spec] : expected.at("metadata").items()) {
    CheckValue(model.metadata(), key, spec);
  }
  for (const GgufFile& shard : model.shards()) {
    CHECK(shard.alignment() == expected.at("alignment").get<uint64_t>());
    CHECK(shard.data_offset() % shard.alignment() == 0);
  }
  const nlohmann::json& tensors = expected.at("tensors");
  REQUIRE(model.tensors().size() == tensors.size());
  for (const nlohmann::json& t : tensors) {
    const std::string name = t.at("name");
    CAPTURE(name);
    const GgufTensorInfo* tensor = model.FindTensor(name);
    REQUIRE(tensor != nullptr);
    CHECK(NameOf(tensor->type) == t.at("type").get<std::string>());
    CHECK(tensor->ne == t.at("ne").get<TensorDims>());
    CHECK(tensor->bytes == t.at("bytes").get<uint64_t>());
    CHECK(tensor->file_position % model.shards()[tensor->shard].alignment() == 0);
    CHECK(std::to_string(Fnv1a64(model.TensorBytes(*tensor))) == t.at("fnv1a64").get<std::string>());
  }
}

TEST_CASE("a file from gguf's writer reads back value for value", "[roundtrip]") {
  CheckModel(GgufModel::Open(kFixtures / "single.gguf"), Expected().at("single"));
}

TEST_CASE("a custom alignment from gguf's writer is honoured", "[roundtrip]") {
  const GgufModel model = GgufModel::Open(kFixtures / "aligned.gguf");
  CheckModel(model, Expected().at("aligned"));
  CHECK(model.shards()[0].alignment() == 64);
}

TEST_CASE("split output from gguf's writer opens as one model from any shard", "[roundtrip]") {
  const nlohmann::json expected = Expected().at("split");
  const std::vector<std::string> shards = expected.at("shards");
  REQUIRE(shards.size() >= 2);
  for (const std::string& shard : shards) {
    CAPTURE(shard);
    const GgufModel model = GgufModel::Open(kFixtures / shard);
    CHECK(model.shards().size() == shards.size());
    CheckModel(model, expected);
  }
}

}  // namespace
}  // namespace vt

int main(int argc, char** argv) {
  if (!vt::testing::IsListingTests(argc, argv) &&
      !std::filesystem::exists(vt::kFixtures / "expected.json")) {
    std::cout << "skipped: no fixtures from gguf's writer in " << vt::kFixtures.string()
              << " (is the python package gguf installed? run scripts/setup.sh)\n";
    return vt::testing::kSkipExitCode;
  }
  return Catch::Session().run(argc, argv);
}
