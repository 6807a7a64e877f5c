#include "vt/runtime/gguf_file.h"

#include "byte_source.h"
#include "gguf_parser.h"

namespace vt {

GgufFile GgufFile::Open(const std::filesystem::path& path, const GgufReadOptions& options) {
  return GgufParser::Parse(ByteSource::Map(path), path.string(), options);
}

GgufFile GgufFile::FromBytes(std::vector<std::byte> bytes, std::string display_name,
                             const GgufReadOptions& options) {
  return GgufParser::Parse(ByteSource::Own(std::move(bytes)), std::move(display_name), options);
}

const GgufTensorInfo* GgufFile::FindTensor(std::string_view name) const {
  const auto found = tensor_index_.find(name);
  return found == tensor_index_.end() ? nullptr : &tensors_[found->second];
}

std::span<const std::byte> GgufFile::TensorBytes(const GgufTensorInfo& tensor) const {
  if (!has_data_) {
    throw GgufError(path_ + ": tensor '" + std::string(tensor.name) +
                    "': the file was read header-only and has no tensor data");
  }
  return source_->bytes().subspan(tensor.file_position, tensor.bytes);
}

}  // namespace vt
