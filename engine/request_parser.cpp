#include "engine/request_parser.h"

#include <array>
#include <cstring>
#include <string>

#include "common/json_syntax.h"

namespace codepayload {

namespace {

using simdjson::error_code;
using simdjson::ondemand::json_type;
using simdjson::ondemand::object;
using simdjson::ondemand::value;

// Where a value sits in the body, as a chain of links on the stack; the text
// ("codes.3.primaryKey") is only built when there is a fault to report.
struct PathRef {
  const PathRef* parent = nullptr;
  std::string_view name;  // field name, or empty for an array index
  std::size_t index = 0;

  std::string str() const {
    if (parent == nullptr) return {};  // the body itself
    std::string prefix = parent->str();
    std::string self = name.empty() ? std::to_string(index) : std::string(name);
    return prefix.empty() ? self : prefix + "." + self;
  }
  PathRef field(std::string_view fieldName) const { return PathRef{this, fieldName, 0}; }
  PathRef at(std::size_t position) const { return PathRef{this, {}, position}; }
};

// Collects the first fault; the path is only built when there is one.
struct Fault {
  RequestError& error;
  std::string_view body;
  bool set = false;

  bool fail(RequestError::Kind kind, std::string path, std::string message) {
    if (!set) {
      error = RequestError{kind, std::move(path), std::move(message)};
      set = true;
    }
    return false;
  }

  bool fail(RequestError::Kind kind, const PathRef& path, std::string_view problem) {
    std::string text = path.str();
    std::string message = (text.empty() ? std::string("the body") : text) + ": " + std::string(problem);
    return fail(kind, std::move(text), std::move(message));
  }

  bool json(error_code code, const PathRef& at) {
    if (code == simdjson::INCORRECT_TYPE) return fail(RequestError::Kind::WrongType, at, "wrong JSON type");
    return invalidJson(at);
  }

