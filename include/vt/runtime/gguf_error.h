// The one exception type the GGUF reader throws.
//
// Every message has the shape "<file>: <where>: <what>", naming the file, the
// field (a header field, a metadata key, a tensor) and the offending value,
// so a person can find the bad byte without a debugger.
#pragma once

#include <stdexcept>
#include <string>

namespace vt {

class GgufError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace vt
