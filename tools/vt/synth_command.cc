// vt synth: write a model-shaped GGUF header (and, by default, a sparse data
// region of the full size) so an operator can plan a model before
// downloading it.
#include <iostream>
#include <string>

#include "arg_values.h"
#include "commands.h"
#include "synth_model.h"
#include "vt/policy/byte_text.h"

namespace vt::cli {
namespace {

constexpr std::string_view kSynthHelp =
    R"help(usage: vt synth --like ARCH --mix MIX [options] OUT.gguf

Writes a GGUF with a real architecture's tensor names and shapes and a type
mix, and no weights: a model to plan before downloading it.

  --like ARCH        deepseek-v3, qwen3-moe, gpt-oss or llama
  --mix MIX          ud-iq1s, q4km, q8_0, mxfp4 or f16 (experts and the rest
                     get the types such a release uses)
  --layers N         number of blocks (default: the architecture's)
  --dense-layers N   leading blocks with a dense FFN (MoE models)
  --experts N        routed experts per layer (MoE models)
  --name NAME        general.name (default: "<ARCH>-shaped <MIX> (vt synth)")
  --header-only      stop after the header (kilobytes; plan with `vt plan`);
                     default: extend to the full size as a sparse file, which
                     any GGUF reader maps and which takes no disk for its data
  -h, --help         this text

exit codes: 0 written, 2 bad usage or the file could not be written
)help";

struct SynthOptions {
  std::string like;
  std::string mix;
  std::optional<uint64_t> layers;
  std::optional<uint64_t> dense_layers;
  std::optional<uint64_t> experts;
  std::string name;
  bool header_only = false;
  std::string out;
};

std::string Join(const std::vector<std::string_view>& names) {
  std::string text;
  for (std::string_view name : names) text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}

}  // namespace

int RunSynth(std::span<const std::string_view> args, std::ostream& out, std::ostream& err) {
  SynthOptions options;
  ArgCursor cursor(args);
  const auto usage_error = [&](const std::string& message) {
    err << "vt synth: " << message << '\n';
    return kExitBadInput;
  };
  while (!cursor.done()) {
    const std::string_view arg = cursor.Next();
    if (arg == "-h" || arg == "--help") {
      out << kSynthHelp;
      return kExitOk;
    }
    if (arg == "--header-only") {
      options.header_only = true;
      continue;
    }
    if (arg == "--like" || arg == "--mix" || arg == "--name" || arg == "--layers" ||
        arg == "--dense-layers" || arg == "--experts") {
      const std::optional<std::string_view> value = cursor.Value();
      if (!value) return usage_error(std::string(arg) + " needs a value");
      if (arg == "--like") options.like = *value;
      if (arg == "--mix") options.mix = *value;
      if (arg == "--name") options.name = *value;
      if (arg == "--layers" || arg == "--dense-layers" || arg == "--experts") {
        const std::optional<uint64_t> number = ParseWholeNumber(*value);
        if (!number || *number > 100000) {
          return usage_error(std::string(arg) + " needs a whole number up to 100000, got '" +
                             std::string(*value) + "'");
        }
        (arg == "--layers" ? options.layers : arg == "--experts" ? options.experts
                                                                 : options.dense_layers) = number;
      }
      continue;
    }
    if (arg.starts_with("-")) {
      return usage_error("unknown option '" + std::string(arg) + "' (run 'vt synth --help')");
    }
    if (!options.out.empty()) {
      return usage_error("one output file at a time; got '" + options.out + "' and '" +
                         std::string(arg) + "'");
    }
    options.out = arg;
  }
  std::optional<SynthShape> shape = FindSynthShape(options.like);
  if (!shape) {
    return usage_error("--like '" + options.like + "' is not one of " + Join(SynthShapeNames()));
  }
  const std::optional<SynthMix> mix = FindSynthMix(options.mix);
  if (!mix) return usage_error("--mix '" + options.mix + "' is not one of " + Join(SynthMixNames()));
  if (options.out.empty()) return usage_error("no output file given (run 'vt synth --help')");
  if (options.layers) shape->layers = static_cast<uint32_t>(*options.layers);
  if (options.experts) {
    if (shape->experts == 0) return usage_error("--experts: " + shape->like + " is a dense model");
    if (*options.experts == 0) return usage_error("--experts needs at least 1");
    shape->experts = static_cast<uint32_t>(*options.experts);
    shape->experts_used = std::min(shape->experts_used, shape->experts);
  }
  if (options.dense_layers) shape->dense_layers = static_cast<uint32_t>(*options.dense_layers);
  if (shape->layers == 0) return usage_error("--layers needs at least 1");
  if (shape->dense_layers > shape->layers) {
    return usage_error("--dense-layers " + std::to_string(shape->dense_layers) + " exceeds --layers " +
                       std::to_string(shape->layers));
  }
  const std::string name =
      options.name.empty() ? shape->like + "-shaped " + mix->name + " (vt synth)" : options.name;
  try {
    GgufWriter writer;
    AddSynthModel(*shape, *mix, name, writer);
    writer.Write(options.out, options.header_only ? GgufDataRegion::kAbsent : GgufDataRegion::kSparse);
    out << "wrote " << options.out << ": " << shape->like << "-shaped, " << mix->name << ", "
        << writer.tensor_count() << " tensors, full size " << FormatBytesExact(writer.FullSize())
        << (options.header_only ? ", header only (" + FormatBytes(writer.HeaderBytes().size()) + ")"
                                : ", data region sparse")
        << '\n';
  } catch (const std::exception& error) {
    err << "vt synth: " << error.what() << '\n';
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace vt::cli
