// The text view of a plan: what a person reads in ten seconds (board, each
// device's need against its budget, the verdict), then summaries, then the
// details asked for (--explain, --tensors).
#include <iomanip>
#include <sstream>

#include "plan_report.h"
#include "vt/policy/byte_text.h"

namespace vt::cli {
namespace {

struct Style {
  bool color;
  std::string Bold(const std::string& text) const { return Wrap("1", text); }
  std::string Green(const std::string& text) const { return Wrap("32", text); }
  std::string Red(const std::string& text) const { return Wrap("31", text); }
  std::string Dim(const std::string& text) const { return Wrap("2", text); }
  std::string Wrap(const char* code, const std::string& text) const {
    return color ? "\033[" + std::string(code) + "m" + text + "\033[0m" : text;
  }
};

std::string Cell(const std::string& text, int width, bool right = true) {
  std::ostringstream out;
  out << (right ? std::right : std::left) << std::setw(width) << text;
  return out.str();
}

std::string ShapeText(const TensorDims& ne) {
  std::string text = "[";
  int dims = 4;
  while (dims > 1 && ne[dims - 1] == 1) --dims;
  for (int d = 0; d < dims; ++d) text += (d ? ", " : "") + std::to_string(ne[d]);
  return text + "]";
}

void RenderHeader(const PlanReport& r, const Style& s, std::ostream& out) {
  out << s.Bold("model") << "   " << (r.model_name.empty() ? r.files.front() : r.model_name) << " · "
      << r.architecture << " · " << r.layer_count << " layers · " << r.data.tensors.size()
      << " tensors in " << r.files.size() << (r.files.size() == 1 ? " file" : " files") << " · "
      << FormatBytes(r.file_bytes) << (r.header_only ? " (header only)" : "") << '\n';
  out << s.Bold("board") << "   " << r.board.name << " · " << r.board.description
      << (r.board_is_default ? s.Dim("  (default: choose with --board or --budget)") : "") << '\n';
  out << "        budget " << FormatBytes(DeviceBudgetBytes(r.board)) << " per device ("
      << r.memory_policy.ceiling_reason << ") · managed alloc "
      << (r.memory_policy.use_managed_alloc ? "yes" : "no") << " · host memory device-addressable "
      << (r.memory_policy.host_memory_is_device_addressable ? "yes" : "no") << '\n';
  out << s.Bold("plan") << "    " << NameOf(r.plan.origin);
  if (r.plan.origin == PlacementOrigin::kCpuMoe) {
    out << " · every routed expert on the host";
  } else if (r.plan.host_expert_layers > 0) {
    out << " · routed experts of layers 0-" << r.plan.host_expert_layers - 1 << " on the host";
  }
  if (!r.plan.layer_device.empty() && r.board.device_count > 1) {
    out << " · layers split over " << static_cast<int>(r.board.device_count) << " devices";
  }
  if (!r.override_texts.empty()) out << " · " << r.override_texts.size() << " override rule(s)";
  out << " · context " << r.ctx;
  if (r.trained_ctx > 0) out << " (trained " << r.trained_ctx << ")";
  out << '\n';
}

void RenderDevices(const PlanReport& r, const Style& s, std::ostream& out) {
  out << '\n'
      << s.Bold(Cell("device", 8, false) + Cell("tensors", 9) + Cell("weights", 12) + Cell("KV", 12) +
                Cell("reserve", 12) + Cell("need", 12) + Cell("budget", 12) + "  verdict")
      << '\n';
  for (const DeviceFit& device : r.fit.devices) {
    const bool host = device.device.IsHost();
    std::string verdict;
    if (device.has_budget) {
      verdict = device.fits ? s.Green("fits") : s.Red("does not fit");
    } else {
      verdict = s.Dim("mapped from the file");
    }
    out << Cell(ToString(device.device), 8, false) << Cell(std::to_string(device.tensor_count), 9)
        << Cell(FormatBytes(device.weights_bytes), 12)
        << Cell(host && device.kv_bytes == 0 ? "-" : FormatBytes(device.kv_bytes), 12)
        << Cell(host && device.reserve_bytes == 0 ? "-" : FormatBytes(device.reserve_bytes), 12)
        << Cell(FormatBytes(device.need_bytes), 12)
        << Cell(device.has_budget ? FormatBytes(device.budget_bytes) : "-", 12) << "  " << verdict
        << '\n';
  }
  if (r.footprint.placed_tensor_count > 0) {
    out << "placed  " << r.footprint.placed_tensor_count << " tensors off "
        << ToString(r.plan.engine_device) << ": " << FormatBytes(r.footprint.placed_bytes)
        << " where they run, " << FormatBytes(r.footprint.placed_engine_bytes) << " as "
        << ToString(r.plan.engine_device) << " would have held them\n";
  }
}

void RenderGroups(const PlanReport& r, const Style& s, std::ostream& out) {
  out << '\n' << s.Bold(Cell("by role", 13, false) + Cell("device", 8, false) + Cell("tensors", 9) +
                        Cell("file", 12) + Cell("resident", 12))
      << '\n';
  for (const TensorGroup& group : r.by_role) {
    out << Cell(group.key, 13, false) << Cell(group.device, 8, false)
        << Cell(std::to_string(group.count), 9) << Cell(FormatBytes(group.file_bytes), 12)
        << Cell(FormatBytes(group.resident_bytes), 12) << '\n';
  }
  out << '\n' << s.Bold(Cell("by type", 21, false) + Cell("tensors", 9) + Cell("file", 12) +
                        Cell("resident", 12))
      << '\n';
  for (const TensorGroup& group : r.by_type) {
    out << Cell(group.key, 21, false) << Cell(std::to_string(group.count), 9)
        << Cell(FormatBytes(group.file_bytes), 12) << Cell(FormatBytes(group.resident_bytes), 12)
        << '\n';
  }
}

void RenderExplain(const PlanReport& r, const Style& s, std::ostream& out) {
  out << '\n' << s.Bold("why") << '\n';
  for (const TensorGroup& group : r.by_reason) {
    out << "  " << group.count << " " << group.key << " tensor(s) on " << group.device << ", "
        << FormatBytes(group.resident_bytes) << ": " << group.detail << '\n';
  }
  if (r.plan.installed) {
    out << "  placement: " << NameOf(r.plan.origin) << "; each tensor runs on the device "
        << "ComputeDeviceFor answers, and is routed for that device\n";
  }
}

void RenderTensors(const PlanReport& r, const Style& s, std::ostream& out) {
  size_t name_width = 4;
  for (const PlannedTensor& tensor : r.data.tensors) name_width = std::max(name_width, tensor.name.size());
  const int w = static_cast<int>(name_width) + 2;
  out << '\n'
      << s.Bold(Cell("name", w, false) + Cell("role", 12, false) + Cell("type", 9, false) +
                Cell("shape", 24, false) + Cell("residency", 13, false) + Cell("device", 8, false) +
                Cell("resident", 12) + "  reason")
      << '\n';
  for (size_t i = 0; i < r.data.tensors.size(); ++i) {
    const PlannedTensor& tensor = r.data.tensors[i];
    const TensorDecision& decision = r.decisions[i];
    out << Cell(std::string(tensor.name), w, false) << Cell(std::string(NameOf(tensor.cls.role)), 12, false)
        << Cell(std::string(NameOf(tensor.type)), 9, false) << Cell(ShapeText(tensor.ne), 24, false)
        << Cell(std::string(NameOf(decision.route.residency)), 13, false)
        << Cell(ToString(decision.device), 8, false) << Cell(FormatBytes(decision.resident_bytes), 12)
        << "  " << Describe(decision.route.reason) << '\n';
  }
}

}  // namespace

void RenderPlanText(const PlanReport& r, bool explain, bool tensors, bool color, std::ostream& out) {
  const Style s{color};
  RenderHeader(r, s, out);
  RenderDevices(r, s, out);
  RenderGroups(r, s, out);
  if (explain) RenderExplain(r, s, out);
  if (tensors) RenderTensors(r, s, out);
  out << '\n';
  if (r.fit_requested) {
    out << "fit: " << (r.placement_flags.empty() ? "nothing needs placing" : r.placement_flags)
        << '\n';
  }
  if (r.fit.fits) {
    out << s.Green(s.Bold("fits")) << '\n';
  } else {
    out << s.Red(s.Bold("refused")) << ' ' << r.refusal;
  }
}

}  // namespace vt::cli
