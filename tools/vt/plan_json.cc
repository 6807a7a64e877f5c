// The JSON view of a plan: one object, schema "vt.plan/1", documented in
// docs/plan-schema.json. Same numbers as the text view (both render PlanReport).
#include <nlohmann/json.hpp>

#include "plan_report.h"

namespace vt::cli {
namespace {

using Json = nlohmann::ordered_json;

Json OptionalBytes(bool present, uint64_t bytes) { return present ? Json(bytes) : Json(nullptr); }

Json GroupsToJson(const std::vector<TensorGroup>& groups, bool with_device) {
  Json out = Json::array();
  for (const TensorGroup& group : groups) {
    Json g;
    g["key"] = group.key;
    if (with_device) g["device"] = group.device;
    g["tensor_count"] = group.count;
    g["file_bytes"] = group.file_bytes;
    g["resident_bytes"] = group.resident_bytes;
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace

void RenderPlanJson(const PlanReport& r, bool tensors, std::ostream& out) {
  Json json;
  json["schema"] = "vt.plan/1";
  json["model"] = {{"files", r.files},
                   {"name", r.model_name},
                   {"architecture", r.architecture},
                   {"layer_count", r.layer_count},
                   {"n_tensors", r.data.tensors.size()},
                   {"file_bytes", r.file_bytes},
                   {"header_only", r.header_only}};
  const auto& ceiling = r.board.memory.measured_managed_ceiling_bytes;
  json["board"] = {{"name", r.board.name},
                   {"description", r.board.description},
                   {"device", NameOf(r.board.kind)},
                   {"device_count", r.board.device_count},
                   {"reported_bytes", r.board.memory.total_bytes},
                   {"margin_bytes", r.board.margin_bytes},
                   {"budget_bytes", DeviceBudgetBytes(r.board)},
                   {"managed_ceiling_bytes", OptionalBytes(ceiling.has_value(), ceiling.value_or(0))},
                   {"use_managed_alloc", r.memory_policy.use_managed_alloc},
                   {"host_memory_is_device_addressable",
                    r.memory_policy.host_memory_is_device_addressable}};
  json["context"] = {{"tokens", r.ctx}, {"trained", r.trained_ctx}};
  Json overrides = Json::array();
  for (const std::string& text : r.override_texts) overrides.push_back(text);
  json["placement"] = {{"origin", NameOf(r.plan.origin)},
                       {"installed", r.plan.installed},
                       {"engine_device", ToString(r.plan.engine_device)},
                       {"host_expert_layers", r.plan.host_expert_layers},
                       {"overrides", overrides},
                       {"flags", r.placement_flags}};
  Json devices = Json::array();
  for (size_t i = 0; i < r.fit.devices.size(); ++i) {
    const DeviceFit& fit = r.fit.devices[i];
    const DeviceUsage& usage = r.footprint.devices[i];
    devices.push_back({{"device", ToString(fit.device)},
                       {"weights_bytes", fit.weights_bytes},
                       {"kv_bytes", fit.kv_bytes},
                       {"reserve_bytes", fit.reserve_bytes},
                       {"need_bytes", fit.need_bytes},
                       {"budget_bytes", OptionalBytes(fit.has_budget, fit.budget_bytes)},
                       {"fits", fit.fits},
                       {"tensor_count", fit.tensor_count},
                       {"placed_in_count", usage.placed_in_count},
                       {"placed_in_bytes", usage.placed_in_bytes}});
  }
  json["devices"] = std::move(devices);
  json["placed"] = {{"tensor_count", r.footprint.placed_tensor_count},
                    {"bytes", r.footprint.placed_bytes},
                    {"engine_bytes", r.footprint.placed_engine_bytes}};
  json["by_role"] = GroupsToJson(r.by_role, true);
  json["by_type"] = GroupsToJson(r.by_type, false);
  json["fits"] = r.fit.fits;
  json["refusal"] = r.fit.fits ? Json(nullptr) : Json(r.refusal);
  json["suggestion"] = r.suggestion_flags ? Json(*r.suggestion_flags) : Json(nullptr);
  if (tensors) {
    Json list = Json::array();
    for (size_t i = 0; i < r.data.tensors.size(); ++i) {
      const PlannedTensor& tensor = r.data.tensors[i];
      const TensorDecision& decision = r.decisions[i];
      list.push_back({{"name", std::string(tensor.name)},
                      {"role", NameOf(tensor.cls.role)},
                      {"type", NameOf(tensor.type)},
                      {"ne", tensor.ne},
                      {"layer", tensor.cls.layer},
                      {"residency", NameOf(decision.route.residency)},
                      {"device", ToString(decision.device)},
                      {"file_bytes", tensor.file_bytes},
                      {"resident_bytes", decision.resident_bytes},
                      {"reason", Describe(decision.route.reason)}});
    }
    json["tensors"] = std::move(list);
  }
  out << json.dump(1, ' ', false, Json::error_handler_t::replace) << '\n';
}

}  // namespace vt::cli
