// A program outside the vt tree: reads a model through the installed package.
#include <iostream>

#include "vt/policy/ggml_type.h"
#include "vt/runtime/gguf_model.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  const vt::GgufModel model = vt::GgufModel::Open(argv[1]);
  static_assert(vt::TraitsOf(vt::GgmlType::kQ8_0).block_bytes == 34);
  std::cout << model.tensors().size() << " tensors\n";
  return model.tensors().empty() ? 1 : 0;
}
