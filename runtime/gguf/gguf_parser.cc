// GGUF layout (v2 and v3, little-endian):
//   "GGUF" u32 version, u64 n_tensors, u64 n_kv,
//   n_kv x { string key, u32 value_type, value },
//   n_tensors x { string name, u32 n_dims, i64 ne[n_dims], u32 type, u64 offset },
//   padding to the alignment, then the data section.
// A string is a u64 byte length and the bytes; an array is a u32 element type,
// a u64 count and the elements.
//
// Every count read from the file is checked against the bytes that remain
// before anything is sized from it, so no input can make the parser loop or
// reserve beyond what the file holds.
#include "gguf_parser.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <sstream>
#include <utility>

#include "vt/policy/tensor_bytes.h"

namespace vt {
namespace {

// Smallest possible encodings, used to bound counts by the remaining bytes.
constexpr uint64_t kMinKeyValueBytes = 8 + 4 + 1;         // empty key, type, a u8
constexpr uint64_t kMinTensorInfoBytes = 8 + 4 + 4 + 8;   // empty name, n_dims 0, type, offset
constexpr uint64_t kStringLengthBytes = 8;
// Reserve no more than this up front; vectors grow past it as entries are
// actually read.
constexpr uint64_t kMaxUpFrontReserve = 1 << 16;

std::string Hex(uint64_t value) {
  std::ostringstream out;
  out << "0x" << std::hex << value;
  return out.str();
}

std::string ShapeText(const TensorDims& ne) {
  std::ostringstream out;
  out << '[' << ne[0] << ", " << ne[1] << ", " << ne[2] << ", " << ne[3] << ']';
  return out.str();
}

}  // namespace

class GgufParser::Impl {
 public:
  Impl(std::shared_ptr<const ByteSource> source, std::string path,
         const GgufReadOptions& options)
      : source_(std::move(source)), bytes_(source_->bytes()), options_(options) {
    file_.source_ = source_;
    file_.path_ = std::move(path);
    file_.file_bytes_ = bytes_.size();
  }

  GgufFile Run() {
    ReadHeader();
    ReadMetadata();
    ReadAlignment();
    ReadTensorInfos();
    PlaceDataSection();
    return std::move(file_);
  }

 private:
  // What is being read, for error messages. Cheap to set: no allocation.
  struct Place {
    enum class Kind { kHeader, kKeyValue, kTensor, kDataSection } kind = Kind::kHeader;
    uint64_t index = 0;
    std::string_view name;
  };

  [[noreturn]] void Fail(const std::string& what) const {
    std::string where;
    switch (place_.kind) {
      case Place::Kind::kHeader: where = "header"; break;
      case Place::Kind::kKeyValue:
        where = "kv " + std::to_string(place_.index);
        if (!place_.name.empty()) where += " '" + std::string(place_.name) + "'";
        break;
      case Place::Kind::kTensor:
        where = "tensor " + std::to_string(place_.index);
        if (!place_.name.empty()) where += " '" + std::string(place_.name) + "'";
        break;
      case Place::Kind::kDataSection: where = "data section"; break;
    }
    throw GgufError(file_.path_ + ": " + where + ": " + what);
  }

  uint64_t Remaining() const { return bytes_.size() - pos_; }

  [[noreturn]] void FailPastEnd(std::string_view field, uint64_t needed) const {
    Fail(std::string(field) + " at byte " + std::to_string(pos_) + " needs " +
         std::to_string(needed) + " bytes but the file ends at byte " +
         std::to_string(bytes_.size()));
  }

