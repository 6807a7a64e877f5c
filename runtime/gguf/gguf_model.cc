#include "vt/runtime/gguf_model.h"

#include <charconv>
#include <cstdio>
#include <numeric>

namespace vt {
namespace {

constexpr std::string_view kSplitNoKey = "split.no";
constexpr std::string_view kSplitCountKey = "split.count";
constexpr std::string_view kSplitTensorsCountKey = "split.tensors.count";

// Parses exactly five decimal digits.
std::optional<uint32_t> ParseFiveDigits(std::string_view text) {
  if (text.size() != 5) return std::nullopt;
  uint32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The split keys of one shard, or nullopt when it has none.
struct SplitKeys {
  uint64_t number = 0;  // 0-based, as stored
  uint64_t count = 0;
  std::optional<uint64_t> tensors_count;
};

std::optional<SplitKeys> ReadSplitKeys(const GgufFile& file) {
  const GgufMetadata& metadata = file.metadata();
  if (!metadata.Contains(kSplitCountKey)) return std::nullopt;
  SplitKeys keys;
  keys.count = metadata.GetUnsigned(kSplitCountKey);
  keys.number = metadata.GetUnsigned(kSplitNoKey);
  if (metadata.Contains(kSplitTensorsCountKey)) {
    keys.tensors_count = metadata.GetUnsigned(kSplitTensorsCountKey);
  }
  return keys;
}

}  // namespace

std::filesystem::path SplitName::PathOf(uint32_t shard_number) const {
  char suffix[32];
  std::snprintf(suffix, sizeof(suffix), "-%05u-of-%05u.gguf", shard_number, count);
  return std::filesystem::path(prefix.string() + suffix);
}

std::optional<SplitName> ParseSplitName(const std::filesystem::path& path) {
  // "<prefix>-NNNNN-of-MMMMM.gguf"
  constexpr std::string_view kTail = ".gguf";
  const std::string text = path.string();
  constexpr size_t kSuffixBytes = 1 + 5 + 4 + 5 + 5;  // "-NNNNN-of-MMMMM.gguf"
  if (text.size() <= kSuffixBytes) return std::nullopt;
  const std::string_view suffix = std::string_view(text).substr(text.size() - kSuffixBytes);
  if (suffix[0] != '-' || suffix.substr(6, 4) != "-of-" || suffix.substr(15) != kTail) {
    return std::nullopt;
  }
  const std::optional<uint32_t> number = ParseFiveDigits(suffix.substr(1, 5));
  const std::optional<uint32_t> count = ParseFiveDigits(suffix.substr(10, 5));
  if (!number || !count || *number == 0 || *count == 0 || *number > *count) return std::nullopt;
  return SplitName{text.substr(0, text.size() - kSuffixBytes), *number, *count};
}

GgufModel GgufModel::Open(const std::filesystem::path& path, const GgufReadOptions& options) {
  const std::optional<SplitName> split = ParseSplitName(path);
  std::vector<GgufFile> shards;
  if (!split) {
    shards.push_back(GgufFile::Open(path, options));
    return FromShards(std::move(shards));
  }
  shards.reserve(split->count);
  for (uint32_t number = 1; number <= split->count; ++number) {
    const std::filesystem::path shard_path = split->PathOf(number);
    if (number != split->number && !std::filesystem::exists(shard_path)) {
      throw GgufError(shard_path.string() + ": shard " + std::to_string(number) + " of " +
                      std::to_string(split->count) + " is missing (opened from " +
                      path.string() + ")");
    }
    shards.push_back(GgufFile::Open(number == split->number ? path : shard_path, options));
  }
  return FromShards(std::move(shards));
}

GgufModel GgufModel::FromShards(std::vector<GgufFile> shards) {
  if (shards.empty()) throw GgufError("a model needs at least one GGUF file");
  const uint64_t shard_count = shards.size();
  uint64_t tensor_total = 0;
  for (const GgufFile& shard : shards) tensor_total += shard.tensors().size();

  for (uint64_t i = 0; i < shard_count; ++i) {
    const GgufFile& shard = shards[i];
    const std::optional<SplitKeys> keys = ReadSplitKeys(shard);
    const std::string where = shard.path() + ": ";
    if (!keys) {
      if (shard_count > 1) {
        throw GgufError(where + "key 'split.count' is missing, but the file is shard " +
                        std::to_string(i + 1) + " of " + std::to_string(shard_count));
      }
      continue;
    }
    if (keys->count != shard_count) {
      throw GgufError(where + "split.count = " + std::to_string(keys->count) + " but " +
                      std::to_string(shard_count) + " shard(s) were found" +
                      (shard_count == 1 ? " (name the shards <prefix>-0000N-of-0000M.gguf)" : ""));
    }
    if (keys->number != i) {
      throw GgufError(where + "split.no = " + std::to_string(keys->number) +
                      " but the file is shard " + std::to_string(i) + " (0-based) of the set");
    }
    if (keys->tensors_count && *keys->tensors_count != tensor_total) {
      throw GgufError(where + "split.tensors.count = " + std::to_string(*keys->tensors_count) +
                      " but the shards hold " + std::to_string(tensor_total) + " tensors");
    }
  }

  GgufModel model;
  model.shards_ = std::move(shards);
  model.tensors_.reserve(tensor_total);
  model.tensor_index_.reserve(tensor_total);
  for (uint32_t s = 0; s < model.shards_.size(); ++s) {
    for (GgufTensorInfo tensor : model.shards_[s].tensors()) {
      tensor.shard = s;
      const auto [first, inserted] = model.tensor_index_.emplace(tensor.name, model.tensors_.size());
      if (!inserted) {
        const GgufTensorInfo& earlier = model.tensors_[first->second];
        throw GgufError(model.shards_[s].path() + ": tensor '" + std::string(tensor.name) +
                        "' is also in " + model.shards_[earlier.shard].path());
      }
      model.tensors_.push_back(tensor);
    }
  }
  return model;
}

const GgufTensorInfo* GgufModel::FindTensor(std::string_view name) const {
  const auto found = tensor_index_.find(name);
  return found == tensor_index_.end() ? nullptr : &tensors_[found->second];
}

std::span<const std::byte> GgufModel::TensorBytes(const GgufTensorInfo& tensor) const {
  return shards_.at(tensor.shard).TensorBytes(tensor);
}

uint64_t GgufModel::file_bytes() const {
  uint64_t total = 0;
  for (const GgufFile& shard : shards_) total += shard.file_bytes();
  return total;
}

uint64_t GgufModel::tensor_bytes() const {
  uint64_t total = 0;
  for (const GgufTensorInfo& tensor : tensors_) total += tensor.bytes;
  return total;
}

bool GgufModel::has_data() const {
  for (const GgufFile& shard : shards_) {
    if (!shard.has_data()) return false;
  }
  return true;
}

}  // namespace vt
