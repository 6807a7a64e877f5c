#include "gguf_builder.h"

#include <unistd.h>

#include <cstring>
#include <fstream>
#include <stdexcept>

namespace vt::testing {
namespace {

void Append(std::vector<std::byte>& out, const void* data, size_t size) {
  const size_t old_size = out.size();
  out.resize(old_size + size);
  if (size > 0) std::memcpy(out.data() + old_size, data, size);
}

template <typename T>
void AppendScalar(std::vector<std::byte>& out, T value) {
  Append(out, &value, sizeof(T));
}

void AppendString(std::vector<std::byte>& out, const std::string& text) {
  AppendScalar<uint64_t>(out, text.size());
  Append(out, text.data(), text.size());
}

}  // namespace

std::vector<std::byte> EncodeString(const std::string& text) {
  std::vector<std::byte> bytes;
  AppendString(bytes, text);
  return bytes;
}

std::vector<std::byte> EncodeArray(uint32_t element_type, uint64_t count,
                                   const std::vector<std::byte>& elements) {
  std::vector<std::byte> bytes;
  AppendScalar(bytes, element_type);
  AppendScalar(bytes, count);
  bytes.insert(bytes.end(), elements.begin(), elements.end());
  return bytes;
}

KvSpec U32Kv(const std::string& key, uint32_t value) { return {key, 4, EncodeScalar(value)}; }

KvSpec StringKv(const std::string& key, const std::string& value) {
  return {key, 8, EncodeString(value)};
}

std::vector<std::byte> BuildGguf(const GgufSpec& spec) {
  std::vector<std::byte> out;
  Append(out, spec.magic.data(), spec.magic.size());
  AppendScalar(out, spec.version);
  AppendScalar<uint64_t>(out, spec.n_tensors.value_or(spec.tensors.size()));
  AppendScalar<uint64_t>(out, spec.n_kv.value_or(spec.kvs.size()));
  for (const KvSpec& kv : spec.kvs) {
    AppendString(out, kv.key);
    AppendScalar(out, kv.type);
    out.insert(out.end(), kv.value.begin(), kv.value.end());
  }
  for (const TensorSpec& tensor : spec.tensors) {
    AppendString(out, tensor.name);
    AppendScalar<uint32_t>(out, static_cast<uint32_t>(tensor.ne.size()));
    for (int64_t dim : tensor.ne) AppendScalar(out, dim);
    AppendScalar(out, tensor.type);
    AppendScalar(out, tensor.offset);
  }
  if (spec.data_bytes > 0) {
    while (out.size() % spec.alignment != 0) out.push_back(std::byte{0});
    for (uint64_t i = 0; i < spec.data_bytes; ++i) {
      out.push_back(static_cast<std::byte>((i * 7 + 1) & 0xFF));
    }
  }
  return out;
}

GgufSpec ValidSpec() {
  GgufSpec spec;
  spec.kvs.push_back(StringKv("general.architecture", "llama"));
  spec.kvs.push_back(U32Kv("llama.block_count", 1));
  spec.tensors.push_back({"output_norm.weight", {8}, 0, 0});  // f32, 32 bytes
  spec.tensors.push_back({"output.weight", {64, 2}, 8, 32});  // q8_0, 2 rows x 2 blocks x 34
  spec.data_bytes = 32 + 136;
  return spec;
}

void WriteFile(const std::filesystem::path& path, const std::vector<std::byte>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "vt-test-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace vt::testing
