// Writes GGUF bytes from a description, for tests that need files no honest
// writer would produce. Every field the reader validates can be set to any
// value, counts included, so one valid description plus one edit makes one
// malformed file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace vt::testing {

// A metadata entry: key, value type id and the value's encoded bytes.
struct KvSpec {
  std::string key;
  uint32_t type = 0;
  std::vector<std::byte> value;
};

struct TensorSpec {
  std::string name;
  std::vector<int64_t> ne;  // n_dims = ne.size()
  uint32_t type = 0;
  uint64_t offset = 0;
};

struct GgufSpec {
  std::string magic = "GGUF";
  uint32_t version = 3;
  std::optional<uint64_t> n_tensors;  // default: tensors.size()
  std::optional<uint64_t> n_kv;       // default: kvs.size()
  std::vector<KvSpec> kvs;
  std::vector<TensorSpec> tensors;
  uint64_t alignment = 32;            // used to pad the header; not written as a key
  uint64_t data_bytes = 0;            // bytes of data section written after the padding
};

// Encoders for KvSpec::value.
std::vector<std::byte> EncodeString(const std::string& text);
template <typename T>
std::vector<std::byte> EncodeScalar(T value) {
  std::vector<std::byte> bytes(sizeof(T));
  __builtin_memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}
// An array: element type id, count, then the already-encoded elements.
std::vector<std::byte> EncodeArray(uint32_t element_type, uint64_t count,
                                   const std::vector<std::byte>& elements);

KvSpec U32Kv(const std::string& key, uint32_t value);
KvSpec StringKv(const std::string& key, const std::string& value);

// Serializes the description. The data section is filled with a byte pattern
// (byte i of the section is i * 7 + 1 mod 256) so tests can check that tensor
// views point at the right bytes.
std::vector<std::byte> BuildGguf(const GgufSpec& spec);

// A small valid file: architecture key, two tensors (f32 [8] and q8_0 [64, 2])
// and a data section that holds them.
GgufSpec ValidSpec();

// Writes bytes to a file, replacing it.
void WriteFile(const std::filesystem::path& path, const std::vector<std::byte>& bytes);

// A fresh empty directory under the system temp folder, removed on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace vt::testing
