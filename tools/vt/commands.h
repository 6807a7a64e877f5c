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
inline constexpr int kExitDoesNotFit = 3;  // vt plan: the plan does not fit the board

int RunInspect(std::span<const std::string_view> args, std::ostream& out, std::ostream& err);
int RunSynth(std::span<const std::string_view> args, std::ostream& out, std::ostream& err);
int RunPlan(std::span<const std::string_view> args, std::ostream& out, std::ostream& err);

}  // namespace vt::cli
