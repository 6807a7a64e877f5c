// vt plan: where every tensor of a model lives on a board, in what form, and
// whether it fits. Exit 0 fits, 3 does not fit (the refusal printed), 2 bad
// input or usage (one line on stderr).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <variant>

#include "arg_values.h"
#include "commands.h"
#include "plan_report.h"
#include "vt/policy/byte_size.h"

namespace vt::cli {
namespace {

constexpr std::string_view kPlanHelp =
    R"help(usage: vt plan [MODEL.gguf] [options]

Decides, for every tensor, the device that runs it and the form it takes
there (blocks kept, F16 kept, expanded to BF16, rows gathered, plain numbers),
and checks each device's need (weights + KV cache + reserve) against its
budget. Reads headers only: a header-only file (vt synth --header-only) plans
like the full model. Any shard of a split model opens the whole set.

With no MODEL, plans the bundled example on gfx1151: the refusal, then the fix.

board:
  --board NAME             gfx1151, h200, h200x2, rtx24, apple-m3-max, cpu
  --device KIND            cpu, cuda, rocm, metal, vulkan, xpu, tenstorrent
                           (picks that kind's profile; others need --budget)
  --budget SIZE            device memory, e.g. 24G, 80GiB, 48000MB (no margin)
  --managed-ceiling SIZE   allocations are managed and top out at SIZE
  --reserve SIZE           compute reserve per accelerator (default 1G)
placement:
  --cpu-moe                every routed-expert tower on the host
  --n-cpu-moe N            routed experts of layers 0..N-1 on the host
  --override-tensor R=DEV  tensors whose name matches regex R run on DEV
                           (repeatable, first match wins; -ot is the same)
  --fit                    choose the fewest host expert layers (then a
                           shorter context) that fit, and print the flags
  --ctx N                  context length for the KV cache (default 4096, or
                           the trained length when shorter)
  --no-keep-quant, --no-keep-f16, --cpu-ref   routing switches
output:
  --explain                the reason for each group of decisions
  --tensors                the per-tensor table (and tensors[] in JSON)
  --json                   one JSON object (schema vt.plan/1, docs/plan-schema.json)
  --svg FILE               draw each device's memory as stacked bars
  -h, --help               this text

exit codes: 0 fits, 3 does not fit, 2 bad usage or input
)help";

struct PlanArgs {
  std::optional<std::string> model;
  std::optional<std::string> board_name;
  std::optional<DeviceKind> device;
  std::optional<uint64_t> budget;
  std::optional<uint64_t> managed_ceiling;
  std::optional<uint64_t> reserve;
  bool cpu_moe = false;
  std::optional<uint32_t> n_cpu_moe;
  bool fit = false;
  std::optional<uint32_t> ctx;
  std::vector<std::string> overrides;
  bool explain = false;
  bool tensors = false;
  bool json = false;
  std::optional<std::string> svg;
  RouteSwitches switches;
};

struct UsageError {
  std::string message;
};

std::string KnownBoards() {
  std::string names;
  for (const Board& board : kBoardProfiles) names += (names.empty() ? "" : ", ") + std::string(board.name);
  return names;
}

std::variant<PlanArgs, UsageError> ParsePlanArgs(std::span<const std::string_view> args) {
  PlanArgs parsed;
  ArgCursor cursor(args);
  while (!cursor.done()) {
    const std::string_view arg = cursor.Next();
    const auto value = [&]() -> std::optional<std::string_view> { return cursor.Value(); };
    const auto missing = [&] { return UsageError{std::string(arg) + " needs a value"}; };
    if (arg == "--cpu-moe") {
      parsed.cpu_moe = true;
    } else if (arg == "--fit") {
      parsed.fit = true;
    } else if (arg == "--explain") {
      parsed.explain = true;
    } else if (arg == "--tensors") {
      parsed.tensors = true;
    } else if (arg == "--json") {
      parsed.json = true;
    } else if (arg == "--no-keep-quant") {
      parsed.switches.keep_quant = false;
    } else if (arg == "--no-keep-f16") {
      parsed.switches.keep_f16 = false;
    } else if (arg == "--cpu-ref") {
      parsed.switches.cpu_ref = true;
    } else if (arg == "--board") {
      const auto v = value();
      if (!v) return missing();
      if (!FindBoard(*v)) {
        return UsageError{"unknown board '" + std::string(*v) + "' (known: " + KnownBoards() + ")"};
      }
      parsed.board_name = std::string(*v);
    } else if (arg == "--device") {
      const auto v = value();
      if (!v) return missing();
      parsed.device = DeviceKindFromName(*v);
      if (!parsed.device) {
        return UsageError{"unknown device '" + std::string(*v) +
                          "' (cpu, cuda, rocm, metal, vulkan, xpu, tenstorrent)"};
      }
    } else if (arg == "--budget" || arg == "--managed-ceiling" || arg == "--reserve") {
      const auto v = value();
      if (!v) return missing();
      const std::optional<uint64_t> bytes = ParseByteSize(*v);
      if (!bytes) {
        return UsageError{std::string(arg) + " '" + std::string(*v) +
                          "' is not a size (e.g. 24G, 64GiB, 48000MB, 68719476736)"};
      }
      (arg == "--budget" ? parsed.budget : arg == "--reserve" ? parsed.reserve : parsed.managed_ceiling) = bytes;
    } else if (arg == "--n-cpu-moe" || arg == "--ctx") {
      const auto v = value();
      if (!v) return missing();
      const std::optional<uint64_t> number = ParseWholeNumber(*v);
      const uint64_t limit = arg == "--ctx" ? 1u << 24 : 1u << 20;
      if (!number || *number > limit || (arg == "--ctx" && *number == 0)) {
        return UsageError{std::string(arg) + " '" + std::string(*v) + "' is not a whole number in " +
                          (arg == "--ctx" ? "1.." : "0..") + std::to_string(limit)};
      }
      (arg == "--ctx" ? parsed.ctx : parsed.n_cpu_moe) = static_cast<uint32_t>(*number);
    } else if (arg == "--override-tensor" || arg == "-ot") {
      const auto v = value();
      if (!v) return missing();
      parsed.overrides.emplace_back(*v);
    } else if (arg == "--svg") {
      const auto v = value();
      if (!v) return missing();
      parsed.svg = std::string(*v);
    } else if (arg.starts_with("-")) {
      return UsageError{"unknown option '" + std::string(arg) + "' (run 'vt plan --help')"};
    } else if (parsed.model) {
      return UsageError{"one model at a time; got '" + *parsed.model + "' and '" + std::string(arg) + "'"};
    } else {
      parsed.model = std::string(arg);
    }
  }
  if (parsed.cpu_moe && parsed.n_cpu_moe) return UsageError{"--cpu-moe and --n-cpu-moe exclude each other"};
  return parsed;
}

// The board the arguments describe, and the flags that choose it.
std::variant<PlanSetup, UsageError> ResolveSetup(const PlanArgs& args, bool demo) {
  PlanSetup setup;
  std::optional<Board> board;
  if (args.board_name) {
    board = FindBoard(*args.board_name);
    setup.board_flags = "--board " + *args.board_name;
    if (args.device && *args.device != board->kind) {
      return UsageError{"--device " + std::string(NameOf(*args.device)) + " conflicts with --board " +
                        *args.board_name + " (" + std::string(NameOf(board->kind)) + ")"};
    }
  } else if (args.device) {
    const char* profile = nullptr;
    switch (*args.device) {
      case DeviceKind::kCpu: profile = "cpu"; break;
      case DeviceKind::kCuda: profile = "rtx24"; break;
      case DeviceKind::kRocm: profile = "gfx1151"; break;
      case DeviceKind::kMetal: profile = "apple-m3-max"; break;
      case DeviceKind::kVulkan:
      case DeviceKind::kXpu:
      case DeviceKind::kTenstorrent: break;
    }
    setup.board_flags = "--device " + std::string(NameOf(*args.device));
    if (profile != nullptr) {
      board = FindBoard(profile);
    } else if (args.budget) {
      board = Board{"custom", "a board described by --device and --budget", *args.device, 1,
                    {false, false, false, false, 0, std::nullopt}, 0, std::nullopt};
    } else {
      return UsageError{"--device " + std::string(NameOf(*args.device)) +
                        " has no board profile: give its memory with --budget SIZE"};
    }
  } else {
    board = FindBoard(demo ? "gfx1151" : "rtx24");
    setup.board_is_default = !args.budget;
    if (demo) setup.board_flags = "--board gfx1151";
  }
  if (args.budget) {
    board->name = args.board_name || args.device ? board->name : "custom";
    board->description = "memory given by --budget";
    board->memory.total_bytes = *args.budget;
    board->memory.measured_managed_ceiling_bytes = std::nullopt;
    board->margin_bytes = 0;
    setup.board_flags += (setup.board_flags.empty() ? "" : " ") + std::string("--budget ") +
                         std::to_string(*args.budget);
  }
  if (args.managed_ceiling) {
    board->memory.integrated = true;
    board->memory.managed_memory = true;
    board->memory.measured_managed_ceiling_bytes = *args.managed_ceiling;
    setup.board_flags += " --managed-ceiling " + std::to_string(*args.managed_ceiling);
  }
  setup.board = *board;
  for (const std::string& text : args.overrides) {
    OverrideParse parsed = ParseOverrideRule(text);
    if (!parsed.rule) return UsageError{"--override-tensor: " + parsed.error};
    setup.overrides.push_back(std::move(*parsed.rule));
    setup.override_texts.push_back(text);
  }
  setup.cpu_moe = args.cpu_moe;
  setup.n_cpu_moe = args.n_cpu_moe;
  setup.fit = args.fit;
  setup.ctx = args.ctx;
  if (args.reserve) setup.reserve_bytes = *args.reserve;
  setup.switches = args.switches;
  return setup;
}

// The bundled example: next to the sources, or installed beside the binary.
std::filesystem::path ExampleModel() {
  const std::filesystem::path in_tree = std::filesystem::path(VT_SOURCE_DIR) / "examples" / VT_EXAMPLE_MODEL;
  if (std::filesystem::exists(in_tree)) return in_tree;
  std::error_code ignored;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ignored);
  return self.parent_path().parent_path() / "share" / "vt" / "examples" / VT_EXAMPLE_MODEL;
}

bool UseColor() {
  const char* no_color = std::getenv("NO_COLOR");
  return ::isatty(STDOUT_FILENO) && (no_color == nullptr || *no_color == '\0');
}

}  // namespace

