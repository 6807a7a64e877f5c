// The bytes a GgufFile reads: a read-only mapping of a file, or a buffer the
// source owns. Internal to the runtime.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

namespace vt {

class ByteSource {
 public:
  // Maps a regular file read-only. Throws GgufError naming the path when it
  // cannot be opened, is not a regular file (a directory, a FIFO: never
  // blocks), or cannot be mapped. An empty file maps to zero bytes.
  static std::shared_ptr<const ByteSource> Map(const std::filesystem::path& path);
  static std::shared_ptr<const ByteSource> Own(std::vector<std::byte> bytes);

  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;
  ~ByteSource();

  std::span<const std::byte> bytes() const { return bytes_; }

 private:
  ByteSource() = default;

  std::vector<std::byte> owned_;
  void* mapping_ = nullptr;
  size_t mapping_bytes_ = 0;
  std::span<const std::byte> bytes_;
};

}  // namespace vt
