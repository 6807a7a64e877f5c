// Malformed GGUF input: one row per way a header can lie, each a valid file
// with one edit, each expected to fail with a message that names the field
// and the value. These are the shapes of the published GGUF parser CVEs in
// ggml and ollama (overflowing counts, lengths and dims, offsets past the end).
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <limits>
#include <random>

#include "gguf_builder.h"
#include "vt/runtime/gguf_file.h"

namespace vt {
namespace {

using testing::BuildGguf;
using testing::EncodeArray;
using testing::EncodeScalar;
using testing::EncodeString;
using testing::GgufSpec;
using testing::ValidSpec;

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();

struct MalformedCase {
  const char* what;
  std::function<void(GgufSpec&)> edit;
  const char* expected_message;  // a substring of the error
};

std::vector<MalformedCase> MalformedCases() {
  return {
      {"bad magic", [](GgufSpec& s) { s.magic = "GGML"; }, "header: magic is 0x4c4d4747"},
      {"version 1", [](GgufSpec& s) { s.version = 1; }, "header: version 1 is no longer read"},
      {"version 0", [](GgufSpec& s) { s.version = 0; }, "header: version 0 is not a GGUF version"},
      {"version 4", [](GgufSpec& s) { s.version = 4; }, "header: version 4 is not a GGUF version"},
      {"big-endian", [](GgufSpec& s) { s.version = 0x03000000; }, "stored big-endian (0x3000000)"},
      {"n_kv overflows", [](GgufSpec& s) { s.n_kv = kU64Max; },
       "header: n_kv = 18446744073709551615 cannot fit"},
      {"n_tensors overflows", [](GgufSpec& s) { s.n_tensors = uint64_t{1} << 62; },
       "header: n_tensors = 4611686018427387904 cannot fit"},
      // Two more entries than written: the reader walks into the tensor infos and
      // stops at the first field that cannot be a key-value pair.
      {"n_kv larger than the entries", [](GgufSpec& s) { s.n_kv = 4; },
       "kv 3: the key is empty"},
      {"empty key", [](GgufSpec& s) { s.kvs[1].key.clear(); }, "kv 1: the key is empty"},
      {"duplicate key", [](GgufSpec& s) { s.kvs[1].key = "general.architecture"; },
       "kv 1 'general.architecture': duplicate key (first at kv 0)"},
      {"value type 13", [](GgufSpec& s) { s.kvs[1].type = 13; },
       "kv 1 'llama.block_count': value type 13 is not a GGUF value type"},
      {"string length past the end",
       [](GgufSpec& s) { s.kvs[0].value = EncodeScalar<uint64_t>(kU64Max); },
       "kv 0 'general.architecture': string value length 18446744073709551615"},
      {"array count past the end",
       [](GgufSpec& s) { s.kvs[1] = {"a", 9, EncodeArray(4, uint64_t{1} << 61, {})}; },
       "kv 1 'a': array of 2305843009213693952 u32 needs more than"},
      {"string array count past the end",
       [](GgufSpec& s) { s.kvs[1] = {"a", 9, EncodeArray(8, kU64Max / 2, {})}; },
       "kv 1 'a': array of 9223372036854775807 strings cannot fit"},
      {"nested array", [](GgufSpec& s) { s.kvs[1] = {"a", 9, EncodeArray(9, 1, {})}; },
       "kv 1 'a': arrays of arrays are not allowed"},
      {"array element type 13", [](GgufSpec& s) { s.kvs[1] = {"a", 9, EncodeArray(13, 0, {})}; },
       "array element type 13 is not a GGUF value type"},
      {"alignment 0", [](GgufSpec& s) { s.kvs.push_back(testing::U32Kv("general.alignment", 0)); },
       "'general.alignment': alignment 0 is not a power of two"},
      {"alignment 3", [](GgufSpec& s) { s.kvs.push_back(testing::U32Kv("general.alignment", 3)); },
       "alignment 3 is not a power of two"},
      {"alignment 2^31",
       [](GgufSpec& s) { s.kvs.push_back(testing::U32Kv("general.alignment", 1u << 31)); },
       "alignment 2147483648 is above the largest vt reads"},
      {"alignment stored as u64",
       [](GgufSpec& s) { s.kvs.push_back({"general.alignment", 10, EncodeScalar<uint64_t>(32)}); },
       "alignment is stored as u64 32; GGUF requires u32"},
      {"alignment stored as string",
       [](GgufSpec& s) { s.kvs.push_back({"general.alignment", 8, EncodeString("32")}); },
       "alignment is stored as string"},
      {"empty tensor name", [](GgufSpec& s) { s.tensors[0].name.clear(); },
       "tensor 0: the tensor name is empty"},
      {"tensor name of 64 bytes", [](GgufSpec& s) { s.tensors[0].name = std::string(64, 'x'); },
       "the name is 64 bytes; ggml allows at most 63"},
      {"duplicate tensor name", [](GgufSpec& s) { s.tensors[1].name = s.tensors[0].name; },
       "tensor 1 'output_norm.weight': duplicate tensor name (first at tensor 0)"},
      {"n_dims 5", [](GgufSpec& s) { s.tensors[0].ne = {8, 1, 1, 1, 1}; },
       "tensor 0 'output_norm.weight': n_dims = 5; GGUF allows at most 4"},
      {"negative dim", [](GgufSpec& s) { s.tensors[1].ne = {64, -2}; },
       "ne = [64, -2, 1, 1] of type q8_0: a dimension is negative"},
      {"element count overflows int64", [](GgufSpec& s) { s.tensors[0].ne = {kI64Max, 2, 1, 1}; },
       "of type f32: the element count overflows int64"},
      {"byte count overflows", [](GgufSpec& s) { s.tensors[0].ne = {int64_t{1} << 62}; },
       "the byte count overflows uint64"},
      {"partial block", [](GgufSpec& s) { s.tensors[1].ne = {48, 2}; },
       "ne[0] is not a whole number of blocks (48 % 32 != 0)"},
      {"removed type", [](GgufSpec& s) { s.tensors[1].type = 31; },
       "type id 31 (q4_0_4_4) was removed from ggml"},
      {"unknown type 43", [](GgufSpec& s) { s.tensors[1].type = 43; },
       "type id 43 is not a ggml type (0..42)"},
      {"unknown type 2^32-1", [](GgufSpec& s) { s.tensors[1].type = 0xFFFFFFFFu; },
       "type id 4294967295 is not a ggml type"},
      {"misaligned offset", [](GgufSpec& s) { s.tensors[1].offset = 40; },
       "tensor 1 'output.weight': offset 40 is not a multiple of the alignment 32"},
      {"overlapping offsets", [](GgufSpec& s) { s.tensors[1].offset = 0; },
       "overlaps tensor"},
      {"padded size overflows", [](GgufSpec& s) { s.tensors[1].offset = kU64Max - 31; },
       "bytes overflows uint64 once padded"},
      {"data past the end of the file", [](GgufSpec& s) { s.data_bytes = 100; },
       "tensor 1 'output.weight': data ends at byte"},
      {"tensor infos cut short", [](GgufSpec& s) { s.n_tensors = 3; }, "tensor 2"},
  };
}

TEST_CASE("every malformed header fails with a message naming field and value", "[gguf]") {
  for (const MalformedCase& row : MalformedCases()) {
    CAPTURE(row.what);
    GgufSpec spec = ValidSpec();
    row.edit(spec);
    const std::vector<std::byte> bytes = BuildGguf(spec);
    try {
      (void)GgufFile::FromBytes(bytes, "bad.gguf");
      FAIL("accepted a malformed file");
    } catch (const GgufError& error) {
      const std::string message = error.what();
      CAPTURE(message);
      CHECK(message.rfind("bad.gguf: ", 0) == 0);
      CHECK(message.find(row.expected_message) != std::string::npos);
    }
  }
}

TEST_CASE("a key length past the end of the file is named", "[gguf]") {
  std::vector<std::byte> bytes = BuildGguf(ValidSpec());
  // kv 1's key length follows the header (24 bytes) and kv 0
  // (8 + 20 key bytes, 4 type bytes, 8 + 5 value bytes).
  const size_t at = 24 + 8 + 20 + 4 + 8 + 5;
  const uint64_t huge = uint64_t{1} << 40;
  std::memcpy(bytes.data() + at, &huge, sizeof(huge));
  CHECK_THROWS_WITH(GgufFile::FromBytes(bytes, "bad.gguf"),
                    "bad.gguf: kv 1: key length 1099511627776 at byte 69 runs past the end of "
                    "the file (" + std::to_string(bytes.size() - at - 8) + " bytes left)");
}

TEST_CASE("the unedited spec is valid, so each row fails by its edit alone", "[gguf]") {
  CHECK_NOTHROW(GgufFile::FromBytes(BuildGguf(ValidSpec()), "good.gguf"));
  GgufSpec spec = ValidSpec();
  spec.tensors[0].name = std::string(63, 'x');  // the longest name ggml allows
  CHECK_NOTHROW(GgufFile::FromBytes(BuildGguf(spec), "good.gguf"));
}

TEST_CASE("files shorter than their header fail cleanly at every length", "[gguf]") {
  GgufSpec spec = ValidSpec();
  spec.data_bytes = 0;
  const std::vector<std::byte> header = BuildGguf(spec);
  GgufReadOptions header_only;
  header_only.allow_missing_data = true;
  for (size_t length = 0; length < header.size(); ++length) {
    CAPTURE(length);
    const std::vector<std::byte> cut(header.begin(), header.begin() + static_cast<long>(length));
    CHECK_THROWS_AS(GgufFile::FromBytes(cut, "cut.gguf", header_only), GgufError);
  }
  CHECK_NOTHROW(GgufFile::FromBytes(header, "whole.gguf", header_only));
}

TEST_CASE("random corruption never crashes: a file either reads or throws GgufError", "[gguf]") {
  const std::vector<std::byte> valid = BuildGguf(testing::ValidSpec());
  std::mt19937_64 random(20261129);
  int accepted = 0;
  int rejected = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    std::vector<std::byte> bytes = valid;
    const int edits = 1 + static_cast<int>(random() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = random() % bytes.size();
      switch (random() % 3) {
        case 0: bytes[at] = static_cast<std::byte>(random()); break;
        case 1: bytes[at] = std::byte{0xFF}; break;
        case 2: bytes.resize(at); break;
      }
      if (bytes.empty()) break;
    }
    try {
      const GgufFile file = GgufFile::FromBytes(bytes, "fuzz.gguf");
      // Whatever was accepted must be self-consistent.
      for (const GgufTensorInfo& tensor : file.tensors()) {
        REQUIRE(tensor.file_position + tensor.bytes <= file.file_bytes());
      }
      ++accepted;
    } catch (const GgufError&) {
      ++rejected;
    }
  }
  CAPTURE(accepted, rejected);
  CHECK(rejected > 0);
}

}  // namespace
}  // namespace vt