int RunPlan(std::span<const std::string_view> args, std::ostream& out, std::ostream& err) {
  for (const std::string_view arg : args) {
    if (arg == "--help" || arg == "-h") {
      out << kPlanHelp;
      return kExitOk;
    }
  }
  auto parsed = ParsePlanArgs(args);
  if (auto* usage = std::get_if<UsageError>(&parsed)) {
    err << "vt plan: " << usage->message << '\n';
    return kExitBadInput;
  }
  PlanArgs& plan_args = std::get<PlanArgs>(parsed);
  const bool demo = !plan_args.model;
  auto setup_or_error = ResolveSetup(plan_args, demo);
  if (auto* usage = std::get_if<UsageError>(&setup_or_error)) {
    err << "vt plan: " << usage->message << '\n';
    return kExitBadInput;
  }
  PlanSetup& setup = std::get<PlanSetup>(setup_or_error);
  const std::string model_argument = demo ? ExampleModel().string() : *plan_args.model;
  setup.model_path = model_argument;
  const bool show_demo_refusal = demo && !plan_args.json && !setup.fit && !setup.cpu_moe &&
                                 !setup.n_cpu_moe && setup.overrides.empty();

  try {
    GgufReadOptions options;
    options.allow_missing_data = true;  // planning reads headers; header-only files plan too
    const GgufModel model = GgufModel::Open(model_argument, options);
    const bool color = UseColor();
    if (show_demo_refusal) {
      const PlanReport refused = BuildPlanReport(model, setup);
      out << "vt plan with no model: the bundled example on " << setup.board.name
          << ", first as it stands, then with --fit.\n\n";
      RenderPlanText(refused, plan_args.explain, false, color, out);
      out << "\n──── the fix: " << (refused.suggestion_flags ? *refused.suggestion_flags : "--fit")
          << " ────\n\n";
      setup.fit = true;
    }
    const PlanReport report = BuildPlanReport(model, setup);
    if (plan_args.json) {
      RenderPlanJson(report, plan_args.tensors, out);
    } else {
      RenderPlanText(report, plan_args.explain, plan_args.tensors, color, out);
      if (report.fit_requested && report.fit.fits) {
        out << "reproduce: " << ReproduceCommand(report, model_argument) << '\n';
      }
    }
    if (plan_args.svg) {
      std::ofstream svg(*plan_args.svg, std::ios::trunc);
      svg << RenderPlanSvg(report);
      if (!svg) {
        err << "vt plan: cannot write --svg file '" << *plan_args.svg << "'\n";
        return kExitBadInput;
      }
    }
    return report.fit.fits ? kExitOk : kExitDoesNotFit;
  } catch (const std::exception& error) {
    err << "vt plan: " << error.what() << '\n';
    return kExitBadInput;
  }
}

}  // namespace vt::cli
