// vt: plan where every tensor of a GGUF model lives, and inspect GGUF files.
#include <array>
#include <iostream>
#include <string_view>
#include <vector>

#include "commands.h"

namespace {

struct Command {
  std::string_view name;
  std::string_view summary;
  int (*run)(std::span<const std::string_view>, std::ostream&, std::ostream&);
};

constexpr std::array<Command, 3> kCommands = {{
    {"plan", "where every tensor of a model lives on a board, and whether it fits",
     vt::cli::RunPlan},
    {"inspect", "print a GGUF model's metadata and tensor table (--json for machines)",
     vt::cli::RunInspect},
    {"synth", "write a model-shaped GGUF (no weights) to plan before downloading",
     vt::cli::RunSynth},
}};

void PrintUsage(std::ostream& out) {
  out << "usage: vt <command> [options]\n\ncommands:\n";
  for (const Command& command : kCommands) {
    out << "  " << command.name << std::string(10 - command.name.size(), ' ') << command.summary
        << '\n';
  }
  out << "\nRun 'vt <command> --help' for a command's options.\n";
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty()) {
    PrintUsage(std::cerr);
    return vt::cli::kExitBadInput;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    PrintUsage(std::cout);
    return vt::cli::kExitOk;
  }
  if (args[0] == "--version") {
    std::cout << "vt " << VT_VERSION << '\n';
    return vt::cli::kExitOk;
  }
  for (const Command& command : kCommands) {
    if (args[0] == command.name) {
      return command.run(std::span(args).subspan(1), std::cout, std::cerr);
    }
  }
  std::cerr << "vt: unknown command '" << args[0] << "' (run 'vt --help')\n";
  return vt::cli::kExitBadInput;
}
