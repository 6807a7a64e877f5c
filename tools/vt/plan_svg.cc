// The picture of a plan: one horizontal bar per device (the host last),
// stacked by role, with routed experts split into one segment per layer, then
// KV cache and reserve, and each budget as a dashed line.
#include <algorithm>
#include <array>
#include <map>
#include <sstream>

#include "plan_report.h"
#include "vt/policy/byte_text.h"

namespace vt::cli {
namespace {

constexpr double kLeft = 110;
constexpr double kBarWidth = 760;
constexpr double kBarHeight = 34;
constexpr double kRowGap = 30;
constexpr double kTop = 64;

struct Segment {
  std::string label;
  uint64_t bytes;
  std::string color;
  bool layer_slice = false;  // one layer of routed experts: drawn with a thin edge
};

std::string ColorOf(TensorRole role) {
  switch (role) {
    case TensorRole::kEmbeddingTable: return "#8e6c8a";
    case TensorRole::kMatmulWeight: return "#4e79a7";
    case TensorRole::kStackedExperts: return "#f28e2b";
    case TensorRole::kTransformedWeight: return "#76b7b2";
    case TensorRole::kConvWeight: return "#59a14f";
    case TensorRole::kVector: return "#edc948";
    case TensorRole::kUnclaimed: return "#bab0ac";
  }
  return "#000000";
}

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::vector<Segment> SegmentsFor(const PlanReport& r, const DeviceFit& fit) {
  std::map<TensorRole, uint64_t> by_role;
  std::map<int32_t, uint64_t> experts_by_layer;
  for (size_t i = 0; i < r.data.tensors.size(); ++i) {
    if (r.decisions[i].device != fit.device) continue;
    const PlannedTensor& tensor = r.data.tensors[i];
    if (tensor.cls.role == TensorRole::kStackedExperts) {
      experts_by_layer[tensor.cls.layer] += r.decisions[i].resident_bytes;
    } else {
      by_role[tensor.cls.role] += r.decisions[i].resident_bytes;
    }
  }
  std::vector<Segment> segments;
  for (const auto& [role, bytes] : by_role) {
    segments.push_back({std::string(NameOf(role)), bytes, ColorOf(role)});
  }
  for (const auto& [layer, bytes] : experts_by_layer) {
    segments.push_back({"experts, layer " + std::to_string(layer), bytes,
                        ColorOf(TensorRole::kStackedExperts), true});
  }
  if (fit.kv_bytes > 0) segments.push_back({"KV cache", fit.kv_bytes, "#e15759"});
  if (fit.reserve_bytes > 0) segments.push_back({"compute reserve", fit.reserve_bytes, "#9c9c9c"});
  return segments;
}

}  // namespace

std::string RenderPlanSvg(const PlanReport& r) {
  uint64_t scale_bytes = 1;
  for (const DeviceFit& fit : r.fit.devices) {
    scale_bytes = std::max({scale_bytes, fit.need_bytes, fit.has_budget ? fit.budget_bytes : 0});
  }
  const double per_byte = kBarWidth / static_cast<double>(scale_bytes);
  const double height = kTop + static_cast<double>(r.fit.devices.size()) * (kBarHeight + kRowGap) + 70;
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << kLeft + kBarWidth + 150
      << "\" height=\"" << height << "\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\"12\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  svg << "<text x=\"12\" y=\"22\" font-size=\"15\" font-weight=\"bold\">"
      << Escape((r.model_name.empty() ? r.files.front() : r.model_name) + " on " +
                std::string(r.board.name))
      << "</text>\n";
  svg << "<text x=\"12\" y=\"42\">" << Escape("plan: " + std::string(NameOf(r.plan.origin)) +
                                              (r.placement_flags.empty() ? "" : " (" + r.placement_flags + ")") +
                                              ", context " + std::to_string(r.ctx) + " — " +
                                              (r.fit.fits ? "fits" : "does not fit"))
      << "</text>\n";
  double y = kTop;
  for (const DeviceFit& fit : r.fit.devices) {
    svg << "<text x=\"12\" y=\"" << y + kBarHeight / 2 + 4 << "\" font-weight=\"bold\">"
        << Escape(ToString(fit.device)) << "</text>\n";
    double x = kLeft;
    for (const Segment& segment : SegmentsFor(r, fit)) {
      const double w = static_cast<double>(segment.bytes) * per_byte;
      svg << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << w << "\" height=\"" << kBarHeight
          << "\" fill=\"" << segment.color << "\"" << (segment.layer_slice ? " stroke=\"#a0521b\" stroke-width=\"0.4\"" : "")
          << "><title>" << Escape(segment.label + ": " + FormatBytes(segment.bytes)) << "</title></rect>\n";
      x += w;
    }
    const double bx = kLeft + static_cast<double>(fit.budget_bytes) * per_byte;
    const double label_x = fit.has_budget ? std::max(x, bx) : x;
    svg << "<text x=\"" << label_x + 6 << "\" y=\"" << y + kBarHeight / 2 + 4 << "\">"
        << Escape(FormatBytes(fit.need_bytes)) << "</text>\n";
    if (fit.has_budget) {
      svg << "<line x1=\"" << bx << "\" y1=\"" << y - 8 << "\" x2=\"" << bx << "\" y2=\"" << y + kBarHeight + 8
          << "\" stroke=\"" << (fit.fits ? "#2a7a2a" : "#c0392b") << "\" stroke-width=\"2\" stroke-dasharray=\"5,3\"/>\n";
      svg << "<text x=\"" << bx + 3 << "\" y=\"" << y - 10 << "\" fill=\"#555\">"
          << Escape("budget " + FormatBytes(fit.budget_bytes)) << "</text>\n";
    } else {
      svg << "<text x=\"" << kLeft << "\" y=\"" << y + kBarHeight + 14 << "\" fill=\"#555\">"
          << "mapped from the file (no device budget)</text>\n";
    }
    y += kBarHeight + kRowGap;
  }
  // Legend.
  double lx = 12;
  const std::array<std::pair<const char*, const char*>, 7> legend = {{
      {"embedding", "#8e6c8a"}, {"matmul", "#4e79a7"}, {"experts (one slice per layer)", "#f28e2b"},
      {"transformed", "#76b7b2"}, {"vector", "#edc948"}, {"KV cache", "#e15759"}, {"reserve", "#9c9c9c"}}};
  for (const auto& [label, color] : legend) {
    svg << "<rect x=\"" << lx << "\" y=\"" << y + 4 << "\" width=\"12\" height=\"12\" fill=\"" << color << "\"/>"
        << "<text x=\"" << lx + 16 << "\" y=\"" << y + 14 << "\">" << label << "</text>\n";
    lx += 30 + 7.0 * static_cast<double>(std::string_view(label).size());
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace vt::cli
