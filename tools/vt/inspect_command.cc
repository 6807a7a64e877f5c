// vt inspect: a GGUF model's header, metadata and tensor table, as text for
// people or as one JSON object per file (the fields of ggml's corpus
// manifest) for machines.
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "vt/policy/byte_text.h"
#include "commands.h"
#include "vt/runtime/gguf_model.h"

namespace vt::cli {
namespace {

constexpr std::string_view kInspectHelp =
    R"help(usage: vt inspect MODEL.gguf [--json] [--header-only] [--max-array N]

Reads a GGUF file (any shard of a split model opens the whole set) and prints
its header, metadata and tensor table.

options:
  --json          one JSON object per file, one per line: file, version,
                  alignment, data_offset, n_kv, n_tensors, full_size,
                  file_bytes, has_data, metadata[], tensors[] (name, type,
                  type_id, ne[4], offset, bytes)
  --header-only   accept a file whose data region is missing (a model header
                  kept for planning); refused by default
  --max-array N   print at most N elements of each metadata array (default 8
                  for text, 16 for JSON; 0 prints every element in JSON)
  -h, --help      this text

exit codes: 0 read, 2 bad usage or unreadable/malformed file
)help";

struct InspectOptions {
  std::filesystem::path model;
  bool json = false;
  bool header_only = false;
  std::optional<uint64_t> max_array;
};

std::string ShapeText(const GgufTensorInfo& tensor) {
  std::string text = "[";
  const uint32_t dims = std::max<uint32_t>(tensor.n_dims, 1);
  for (uint32_t d = 0; d < dims; ++d) {
    text += (d ? ", " : "") + std::to_string(tensor.ne[d]);
  }
  return text + "]";
}

nlohmann::ordered_json ArrayToJson(const GgufArray& array, uint64_t max_elements) {
  nlohmann::ordered_json values = nlohmann::ordered_json::array();
  const uint64_t shown = max_elements == 0 ? array.count : std::min(array.count, max_elements);
  for (uint64_t i = 0; i < shown; ++i) {
    switch (array.element_type) {
      case GgufValueType::kU8: values.push_back(array.NumberAt<uint8_t>(i)); break;
      case GgufValueType::kI8: values.push_back(array.NumberAt<int8_t>(i)); break;
      case GgufValueType::kU16: values.push_back(array.NumberAt<uint16_t>(i)); break;
      case GgufValueType::kI16: values.push_back(array.NumberAt<int16_t>(i)); break;
      case GgufValueType::kU32: values.push_back(array.NumberAt<uint32_t>(i)); break;
      case GgufValueType::kI32: values.push_back(array.NumberAt<int32_t>(i)); break;
      case GgufValueType::kF32: values.push_back(array.NumberAt<float>(i)); break;
      case GgufValueType::kBool: values.push_back(array.NumberAt<uint8_t>(i) != 0); break;
      case GgufValueType::kString: values.push_back(std::string(array.strings[i])); break;
      case GgufValueType::kArray: values.push_back(nullptr); break;  // rejected by the reader
      case GgufValueType::kU64: values.push_back(array.NumberAt<uint64_t>(i)); break;
      case GgufValueType::kI64: values.push_back(array.NumberAt<int64_t>(i)); break;
      case GgufValueType::kF64: values.push_back(array.NumberAt<double>(i)); break;
    }
  }
  return values;
}

nlohmann::ordered_json MetadataEntryToJson(const GgufKeyValue& entry, uint64_t max_array) {
  nlohmann::ordered_json json;
  json["key"] = std::string(entry.key);
  json["type"] = std::string(NameOf(entry.value.type()));
  std::visit(
      [&](const auto& value) {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, GgufArray>) {
          json["element_type"] = std::string(NameOf(value.element_type));
          json["count"] = value.count;
          json["value"] = ArrayToJson(value, max_array);
          json["truncated"] = max_array != 0 && value.count > max_array;
        } else if constexpr (std::is_same_v<T, std::string_view>) {
          json["value"] = std::string(value);
        } else {
          json["value"] = value;
        }
      },
      entry.value.storage);
  return json;
}

nlohmann::ordered_json FileToJson(const GgufFile& file, uint64_t max_array) {
  nlohmann::ordered_json json;
  json["file"] = std::filesystem::path(file.path()).filename().string();
  json["version"] = file.version();
  json["alignment"] = file.alignment();
  json["data_offset"] = file.data_offset();
  json["n_kv"] = file.metadata().size();
  json["n_tensors"] = file.tensors().size();
  json["full_size"] = file.data_offset() + file.data_bytes();
  json["file_bytes"] = file.file_bytes();
  json["has_data"] = file.has_data();
  nlohmann::ordered_json metadata = nlohmann::ordered_json::array();
  for (const GgufKeyValue& entry : file.metadata().entries()) {
    metadata.push_back(MetadataEntryToJson(entry, max_array));
  }
  json["metadata"] = std::move(metadata);
  nlohmann::ordered_json tensors = nlohmann::ordered_json::array();
  for (const GgufTensorInfo& tensor : file.tensors()) {
    nlohmann::ordered_json t;
    t["name"] = std::string(tensor.name);
    t["type"] = std::string(NameOf(tensor.type));
    t["type_id"] = static_cast<uint32_t>(tensor.type);
    t["ne"] = tensor.ne;
    t["offset"] = tensor.offset;
    t["bytes"] = tensor.bytes;
    tensors.push_back(std::move(t));
  }
  json["tensors"] = std::move(tensors);
  return json;
}

