// A model as one tensor table, whether it is one GGUF file or a split set.
//
// Opening any shard of "<prefix>-0000N-of-0000M.gguf" finds and opens all M
// siblings, checks that each one's split.no / split.count agree with its name
// and that split.tensors.count equals the tensors found, and presents one
// table (each tensor knows its shard). A missing, extra or mismatched shard,
// or a tensor name present in two shards, is a GgufError. A file without a
// split name and without split keys is a one-shard model.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "vt/runtime/gguf_file.h"

namespace vt {

// The parts of a split file name: "dir/name-00002-of-00005.gguf" has prefix
// "dir/name", number 2 and count 5. nullopt for a name not of that form.
struct SplitName {
  std::filesystem::path prefix;
  uint32_t number = 0;  // 1-based, as in the name
  uint32_t count = 0;

  std::filesystem::path PathOf(uint32_t shard_number) const;
};
std::optional<SplitName> ParseSplitName(const std::filesystem::path& path);

class GgufModel {
 public:
  static GgufModel Open(const std::filesystem::path& path, const GgufReadOptions& options = {});

  // Builds a model from files already read, shard 0 first. Validates them as
  // Open does. For tests and callers that read files themselves.
  static GgufModel FromShards(std::vector<GgufFile> shards);

  std::span<const GgufFile> shards() const { return shards_; }
  // The model's metadata: the first shard's (later shards carry only split.*).
  const GgufMetadata& metadata() const { return shards_.front().metadata(); }
  std::span<const GgufTensorInfo> tensors() const { return tensors_; }
  const GgufTensorInfo* FindTensor(std::string_view name) const;
  std::span<const std::byte> TensorBytes(const GgufTensorInfo& tensor) const;

  // Sum of the shards' sizes on disk, and of their tensors' data bytes.
  uint64_t file_bytes() const;
  uint64_t tensor_bytes() const;
  bool has_data() const;

 private:
  GgufModel() = default;

  std::vector<GgufFile> shards_;
  std::vector<GgufTensorInfo> tensors_;
  std::unordered_map<std::string_view, size_t> tensor_index_;
};

}  // namespace vt
