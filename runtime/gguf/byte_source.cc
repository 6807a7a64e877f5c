#include "byte_source.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "vt/runtime/gguf_error.h"

namespace vt {
namespace {

[[noreturn]] void FailWithErrno(const std::filesystem::path& path, const char* action) {
  throw GgufError(path.string() + ": cannot " + action + ": " + std::strerror(errno));
}

// Closes a descriptor on every path out of Map().
struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

std::shared_ptr<const ByteSource> ByteSource::Map(const std::filesystem::path& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) FailWithErrno(path, "open");
  FdCloser closer{fd};

  struct stat info {};
  if (::fstat(fd, &info) != 0) FailWithErrno(path, "stat");
  if (S_ISDIR(info.st_mode)) throw GgufError(path.string() + ": is a directory, not a GGUF file");
  if (!S_ISREG(info.st_mode)) throw GgufError(path.string() + ": is not a regular file");

  std::shared_ptr<ByteSource> source(new ByteSource());
  const auto size = static_cast<size_t>(info.st_size);
  if (size == 0) return source;

  void* mapping = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (mapping == MAP_FAILED) FailWithErrno(path, "map");
  source->mapping_ = mapping;
  source->mapping_bytes_ = size;
  source->bytes_ = {static_cast<const std::byte*>(mapping), size};
  return source;
}

std::shared_ptr<const ByteSource> ByteSource::Own(std::vector<std::byte> bytes) {
  std::shared_ptr<ByteSource> source(new ByteSource());
  source->owned_ = std::move(bytes);
  source->bytes_ = source->owned_;
  return source;
}

ByteSource::~ByteSource() {
  if (mapping_ != nullptr) ::munmap(mapping_, mapping_bytes_);
}

}  // namespace vt
