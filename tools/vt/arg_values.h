// Values of command-line options, parsed strictly: a whole number is all
// digits, nothing after it.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace vt::cli {

inline std::optional<uint64_t> ParseWholeNumber(std::string_view text) {
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Walks an argument list; Value() takes the argument after an option.
class ArgCursor {
 public:
  explicit ArgCursor(std::span<const std::string_view> args) : args_(args) {}
  bool done() const { return next_ >= args_.size(); }
  std::string_view Next() { return args_[next_++]; }
  // The option's value, or nullopt when the list ends.
  std::optional<std::string_view> Value() {
    if (done()) return std::nullopt;
    return args_[next_++];
  }

 private:
  std::span<const std::string_view> args_;
  size_t next_ = 0;
};

}  // namespace vt::cli
