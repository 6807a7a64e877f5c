#include "synthetic_model.h"

namespace vt::testing {

void SyntheticModel::Add(const std::string& name, GgmlType type, TensorDims ne) {
  names.push_back(name);
  PlannedTensor tensor;
  tensor.name = names.back();
  tensor.type = type;
  tensor.ne = ne;
  tensor.file_bytes = CountTensorBytes(type, ne).bytes;
  tensor.cls = ClassifyTensor(tensor.name, ne);
  tensors.push_back(tensor);
}

SyntheticModel MakeSyntheticMoe(const SyntheticMoeShape& s) {
  SyntheticModel model;
  model.layer_count = s.layers;
  model.Add("token_embd.weight", GgmlType::kQ4_K, {s.hidden, s.vocab, 1, 1});
  for (uint32_t layer = 0; layer < s.layers; ++layer) {
    const std::string blk = "blk." + std::to_string(layer) + ".";
    model.Add(blk + "attn_norm.weight", GgmlType::kF32, {s.hidden, 1, 1, 1});
    model.Add(blk + "attn_q.weight", s.attention_type, {s.hidden, s.hidden, 1, 1});
    model.Add(blk + "attn_k.weight", s.attention_type, {s.hidden, s.hidden / 8, 1, 1});
    model.Add(blk + "attn_v.weight", GgmlType::kQ6_K, {s.hidden, s.hidden / 8, 1, 1});
    model.Add(blk + "attn_output.weight", s.attention_type, {s.hidden, s.hidden, 1, 1});
    model.Add(blk + "ffn_norm.weight", GgmlType::kF32, {s.hidden, 1, 1, 1});
    if (layer < s.dense_layers) {
      model.Add(blk + "ffn_gate.weight", GgmlType::kQ4_K, {s.hidden, 4 * s.hidden, 1, 1});
      model.Add(blk + "ffn_up.weight", GgmlType::kQ4_K, {s.hidden, 4 * s.hidden, 1, 1});
      model.Add(blk + "ffn_down.weight", GgmlType::kQ6_K, {4 * s.hidden, s.hidden, 1, 1});
      continue;
    }
    model.Add(blk + "ffn_gate_inp.weight", GgmlType::kF32, {s.hidden, s.experts, 1, 1});
    model.Add(blk + "ffn_gate_exps.weight", s.tower_type, {s.hidden, s.expert_ff, s.experts, 1});
    model.Add(blk + "ffn_up_exps.weight", s.tower_type, {s.hidden, s.expert_ff, s.experts, 1});
    model.Add(blk + "ffn_down_exps.weight", s.down_type, {s.expert_ff, s.hidden, s.experts, 1});
    model.Add(blk + "ffn_up_shexp.weight", GgmlType::kQ8_0, {s.hidden, s.expert_ff, 1, 1});
  }
  model.Add("output_norm.weight", GgmlType::kF32, {s.hidden, 1, 1, 1});
  model.Add("output.weight", GgmlType::kQ6_K, {s.hidden, s.vocab, 1, 1});
  model.kv.n_layers = s.layers;
  model.kv.n_head_kv = 2;
  model.kv.key_length = 128;
  model.kv.value_length = 128;
  return model;
}

}  // namespace vt::testing