void PrintText(const GgufModel& model, uint64_t max_array, std::ostream& out) {
  const auto shards = model.shards();
  out << "model: " << shards.front().path();
  if (shards.size() > 1) out << " (" << shards.size() << " shards)";
  out << "\n  " << model.tensors().size() << " tensors, " << FormatBytes(model.tensor_bytes())
      << " of tensor data" << (model.has_data() ? "" : " (header-only: data region absent)")
      << "\n";
  for (size_t s = 0; s < shards.size(); ++s) {
    const GgufFile& file = shards[s];
    out << "  file " << s + 1 << ": " << std::filesystem::path(file.path()).filename().string()
        << "  GGUF v" << file.version() << ", " << file.metadata().size() << " keys, "
        << file.tensors().size() << " tensors, alignment " << file.alignment() << ", data at byte "
        << file.data_offset() << ", " << FormatBytes(file.file_bytes()) << " on disk\n";
  }

  out << "\nmetadata:\n";
  size_t key_width = 0;
  for (const GgufKeyValue& entry : model.metadata().entries()) {
    key_width = std::max(key_width, entry.key.size());
  }
  for (const GgufKeyValue& entry : model.metadata().entries()) {
    out << "  " << std::left << std::setw(static_cast<int>(key_width)) << entry.key << "  "
        << std::setw(6) << NameOf(entry.value.type()) << "  "
        << entry.value.ToDisplayString(max_array) << '\n';
  }

  out << "\ntensors:\n";
  size_t name_width = 4;
  for (const GgufTensorInfo& tensor : model.tensors()) {
    name_width = std::max(name_width, tensor.name.size());
  }
  out << "  " << std::left << std::setw(static_cast<int>(name_width)) << "name" << "  "
      << std::setw(8) << "type" << "  " << std::setw(24) << "shape" << "  " << std::right
      << std::setw(12) << "bytes" << "  " << (shards.size() > 1 ? "file:" : "") << "offset\n";
  for (const GgufTensorInfo& tensor : model.tensors()) {
    out << "  " << std::left << std::setw(static_cast<int>(name_width)) << tensor.name << "  "
        << std::setw(8) << NameOf(tensor.type) << "  " << std::setw(24) << ShapeText(tensor)
        << "  " << std::right << std::setw(12) << tensor.bytes << "  ";
    if (shards.size() > 1) out << tensor.shard + 1 << ':';
    out << tensor.offset << '\n';
  }
}

// Parses the arguments; on a usage error writes one line to `err` and returns
// nullopt.
std::optional<InspectOptions> ParseArgs(std::span<const std::string_view> args,
                                        std::ostream& err) {
  InspectOptions options;
  bool have_model = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (arg == "--json") {
      options.json = true;
    } else if (arg == "--header-only") {
      options.header_only = true;
    } else if (arg == "--max-array") {
      uint64_t value = 0;
      const std::string_view text = i + 1 < args.size() ? args[++i] : std::string_view();
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
        err << "vt inspect: --max-array needs a whole number, got '" << text << "'\n";
        return std::nullopt;
      }
      options.max_array = value;
    } else if (arg.starts_with("-") && arg != "-") {
      err << "vt inspect: unknown option '" << arg << "' (run 'vt inspect --help')\n";
      return std::nullopt;
    } else if (have_model) {
      err << "vt inspect: one model at a time; got '" << options.model.string() << "' and '"
          << arg << "'\n";
      return std::nullopt;
    } else {
      options.model = std::string(arg);
      have_model = true;
    }
  }
  if (!have_model) {
    err << "vt inspect: no model given (run 'vt inspect --help')\n";
    return std::nullopt;
  }
  return options;
}

}  // namespace

int RunInspect(std::span<const std::string_view> args, std::ostream& out, std::ostream& err) {
  for (const std::string_view arg : args) {
    if (arg == "--help" || arg == "-h") {
      out << kInspectHelp;
      return kExitOk;
    }
  }
  const std::optional<InspectOptions> options = ParseArgs(args, err);
  if (!options) return kExitBadInput;

  GgufReadOptions read_options;
  read_options.allow_missing_data = options->header_only;
  try {
    const GgufModel model = GgufModel::Open(options->model, read_options);
    if (options->json) {
      for (const GgufFile& file : model.shards()) {
        out << FileToJson(file, options->max_array.value_or(16))
                   .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace)
            << '\n';
      }
    } else {
      PrintText(model, options->max_array.value_or(8), out);
    }
  } catch (const GgufError& error) {
    err << "vt inspect: " << error.what();
    if (!options->header_only && std::string_view(error.what()).ends_with("header-only")) {
      err << " (pass --header-only to read its header)";
    }
    err << '\n';
    return kExitBadInput;
  } catch (const std::exception& error) {
    err << "vt inspect: " << options->model.string() << ": " << error.what() << '\n';
    return kExitBadInput;
  }
  return kExitOk;
}

}  // namespace vt::cli
