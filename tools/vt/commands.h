// The vt subcommands. Each takes its arguments (after the subcommand name)
// and the two output streams, and returns the process exit code.
#pragma once

#include <ostream>
#include <span>
#include <string_view>

namespace vt::cli {

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 2;  // usage error or unreadable / malformed input

int RunInspect(std::span<const std::string_view> args, std::ostream& out, std::ostream& err);

}  // namespace vt::cli
