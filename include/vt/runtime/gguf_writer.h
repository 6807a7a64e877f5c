// Writes GGUF v3 headers: metadata and tensor infos, with the data region
// either absent (a header-only file for planning) or present as a sparse
// region of the full size (a file any GGUF reader maps, costing a few KB of
// disk). Tensor data itself is never written: vt writes model *shapes*.
//
// Write() goes through a temporary file renamed into place, so a failure
// leaves no partial file behind. Errors throw GgufError naming the path.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "vt/policy/tensor_bytes.h"
#include "vt/runtime/gguf_error.h"

namespace vt {

enum class GgufDataRegion { kAbsent, kSparse };

class GgufWriter {
 public:
  void AddString(const std::string& key, const std::string& value);
  void AddU32(const std::string& key, uint32_t value);
  void AddF32(const std::string& key, float value);
  void AddBool(const std::string& key, bool value);
  // A tensor of `n_dims` dimensions (ne[n_dims..3] must be 1). Throws
  // GgufError for a malformed shape or a duplicate name.
  void AddTensor(const std::string& name, GgmlType type, const TensorDims& ne, uint32_t n_dims);

  // The bytes of the header (metadata, tensor infos, padding).
  std::vector<std::byte> HeaderBytes() const;
  // Size of the complete file: header plus every tensor, aligned.
  uint64_t FullSize() const;
  size_t tensor_count() const { return tensors_.size(); }

  void Write(const std::filesystem::path& path, GgufDataRegion region) const;

 private:
  struct Tensor {
    std::string name;
    GgmlType type;
    TensorDims ne;
    uint32_t n_dims;
    uint64_t offset;
    uint64_t bytes;
  };
  std::vector<std::byte> metadata_;  // encoded key-value pairs
  uint64_t kv_count_ = 0;
  std::vector<Tensor> tensors_;
  uint64_t data_bytes_ = 0;
};

}  // namespace vt
