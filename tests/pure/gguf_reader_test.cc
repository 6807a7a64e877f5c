// Reading well-formed GGUF bytes: every metadata type, the typed accessors,
// tensor infos, data views and the header-only mode.
#include <catch2/catch.hpp>

#include <cmath>

#include "gguf_builder.h"
#include "vt/runtime/gguf_file.h"

namespace vt {
namespace {

using testing::BuildGguf;
using testing::EncodeArray;
using testing::EncodeScalar;
using testing::EncodeString;
using testing::GgufSpec;
using testing::KvSpec;
using testing::ValidSpec;

GgufSpec EveryTypeSpec() {
  GgufSpec spec = ValidSpec();
  spec.kvs.push_back({"t.u8", 0, EncodeScalar<uint8_t>(200)});
  spec.kvs.push_back({"t.i8", 1, EncodeScalar<int8_t>(-100)});
  spec.kvs.push_back({"t.u16", 2, EncodeScalar<uint16_t>(60000)});
  spec.kvs.push_back({"t.i16", 3, EncodeScalar<int16_t>(-30000)});
  spec.kvs.push_back({"t.u32", 4, EncodeScalar<uint32_t>(4000000000u)});
  spec.kvs.push_back({"t.i32", 5, EncodeScalar<int32_t>(-2000000000)});
  spec.kvs.push_back({"t.f32", 6, EncodeScalar<float>(0.25f)});
  spec.kvs.push_back({"t.bool", 7, EncodeScalar<uint8_t>(1)});
  spec.kvs.push_back({"t.string", 8, EncodeString("héllo")});
  spec.kvs.push_back({"t.u64", 10, EncodeScalar<uint64_t>(uint64_t{1} << 60)});
  spec.kvs.push_back({"t.i64", 11, EncodeScalar<int64_t>(-(int64_t{1} << 60))});
  spec.kvs.push_back({"t.f64", 12, EncodeScalar<double>(-1.5)});
  std::vector<std::byte> i32s;
  for (int32_t v : {7, -8, 9}) {
    const auto e = EncodeScalar(v);
    i32s.insert(i32s.end(), e.begin(), e.end());
  }
  spec.kvs.push_back({"t.array_i32", 9, EncodeArray(5, 3, i32s)});
  std::vector<std::byte> strings;
  for (const char* s : {"a", "", "ccc"}) {
    const auto e = EncodeString(s);
    strings.insert(strings.end(), e.begin(), e.end());
  }
  spec.kvs.push_back({"t.array_string", 9, EncodeArray(8, 3, strings)});
  spec.kvs.push_back({"t.array_empty", 9, EncodeArray(6, 0, {})});
  return spec;
}

TEST_CASE("reads every metadata value type with its typed accessor", "[gguf]") {
  const GgufFile file = GgufFile::FromBytes(BuildGguf(EveryTypeSpec()), "every.gguf");
  const GgufMetadata& m = file.metadata();
  CHECK(m.size() == 2 + 15);
  CHECK(m.GetString("general.architecture") == "llama");
  CHECK(m.GetU8("t.u8") == 200);
  CHECK(m.GetI8("t.i8") == -100);
  CHECK(m.GetU16("t.u16") == 60000);
  CHECK(m.GetI16("t.i16") == -30000);
  CHECK(m.GetU32("t.u32") == 4000000000u);
  CHECK(m.GetI32("t.i32") == -2000000000);
  CHECK(m.GetF32("t.f32") == 0.25f);
  CHECK(m.GetBool("t.bool"));
  CHECK(m.GetString("t.string") == "h\xc3\xa9llo");
  CHECK(m.GetU64("t.u64") == uint64_t{1} << 60);
  CHECK(m.GetI64("t.i64") == -(int64_t{1} << 60));
  CHECK(m.GetF64("t.f64") == -1.5);

  const GgufArray& ints = m.GetArray("t.array_i32");
  CHECK(ints.element_type == GgufValueType::kI32);
  REQUIRE(ints.count == 3);
  CHECK(ints.NumberAt<int32_t>(0) == 7);
  CHECK(ints.NumberAt<int32_t>(1) == -8);
  CHECK(ints.NumberAt<int32_t>(2) == 9);
  const GgufArray& strings = m.GetArray("t.array_string");
  REQUIRE(strings.strings.size() == 3);
  CHECK(strings.strings[0] == "a");
  CHECK(strings.strings[1].empty());
  CHECK(strings.strings[2] == "ccc");
  CHECK(m.GetArray("t.array_empty").count == 0);

  // Entries keep file order.
  CHECK(m.entries()[0].key == "general.architecture");
  CHECK(m.entries().back().key == "t.array_empty");
}

TEST_CASE("typed accessors name the file, the key and what they found", "[gguf]") {
  const GgufFile file = GgufFile::FromBytes(BuildGguf(EveryTypeSpec()), "every.gguf");
  const GgufMetadata& m = file.metadata();
  CHECK_THROWS_WITH(m.GetU32("llama.context_length"),
                    "every.gguf: key 'llama.context_length' is missing");
  CHECK_THROWS_WITH(m.GetU32("t.u16"), "every.gguf: key 't.u16' holds u16 60000, expected u32");
  CHECK_THROWS_WITH(m.GetString("t.u8"), "every.gguf: key 't.u8' holds u8 200, expected string");
  CHECK_THROWS_AS(m.GetArray("t.string"), GgufError);
  CHECK(m.Find("nope") == nullptr);

  // GetUnsigned widens any non-negative integer and refuses the rest.
  CHECK(m.GetUnsigned("t.u16") == 60000);
  CHECK(m.GetUnsigned("t.u64") == uint64_t{1} << 60);
  CHECK(m.GetUnsigned("llama.block_count") == 1);
  CHECK_THROWS_WITH(m.GetUnsigned("t.i32"),
                    Catch::Contains("expected a non-negative integer"));
  CHECK_THROWS_WITH(m.GetUnsigned("t.f32"), Catch::Contains("expected an integer"));
}

TEST_CASE("tensor infos carry shape, type, sizes and positions", "[gguf]") {
  const std::vector<std::byte> bytes = BuildGguf(ValidSpec());
  const GgufFile file = GgufFile::FromBytes(bytes, "valid.gguf");
  CHECK(file.version() == 3);
  CHECK(file.alignment() == 32);
  REQUIRE(file.tensors().size() == 2);

  const GgufTensorInfo* norm = file.FindTensor("output_norm.weight");
  REQUIRE(norm != nullptr);
  CHECK(norm->type == GgmlType::kF32);
  CHECK(norm->n_dims == 1);
  CHECK(norm->ne == TensorDims{8, 1, 1, 1});
  CHECK(norm->bytes == 32);

  const GgufTensorInfo* out = file.FindTensor("output.weight");
  REQUIRE(out != nullptr);
  CHECK(out->type == GgmlType::kQ8_0);
  CHECK(out->ne == TensorDims{64, 2, 1, 1});
  CHECK(out->ElementCount() == 128);
  CHECK(out->bytes == 2 * 2 * 34);
  CHECK(out->offset == 32);

  // The data section starts at the header rounded up to 32 bytes, and the
  // views see the builder's pattern (byte i of the section is 7i + 1).
  CHECK(file.data_offset() % 32 == 0);
  CHECK(file.data_offset() + 32 + 136 == bytes.size());
  CHECK(out->file_position == file.data_offset() + 32);
  CHECK(file.has_data());
  const auto view = file.TensorBytes(*out);
  REQUIRE(view.size() == 136);
  CHECK(view[0] == std::byte{(32 * 7 + 1) & 0xFF});
  CHECK(view[135] == std::byte{((32 + 135) * 7 + 1) & 0xFF});
  CHECK(file.FindTensor("missing.weight") == nullptr);
}

TEST_CASE("general.alignment moves the data section", "[gguf]") {
  GgufSpec spec = ValidSpec();
  spec.kvs.push_back(testing::U32Kv("general.alignment", 256));
  spec.alignment = 256;
  spec.tensors[1].offset = 256;
  spec.data_bytes = 256 + 136;
  const GgufFile file = GgufFile::FromBytes(BuildGguf(spec), "aligned.gguf");
  CHECK(file.alignment() == 256);
  CHECK(file.data_offset() % 256 == 0);
  CHECK(file.FindTensor("output.weight")->file_position == file.data_offset() + 256);
}

TEST_CASE("version 2 files read like version 3", "[gguf]") {
  GgufSpec spec = ValidSpec();
  spec.version = 2;
  CHECK(GgufFile::FromBytes(BuildGguf(spec), "v2.gguf").version() == 2);
}

TEST_CASE("a header-only file is refused unless asked for", "[gguf]") {
  GgufSpec spec = ValidSpec();
  spec.data_bytes = 0;  // header only: the data region is absent
  const std::vector<std::byte> bytes = BuildGguf(spec);
  CHECK_THROWS_WITH(GgufFile::FromBytes(bytes, "h.gguf"),
                    Catch::Contains("h.gguf: tensor 0 'output_norm.weight': data ends at byte") &&
                        Catch::Contains("header-only"));

  GgufReadOptions options;
  options.allow_missing_data = true;
  const GgufFile file = GgufFile::FromBytes(bytes, "h.gguf", options);
  CHECK_FALSE(file.has_data());
  CHECK(file.tensors().size() == 2);
  CHECK(file.data_bytes() == 32 + 136);
  CHECK_THROWS_WITH(file.TensorBytes(file.tensors()[0]), Catch::Contains("header-only"));

  // A data region that starts but stops short is truncated, not header-only.
  GgufSpec truncated = ValidSpec();
  truncated.data_bytes = 40;  // the f32 tensor and part of the q8_0 one
  CHECK_THROWS_WITH(GgufFile::FromBytes(BuildGguf(truncated), "t.gguf", options),
                    Catch::Contains("t.gguf: tensor 1 'output.weight': data ends at byte"));

  // A complete file read with the option still has its data.
  CHECK(GgufFile::FromBytes(BuildGguf(ValidSpec()), "full.gguf", options).has_data());
}

TEST_CASE("a file with no tensors needs no data section", "[gguf]") {
  GgufSpec spec;
  spec.kvs.push_back(testing::StringKv("general.architecture", "none"));
  const GgufFile file = GgufFile::FromBytes(BuildGguf(spec), "empty.gguf");
  CHECK(file.tensors().empty());
  CHECK(file.has_data());
}

TEST_CASE("values print as people read them", "[gguf]") {
  const GgufFile file = GgufFile::FromBytes(BuildGguf(EveryTypeSpec()), "every.gguf");
  const GgufMetadata& m = file.metadata();
  CHECK(m.Find("t.u8")->ToDisplayString() == "200");
  CHECK(m.Find("t.i8")->ToDisplayString() == "-100");
  CHECK(m.Find("t.bool")->ToDisplayString() == "true");
  CHECK(m.Find("t.f32")->ToDisplayString() == "0.25");
  CHECK(m.Find("t.f64")->ToDisplayString() == "-1.5");
  CHECK(m.Find("general.architecture")->ToDisplayString() == "\"llama\"");
  CHECK(m.Find("t.array_i32")->ToDisplayString() == "[i32 x 3] 7, -8, 9");
  CHECK(m.Find("t.array_i32")->ToDisplayString(2) == "[i32 x 3] 7, -8, ...");
  CHECK(m.Find("t.array_string")->ToDisplayString() == "[string x 3] \"a\", \"\", \"ccc\"");
  CHECK(m.Find("t.array_empty")->ToDisplayString() == "[f32 x 0]");
}

}  // namespace
}  // namespace vt
