#include "vt/runtime/gguf_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <type_traits>
#include <unordered_set>

#include "vt/runtime/gguf_file.h"
#include "vt/runtime/gguf_value.h"

namespace vt {
namespace {

void AppendBytes(std::vector<std::byte>& out, const void* data, size_t size) {
  const size_t old_size = out.size();
  out.resize(old_size + size);
  if (size > 0) std::memcpy(out.data() + old_size, data, size);
}

template <typename T>
void Append(std::vector<std::byte>& out, T value) {
  AppendBytes(out, &value, sizeof(T));
}

void AppendString(std::vector<std::byte>& out, const std::string& text) {
  Append<uint64_t>(out, text.size());
  AppendBytes(out, text.data(), text.size());
}

[[noreturn]] void Fail(const std::filesystem::path& path, const std::string& what) {
  throw GgufError(path.string() + ": " + what + ": " + std::strerror(errno));
}

}  // namespace

namespace {
// One key-value pair: key, value type id, then the value's bytes.
template <typename T>
void AppendKeyValue(std::vector<std::byte>& out, const std::string& key, GgufValueType type,
                    const T& value) {
  AppendString(out, key);
  Append(out, static_cast<uint32_t>(type));
  if constexpr (std::is_same_v<T, std::string>) {
    AppendString(out, value);
  } else {
    Append(out, value);
  }
}
}  // namespace

void GgufWriter::AddString(const std::string& key, const std::string& value) {
  AppendKeyValue(metadata_, key, GgufValueType::kString, value);
  ++kv_count_;
}

void GgufWriter::AddU32(const std::string& key, uint32_t value) {
  AppendKeyValue(metadata_, key, GgufValueType::kU32, value);
  ++kv_count_;
}

void GgufWriter::AddF32(const std::string& key, float value) {
  AppendKeyValue(metadata_, key, GgufValueType::kF32, value);
  ++kv_count_;
}

void GgufWriter::AddBool(const std::string& key, bool value) {
  AppendKeyValue(metadata_, key, GgufValueType::kBool, static_cast<uint8_t>(value ? 1 : 0));
  ++kv_count_;
}

void GgufWriter::AddTensor(const std::string& name, GgmlType type, const TensorDims& ne,
                           uint32_t n_dims) {
  const TensorByteCount count = CountTensorBytes(type, ne);
  if (count.problem != ShapeProblem::kNone) {
    throw GgufError("tensor '" + name + "': " + std::string(Describe(count.problem)));
  }
  if (name.empty() || name.size() > kGgufMaxTensorNameBytes) {
    throw GgufError("tensor '" + name + "': a name needs 1 to 63 bytes");
  }
  for (const Tensor& tensor : tensors_) {
    if (tensor.name == name) throw GgufError("tensor '" + name + "' is added twice");
  }
  const uint64_t offset = *AlignUp(data_bytes_, kGgufDefaultAlignment);
  tensors_.push_back({name, type, ne, n_dims, offset, count.bytes});
  data_bytes_ = offset + count.bytes;
}

std::vector<std::byte> GgufWriter::HeaderBytes() const {
  std::vector<std::byte> out;
  AppendBytes(out, "GGUF", 4);
  Append<uint32_t>(out, 3);
  Append<uint64_t>(out, tensors_.size());
  Append<uint64_t>(out, kv_count_);
  AppendBytes(out, metadata_.data(), metadata_.size());
  for (const Tensor& tensor : tensors_) {
    AppendString(out, tensor.name);
    Append<uint32_t>(out, tensor.n_dims);
    for (uint32_t d = 0; d < tensor.n_dims; ++d) Append<int64_t>(out, tensor.ne[d]);
    Append<uint32_t>(out, static_cast<uint32_t>(tensor.type));
    Append<uint64_t>(out, tensor.offset);
  }
  out.resize(*AlignUp(out.size(), kGgufDefaultAlignment), std::byte{0});
  return out;
}

uint64_t GgufWriter::FullSize() const {
  return HeaderBytes().size() + *AlignUp(data_bytes_, kGgufDefaultAlignment);
}

void GgufWriter::Write(const std::filesystem::path& path, GgufDataRegion region) const {
  const std::vector<std::byte> header = HeaderBytes();
  const std::filesystem::path temporary = path.string() + ".vt-partial";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) Fail(temporary, "cannot create");
  const auto abandon = [&](const char* what) {
    const int saved = errno;
    ::close(fd);
    ::unlink(temporary.c_str());
    errno = saved;
    Fail(path, what);
  };
  size_t written = 0;
  while (written < header.size()) {
    const ssize_t n = ::write(fd, header.data() + written, header.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      abandon("cannot write");
    }
    written += static_cast<size_t>(n);
  }
  if (region == GgufDataRegion::kSparse) {
    const uint64_t full = header.size() + *AlignUp(data_bytes_, kGgufDefaultAlignment);
    if (::ftruncate(fd, static_cast<off_t>(full)) != 0) abandon("cannot extend to full size");
  }
  if (::close(fd) != 0) {
    ::unlink(temporary.c_str());
    Fail(path, "cannot close");
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary);
    throw GgufError(path.string() + ": cannot rename into place: " + error.message());
  }
}

}  // namespace vt