  template <typename T>
  T Read(std::string_view field) {
    if (Remaining() < sizeof(T)) FailPastEnd(field, sizeof(T));
    T value;
    std::memcpy(&value, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return value;
  }

  std::string_view ReadString(std::string_view field) {
    const uint64_t length = Read<uint64_t>(field);
    if (length > Remaining()) {
      Fail(std::string(field) + " length " + std::to_string(length) + " at byte " +
           std::to_string(pos_ - kStringLengthBytes) + " runs past the end of the file (" +
           std::to_string(Remaining()) + " bytes left)");
    }
    std::string_view text(reinterpret_cast<const char*>(bytes_.data() + pos_), length);
    pos_ += length;
    return text;
  }

  GgufValueType ReadValueType(std::string_view field) {
    const uint32_t id = Read<uint32_t>(field);
    if (id >= kGgufValueTypeCount) {
      Fail(std::string(field) + " " + std::to_string(id) + " is not a GGUF value type (0..12)");
    }
    return static_cast<GgufValueType>(id);
  }

  void ReadHeader() {
    if (bytes_.size() < 4 || std::memcmp(bytes_.data(), "GGUF", 4) != 0) {
      if (bytes_.size() < 4) {
        Fail("the file is " + std::to_string(bytes_.size()) + " bytes, too short for a GGUF magic");
      }
      uint32_t magic = 0;
      std::memcpy(&magic, bytes_.data(), 4);
      Fail("magic is " + Hex(magic) + ", not \"GGUF\": this is not a GGUF file");
    }
    pos_ = 4;
    const uint32_t version = Read<uint32_t>("version");
    if (version == 1) {
      Fail("version 1 is no longer read (v2 and v3 are); re-convert the model with a current "
           "llama.cpp");
    }
    if (version != 2 && version != 3) {
      if (__builtin_bswap32(version) >= 1 && __builtin_bswap32(version) <= 3) {
        Fail("version is stored big-endian (" + Hex(version) +
             "); big-endian GGUF files are not read");
      }
      Fail("version " + std::to_string(version) + " is not a GGUF version vt reads (2, 3)");
    }
    file_.version_ = version;
    n_tensors_ = Read<uint64_t>("n_tensors");
    n_kv_ = Read<uint64_t>("n_kv");
    if (n_kv_ > Remaining() / kMinKeyValueBytes) {
      Fail("n_kv = " + std::to_string(n_kv_) + " cannot fit in the " +
           std::to_string(Remaining()) + " bytes left (each entry takes at least " +
           std::to_string(kMinKeyValueBytes) + ")");
    }
    if (n_tensors_ > Remaining() / kMinTensorInfoBytes) {
      Fail("n_tensors = " + std::to_string(n_tensors_) + " cannot fit in the " +
           std::to_string(Remaining()) + " bytes left (each tensor info takes at least " +
           std::to_string(kMinTensorInfoBytes) + ")");
    }
  }

  GgufArray ReadArray() {
    GgufArray array;
    array.element_type = ReadValueType("array element type");
    if (array.element_type == GgufValueType::kArray) {
      Fail("arrays of arrays are not allowed in GGUF");
    }
    array.count = Read<uint64_t>("array count");
    if (array.element_type == GgufValueType::kString) {
      if (array.count > Remaining() / kStringLengthBytes) {
        Fail("array of " + std::to_string(array.count) + " strings cannot fit in the " +
             std::to_string(Remaining()) + " bytes left");
      }
      array.strings.reserve(std::min(array.count, kMaxUpFrontReserve));
      for (uint64_t i = 0; i < array.count; ++i) {
        array.strings.push_back(ReadString("array string"));
      }
      return array;
    }
    const uint64_t element_bytes = FixedSizeOf(array.element_type);
    if (array.count > Remaining() / element_bytes) {
      Fail("array of " + std::to_string(array.count) + " " +
           std::string(NameOf(array.element_type)) + " needs more than the " +
           std::to_string(Remaining()) + " bytes left");
    }
    const uint64_t total = array.count * element_bytes;
    array.packed = bytes_.subspan(pos_, total);
    pos_ += total;
    return array;
  }

  GgufValue ReadValue(GgufValueType type) {
    switch (type) {
      case GgufValueType::kU8: return {Read<uint8_t>("u8 value")};
      case GgufValueType::kI8: return {Read<int8_t>("i8 value")};
      case GgufValueType::kU16: return {Read<uint16_t>("u16 value")};
      case GgufValueType::kI16: return {Read<int16_t>("i16 value")};
      case GgufValueType::kU32: return {Read<uint32_t>("u32 value")};
      case GgufValueType::kI32: return {Read<int32_t>("i32 value")};
      case GgufValueType::kF32: return {Read<float>("f32 value")};
      case GgufValueType::kBool: return {Read<uint8_t>("bool value") != 0};
      case GgufValueType::kString: return {ReadString("string value")};
      case GgufValueType::kArray: return {ReadArray()};
      case GgufValueType::kU64: return {Read<uint64_t>("u64 value")};
      case GgufValueType::kI64: return {Read<int64_t>("i64 value")};
      case GgufValueType::kF64: return {Read<double>("f64 value")};
    }
    Fail("unreachable value type");
  }

  void ReadMetadata() {
    std::vector<GgufKeyValue> entries;
    entries.reserve(std::min(n_kv_, kMaxUpFrontReserve));
    std::unordered_map<std::string_view, uint64_t> seen;
    seen.reserve(std::min(n_kv_, kMaxUpFrontReserve));
    for (uint64_t i = 0; i < n_kv_; ++i) {
      place_ = {Place::Kind::kKeyValue, i, {}};
      const std::string_view key = ReadString("key");
      place_.name = key;
      if (key.empty()) Fail("the key is empty");
      const auto [first, inserted] = seen.emplace(key, i);
      if (!inserted) Fail("duplicate key (first at kv " + std::to_string(first->second) + ")");
      const GgufValueType type = ReadValueType("value type");
      entries.push_back({key, ReadValue(type)});
    }
    file_.metadata_ = GgufMetadata(file_.path_, std::move(entries));
  }

  void ReadAlignment() {
    const GgufValue* value = file_.metadata_.Find("general.alignment");
    if (value == nullptr) return;
    place_ = {Place::Kind::kKeyValue, 0, "general.alignment"};
    for (size_t i = 0; i < file_.metadata_.size(); ++i) {
      if (file_.metadata_.entries()[i].key == "general.alignment") place_.index = i;
    }
    if (value->type() != GgufValueType::kU32) {
      Fail("alignment is stored as " + std::string(NameOf(value->type())) + " " +
           value->ToDisplayString() + "; GGUF requires u32");
    }
    const uint32_t alignment = std::get<uint32_t>(value->storage);
    if (!IsPowerOfTwo(alignment)) {
      Fail("alignment " + std::to_string(alignment) + " is not a power of two");
    }
    if (alignment > kGgufMaxAlignment) {
      Fail("alignment " + std::to_string(alignment) + " is above the largest vt reads (" +
           std::to_string(kGgufMaxAlignment) + ")");
    }
    file_.alignment_ = alignment;
  }

  GgmlType ReadTensorType() {
    const uint32_t id = Read<uint32_t>("type");
    const std::optional<GgmlTypeTraits> traits = GgmlTypeTraitsOfId(id);
    if (!traits) {
      Fail("type id " + std::to_string(id) + " is not a ggml type (0.." +
           std::to_string(kGgmlTypeIdCount - 1) + ")");
    }
    if (traits->removed) {
      Fail("type id " + std::to_string(id) + " (" + std::string(traits->name) +
           ") was removed from ggml; re-convert the model");
    }
    return static_cast<GgmlType>(id);
  }

  void ReadTensorInfo(GgufTensorInfo& tensor) {
    tensor.name = ReadString("name");
    place_.name = tensor.name;
    if (tensor.name.empty()) Fail("the tensor name is empty");
    if (tensor.name.size() > kGgufMaxTensorNameBytes) {
      Fail("the name is " + std::to_string(tensor.name.size()) + " bytes; ggml allows at most " +
           std::to_string(kGgufMaxTensorNameBytes));
    }
    tensor.n_dims = Read<uint32_t>("n_dims");
    if (tensor.n_dims > static_cast<uint32_t>(kMaxTensorDims)) {
      Fail("n_dims = " + std::to_string(tensor.n_dims) + "; GGUF allows at most " +
           std::to_string(kMaxTensorDims));
    }
    for (uint32_t d = 0; d < tensor.n_dims; ++d) {
      tensor.ne[d] = Read<int64_t>("ne");
    }
    tensor.type = ReadTensorType();
    tensor.offset = Read<uint64_t>("offset");

    const TensorByteCount count = CountTensorBytes(tensor.type, tensor.ne);
    if (count.problem != ShapeProblem::kNone) {
      std::string detail;
      if (count.problem == ShapeProblem::kPartialBlock) {
        detail = " (" + std::to_string(tensor.ne[0]) + " % " +
                 std::to_string(TraitsOf(tensor.type).block_elements) + " != 0)";
      }
      Fail("shape ne = " + ShapeText(tensor.ne) + " of type " +
           std::string(NameOf(tensor.type)) + ": " + std::string(Describe(count.problem)) +
           detail);
    }
    tensor.bytes = count.bytes;
    if (tensor.offset % file_.alignment_ != 0) {
      Fail("offset " + std::to_string(tensor.offset) + " is not a multiple of the alignment " +
           std::to_string(file_.alignment_));
    }
    uint64_t end = 0;
    if (__builtin_add_overflow(tensor.offset, tensor.bytes, &end) ||
        !AlignUp(end, file_.alignment_)) {
      Fail("offset " + std::to_string(tensor.offset) + " + " + std::to_string(tensor.bytes) +
           " bytes overflows uint64 once padded");
    }
  }

  void ReadTensorInfos() {
    file_.tensors_.reserve(std::min(n_tensors_, kMaxUpFrontReserve));
    file_.tensor_index_.reserve(std::min(n_tensors_, kMaxUpFrontReserve));
    for (uint64_t i = 0; i < n_tensors_; ++i) {
      place_ = {Place::Kind::kTensor, i, {}};
      GgufTensorInfo& tensor = file_.tensors_.emplace_back();
      ReadTensorInfo(tensor);
      const auto [first, inserted] = file_.tensor_index_.emplace(tensor.name, i);
      if (!inserted) {
        Fail("duplicate tensor name (first at tensor " + std::to_string(first->second) + ")");
      }
    }
  }

  // Places the data section after the padded header, rejects overlapping
  // tensors, and checks the file holds every tensor's bytes (or, when
  // allowed, records that it holds none).
  void PlaceDataSection() {
    const std::optional<uint64_t> data_offset = AlignUp(pos_, file_.alignment_);
    place_ = {Place::Kind::kDataSection, 0, {}};
    if (!data_offset) Fail("the padded header size overflows");
    file_.data_offset_ = *data_offset;

    std::vector<GgufTensorInfo>& tensors = file_.tensors_;
    std::vector<size_t> by_offset(tensors.size());
    std::iota(by_offset.begin(), by_offset.end(), size_t{0});
    std::sort(by_offset.begin(), by_offset.end(), [&](size_t a, size_t b) {
      return tensors[a].offset < tensors[b].offset;
    });
    uint64_t data_bytes = 0;
    for (size_t k = 0; k < by_offset.size(); ++k) {
      const GgufTensorInfo& tensor = tensors[by_offset[k]];
      if (k > 0) {
        const GgufTensorInfo& before = tensors[by_offset[k - 1]];
        if (before.offset + before.bytes > tensor.offset) {
          place_ = {Place::Kind::kTensor, by_offset[k], tensor.name};
          Fail("data at offset " + std::to_string(tensor.offset) + " overlaps tensor '" +
               std::string(before.name) + "' (offset " + std::to_string(before.offset) + ", " +
               std::to_string(before.bytes) + " bytes)");
        }
      }
      data_bytes = std::max(data_bytes, tensor.offset + tensor.bytes);
    }
    file_.data_bytes_ = data_bytes;

    uint64_t data_end = 0;
    if (__builtin_add_overflow(file_.data_offset_, data_bytes, &data_end)) {
      Fail("data offset " + std::to_string(file_.data_offset_) + " + " +
           std::to_string(data_bytes) + " bytes overflows uint64");
    }
    for (GgufTensorInfo& tensor : tensors) tensor.file_position = file_.data_offset_ + tensor.offset;

    if (data_bytes == 0 || data_end <= bytes_.size()) {
      file_.has_data_ = true;
      return;
    }
    // Header-only: the data region is wholly absent. A region that starts
    // but stops short is a truncated file, header-only mode or not.
    if (options_.allow_missing_data && bytes_.size() <= file_.data_offset_) {
      file_.has_data_ = false;
      return;
    }
    // Name the first tensor, in file order, whose bytes the file lacks.
    for (size_t k = 0; k < by_offset.size(); ++k) {
      const GgufTensorInfo& tensor = tensors[by_offset[k]];
      if (tensor.file_position + tensor.bytes > bytes_.size()) {
        place_ = {Place::Kind::kTensor, by_offset[k], tensor.name};
        Fail("data ends at byte " + std::to_string(tensor.file_position + tensor.bytes) +
             ", past the end of the file (" + std::to_string(bytes_.size()) +
             " bytes): the file is truncated or header-only");
      }
    }
  }

  std::shared_ptr<const ByteSource> source_;
  std::span<const std::byte> bytes_;
  GgufReadOptions options_;
  GgufFile file_;
  uint64_t pos_ = 0;
  uint64_t n_tensors_ = 0;
  uint64_t n_kv_ = 0;
  Place place_;
};

GgufFile GgufParser::Parse(std::shared_ptr<const ByteSource> source, std::string path,
                           const GgufReadOptions& options) {
  return Impl(std::move(source), std::move(path), options).Run();
}

}  // namespace vt
