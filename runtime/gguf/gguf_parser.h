// Validating parser from bytes to GgufFile. Internal to the runtime; callers
// use GgufFile::Open / FromBytes.
#pragma once

#include <memory>
#include <string>

#include "byte_source.h"
#include "vt/runtime/gguf_file.h"

namespace vt {

class GgufParser {
 public:
  // Parses and validates the whole header of `source`; throws GgufError.
  static GgufFile Parse(std::shared_ptr<const ByteSource> source, std::string path,
                        const GgufReadOptions& options);

 private:
  class Impl;
};

}  // namespace vt
