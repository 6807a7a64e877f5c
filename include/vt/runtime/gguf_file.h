// One GGUF file, read strictly from a read-only mapping.
//
// Open() maps the file and validates everything before returning: header,
// every metadata value, every tensor info, alignment, offsets and sizes. Any
// malformed input throws GgufError ("<file>: <where>: <what>"); no input
// crashes, hangs or makes the reader allocate more than the file's own size
// in bookkeeping. Versions 2 and 3 are read; v1 and big-endian files are
// refused by name.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "vt/policy/ggml_type.h"
#include "vt/policy/tensor_bytes.h"
#include "vt/runtime/gguf_error.h"
#include "vt/runtime/gguf_value.h"

namespace vt {

inline constexpr uint64_t kGgufDefaultAlignment = 32;
// Larger alignments are refused: no writer uses them, and padding arithmetic
// with them is where overflows hide.
inline constexpr uint64_t kGgufMaxAlignment = uint64_t{1} << 24;
// ggml's GGML_MAX_NAME: a name plus its terminating NUL fits in 64 bytes.
inline constexpr size_t kGgufMaxTensorNameBytes = 63;

struct GgufReadOptions {
  // Accept a file whose data region is absent: it ends where the data
  // section would start (a header-only model for planning). Its tensor table
  // is complete, has_data() is false and TensorBytes() throws. A data region
  // that starts but stops short is a truncated file and an error either way.
  bool allow_missing_data = false;
};

struct GgufTensorInfo {
  std::string_view name;
  GgmlType type = GgmlType::kF32;
  uint32_t n_dims = 0;         // as stored; ne[n_dims..3] are 1
  TensorDims ne = {1, 1, 1, 1};
  uint64_t offset = 0;         // from the start of the file's data section
  uint64_t bytes = 0;          // exact bytes of the tensor's data
  uint64_t file_position = 0;  // absolute position in its file
  uint32_t shard = 0;          // which file of a split model holds it

  int64_t ElementCount() const { return ne[0] * ne[1] * ne[2] * ne[3]; }
};

class ByteSource;  // the mapping (or owned buffer) a file's views point into

class GgufFile {
 public:
  // Maps and validates `path`. Throws GgufError for an unreadable or
  // malformed file.
  static GgufFile Open(const std::filesystem::path& path, const GgufReadOptions& options = {});

  // Validates an in-memory image, named `display_name` in errors. For tests
  // and for readers of non-file sources.
  static GgufFile FromBytes(std::vector<std::byte> bytes, std::string display_name,
                            const GgufReadOptions& options = {});

  const std::string& path() const { return path_; }
  uint32_t version() const { return version_; }
  uint64_t alignment() const { return alignment_; }
  uint64_t data_offset() const { return data_offset_; }
  uint64_t file_bytes() const { return file_bytes_; }
  // Bytes the data section needs: the end of its furthest tensor.
  uint64_t data_bytes() const { return data_bytes_; }
  // False for a header-only file read with allow_missing_data.
  bool has_data() const { return has_data_; }

  const GgufMetadata& metadata() const { return metadata_; }
  std::span<const GgufTensorInfo> tensors() const { return tensors_; }
  const GgufTensorInfo* FindTensor(std::string_view name) const;

  // The bytes of one of this file's tensors. Throws GgufError when the file
  // was read header-only.
  std::span<const std::byte> TensorBytes(const GgufTensorInfo& tensor) const;

 private:
  friend class GgufParser;
  GgufFile() = default;

  std::shared_ptr<const ByteSource> source_;
  std::string path_;
  uint32_t version_ = 0;
  uint64_t alignment_ = kGgufDefaultAlignment;
  uint64_t data_offset_ = 0;
  uint64_t file_bytes_ = 0;
  uint64_t data_bytes_ = 0;
  bool has_data_ = false;
  GgufMetadata metadata_;
  std::vector<GgufTensorInfo> tensors_;
  std::unordered_map<std::string_view, size_t> tensor_index_;
};

}  // namespace vt