  // A body that is no JSON, with the place where it stops being JSON (a body
  // of thousands of lines is fixed by line and column): "not valid JSON at
  // line 3, column 14: expected ',' or '}'". A fault the syntax does not show
  // (a number too large, nesting too deep for the parser) has no place.
  bool invalidJson(const PathRef& at) {
    std::string problem = "not valid JSON";
    if (const auto syntax = common::findJsonSyntaxFault(body)) {
      problem += " at " + common::lineAndColumn(body, syntax->offset) + ": expected " + std::string(syntax->expected);
    }
    return fail(RequestError::Kind::InvalidJson, at, problem);
  }
};

bool readString(value v, const PathRef& path, std::string_view& out, Fault& fault) {
  json_type type;
  if (auto code = v.type().get(type)) return fault.json(code, path);
  if (type != json_type::string) return fault.fail(RequestError::Kind::WrongType, path, "must be a string");
  if (auto code = v.get_string().get(out)) return fault.json(code, path);
  return true;
}

bool readNullableString(value v, const PathRef& path, std::optional<std::string_view>& out, Fault& fault) {
  json_type type;
  if (auto code = v.type().get(type)) return fault.json(code, path);
  if (type == json_type::null) {
    bool isNull = false;
    if (auto code = v.is_null().get(isNull)) return fault.json(code, path);
    if (!isNull) return fault.invalidJson(path);
    out.reset();
    return true;
  }
  if (type != json_type::string) return fault.fail(RequestError::Kind::WrongType, path, "must be a string or null");
  std::string_view text;
  if (auto code = v.get_string().get(text)) return fault.json(code, path);
  out = text;
  return true;
}

bool openObject(value v, const PathRef& path, object& out, Fault& fault) {
  json_type type;
  if (auto code = v.type().get(type)) return fault.json(code, path);
  if (type != json_type::object) return fault.fail(RequestError::Kind::WrongType, path, "must be an object");
  if (auto code = v.get_object().get(out)) return fault.json(code, path);
  return true;
}

bool openArray(value v, const PathRef& path, simdjson::ondemand::array& out, Fault& fault) {
  json_type type;
  if (auto code = v.type().get(type)) return fault.json(code, path);
  if (type != json_type::array) return fault.fail(RequestError::Kind::WrongType, path, "must be an array");
  if (auto code = v.get_array().get(out)) return fault.json(code, path);
  return true;
}

// Iterates the fields of `o`, calling handle(index of the known field, value);
// refuses unknown and repeated fields, then missing required ones.
template <std::size_t N, typename Handle>
bool readFields(object o, const PathRef& path, const std::array<std::string_view, N>& names, std::uint32_t requiredMask,
                Fault& fault, Handle handle) {
  std::uint32_t seen = 0;
  for (auto result : o) {
    simdjson::ondemand::field field;
    if (auto code = std::move(result).get(field)) return fault.json(code, path);
    std::string_view key;
    if (auto code = field.unescaped_key().get(key)) return fault.json(code, path);
    std::size_t index = N;
    for (std::size_t i = 0; i < N; ++i) {
      if (names[i] == key) {
        index = i;
        break;
      }
    }
    if (index == N) return fault.fail(RequestError::Kind::WrongType, path.field(key), "unknown field");
    if (seen & (1u << index))
      return fault.fail(RequestError::Kind::WrongType, path.field(key), "field given more than once");
    seen |= 1u << index;
    if (!handle(index, field.value())) return false;
  }
  for (std::size_t i = 0; i < N; ++i) {
    if ((requiredMask & (1u << i)) && !(seen & (1u << i))) {
      return fault.fail(RequestError::Kind::MissingField, path.field(names[i]), "required field is missing");
    }
  }
  return true;
}

constexpr std::array<std::string_view, 2> kPairFields{"key", "value"};

template <typename Pair>
bool readPair(value v, const PathRef& path, Pair& out, Fault& fault) {
  object o;
  if (!openObject(v, path, o, fault)) return false;
  return readFields(o, path, kPairFields, 0b11, fault, [&](std::size_t index, value field) {
    return readString(field, path.field(kPairFields[index]), index == 0 ? out.key : out.value, fault);
  });
}

template <typename Pair>
bool readPairs(value v, const PathRef& path, std::vector<Pair>& out, Fault& fault) {
  simdjson::ondemand::array array;
  if (!openArray(v, path, array, fault)) return false;
  out.clear();
  std::size_t index = 0;
  for (auto element : array) {
    value item;
    if (auto code = std::move(element).get(item)) return fault.json(code, path.at(index));
    out.emplace_back();
    if (!readPair(item, path.at(index), out.back(), fault)) return false;
    ++index;
  }
  return true;
}

enum DefinitionField : std::size_t {
  kReference,
  kPrimaryKey,
  kAis,
  kExtensionParameters,
  kDigitalLinkStem,
  kLinkType,
  kContext,
  kFieldCount
};
constexpr std::array<std::string_view, kFieldCount> kDefinitionFields{
    "reference", "primaryKey", "ais", "extensionParameters", "digitalLinkStem", "linkType", "context"};
constexpr std::uint32_t kRequiredDefinitionFields = (1u << kPrimaryKey) | (1u << kAis) | (1u << kExtensionParameters);

bool readDefinition(value v, const PathRef& path, CodeDefinition& out, Fault& fault) {
  object o;
  if (!openObject(v, path, o, fault)) return false;
  return readFields(o, path, kDefinitionFields, kRequiredDefinitionFields, fault, [&](std::size_t index, value field) {
    PathRef fieldPath = path.field(kDefinitionFields[index]);
    switch (index) {
      case kReference: return readNullableString(field, fieldPath, out.reference, fault);
      case kPrimaryKey: return readPair(field, fieldPath, out.primaryKey, fault);
      case kAis: return readPairs(field, fieldPath, out.ais, fault);
      case kExtensionParameters: return readPairs(field, fieldPath, out.extensionParameters, fault);
      case kDigitalLinkStem: return readNullableString(field, fieldPath, out.digitalLinkStem, fault);
      case kLinkType: return readNullableString(field, fieldPath, out.linkType, fault);
      default: return readNullableString(field, fieldPath, out.context, fault);
    }
  });
}

enum ReadingField : std::size_t { kReadingReference, kReadingData, kReadingFieldCount };
constexpr std::array<std::string_view, kReadingFieldCount> kReadingFields{"reference", "data"};

bool readReading(value v, const PathRef& path, CodeReading& out, Fault& fault) {
  object o;
  if (!openObject(v, path, o, fault)) return false;
  return readFields(o, path, kReadingFields, 1u << kReadingData, fault, [&](std::size_t index, value field) {
    PathRef fieldPath = path.field(kReadingFields[index]);
    if (index == kReadingReference) return readNullableString(field, fieldPath, out.reference, fault);
    return readString(field, fieldPath, out.data, fault);
  });
}

}  // namespace

void RequestParser::releaseBuffers() {
  parser_ = simdjson::ondemand::parser{};
  padded_ = simdjson::padded_string{};
}

// The body's one field, "codes", an array of at most `maxItems` objects;
// `readItem(value, path, index)` reads each into its place.
template <typename ReadItem>
bool RequestParser::parseItems(std::string_view body, std::size_t maxItems, std::string_view items,
                               std::size_t& count, RequestError& error, ReadItem readItem) {
  count = 0;
  Fault fault{error, body};
  std::size_t capacity = body.size() + simdjson::SIMDJSON_PADDING;
  if (padded_.size() < capacity) padded_ = simdjson::padded_string(capacity);
  std::memcpy(padded_.data(), body.data(), body.size());
  std::memset(padded_.data() + body.size(), 0, simdjson::SIMDJSON_PADDING);
  simdjson::padded_string_view input(padded_.data(), body.size(), padded_.size());

  const PathRef bodyPath{};
  const PathRef codesPath = bodyPath.field("codes");
  simdjson::ondemand::document document;
  if (auto code = parser_.iterate(input).get(document)) return fault.json(code, bodyPath);
  object root;
  {
    json_type type;
    if (auto code = document.type().get(type)) return fault.json(code, bodyPath);
    if (type != json_type::object) return fault.fail(RequestError::Kind::WrongType, bodyPath, "must be a JSON object");
    if (auto code = document.get_object().get(root)) return fault.json(code, bodyPath);
  }
  constexpr std::array<std::string_view, 1> kRootFields{"codes"};
  bool ok = readFields(root, bodyPath, kRootFields, 0b1, fault, [&](std::size_t, value codes) {
    simdjson::ondemand::array array;
    if (!openArray(codes, codesPath, array, fault)) return false;
    std::size_t index = 0;
    for (auto element : array) {
      if (index >= maxItems) {
        return fault.fail(RequestError::Kind::TooManyItems, codesPath,
                          "more than " + std::to_string(maxItems) + " " + std::string(items) + " in one request");
      }
      value item;
      if (auto code = std::move(element).get(item)) return fault.json(code, codesPath.at(index));
      if (!readItem(item, codesPath.at(index), index, fault)) return false;
      count = ++index;
    }
    return true;
  });
  if (!ok) return false;
  // Anything after the root object (the iterator is still in bounds) is trailing content.
  if (document.current_location().error() == simdjson::SUCCESS) return fault.invalidJson(bodyPath);
  return true;
}

bool RequestParser::parse(std::string_view body, std::size_t maxItems, std::vector<CodeDefinition>& definitions,
                          std::size_t& count, RequestError& error) {
  return parseItems(body, maxItems, "definitions", count, error,
                    [&](value item, const PathRef& path, std::size_t index, Fault& fault) {
                      if (index == definitions.size()) definitions.emplace_back();
                      CodeDefinition& definition = definitions[index];
                      definition.reference.reset();
                      definition.primaryKey = {};
                      definition.ais.clear();
                      definition.extensionParameters.clear();
                      definition.digitalLinkStem.reset();
                      definition.linkType.reset();
                      definition.context.reset();
                      return readDefinition(item, path, definition, fault);
                    });
}

bool RequestParser::parse(std::string_view body, std::size_t maxItems, std::vector<CodeReading>& readings,
                          std::size_t& count, RequestError& error) {
  return parseItems(body, maxItems, "payloads", count, error,
                    [&](value item, const PathRef& path, std::size_t index, Fault& fault) {
                      if (index == readings.size()) readings.emplace_back();
                      readings[index] = CodeReading{};
                      return readReading(item, path, readings[index], fault);
                    });
}

}  // namespace codepayload
