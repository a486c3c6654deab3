#include "engine/parse_item.h"

#include <algorithm>
#include <charconv>

#include "engine/generator.h"
#include "engine/item_processor.h"
#include "engine/snapshot.h"
#include "engine/validation_codes.h"

namespace codepayload {

namespace {

struct FaultWords {
  ReadFault::Kind kind;
  std::string_view reason;  // args[0] of Validation.Invalid.data
  messages::Sentence sentence;
};

constexpr FaultWords kFaultWords[] = {
    {ReadFault::Kind::Empty, "empty", messages::Sentence::DataEmpty},
    {ReadFault::Kind::Unrecognised, "unrecognised", messages::Sentence::DataUnrecognised},
    {ReadFault::Kind::SymbologyIdentifier, "symbologyIdentifier", messages::Sentence::DataSymbologyIdentifier},
    {ReadFault::Kind::CompressedDigitalLink, "", messages::Sentence::CompressedDigitalLink},
    {ReadFault::Kind::NoPrimaryKey, "noPrimaryKey", messages::Sentence::DataNoPrimaryKey},
    {ReadFault::Kind::UriSyntax, "uriSyntax", messages::Sentence::DataUriSyntax},
    {ReadFault::Kind::UnknownAi, "unknownAi", messages::Sentence::DataUnknownAi},
    {ReadFault::Kind::Bracket, "bracket", messages::Sentence::DataBracket},
    {ReadFault::Kind::Truncated, "truncated", messages::Sentence::DataTruncated},
    {ReadFault::Kind::EmptyValue, "emptyValue", messages::Sentence::DataEmptyValue},
};

// Characters (code points) of the UTF-8 `text` in its first `bytes` bytes.
std::size_t charactersIn(std::string_view text, std::size_t bytes) {
  std::size_t characters = 0;
  for (std::size_t i = 0; i < bytes && i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++characters;
  }
  return characters;
}

// Offsets and lengths are found in bytes; the answer counts characters, as
// a person or a program holding `data` as a string does.
void inCharacters(ValidationError& error, std::string_view data) {
  if (!error.offset) return;
  const std::size_t start = charactersIn(data, *error.offset);
  error.length = charactersIn(data, *error.offset + error.length) - start;
  error.offset = start;
}

// A text that is none of the forms: one error on "data". A compressed
// Digital Link has a code of its own, so that a caller can tell "not read
// here" from "wrong".
ValidationError readFaultError(const ReadFault& fault, std::string_view data) {
  const FaultWords& words = *std::find_if(std::begin(kFaultWords), std::end(kFaultWords),
                                          [&](const FaultWords& entry) { return entry.kind == fault.kind; });
  ValidationError error;
  error.path = "data";
  if (fault.kind == ReadFault::Kind::CompressedDigitalLink) {
    error.code = codes::compressedDigitalLink();
    error.args = {fault.detail};
  } else {
    error.code = codes::data();
    error.args = {std::string(words.reason)};
    if (!fault.detail.empty()) error.args.push_back(fault.detail);
  }
  error.offset = fault.offset;
  // The detail spans characters of the data when it is what stands there; a
  // cut value spans the rest of the data.
  if (fault.kind == ReadFault::Kind::Truncated) {
    error.length = data.size() - fault.offset;
  } else if (!fault.detail.empty() && data.substr(fault.offset, fault.detail.size()) == fault.detail) {
    error.length = fault.detail.size();
  }
  error.message = messages::describe(
      messages::Fault{.sentence = words.sentence, .offset = charactersIn(data, fault.offset)}, error.args);
  return error;
}

// Where the definition's parts were read. A Digital Link's primary key is
// the first AI read; an element string's is the first AI that is a Digital
// Link primary key (or, when none is, the first AI, which the pipeline then
// judges: AI 03 is a primary key of element strings only).
std::size_t primaryKeyField(const Snapshot& rules, const ReadPayload& payload) {
  if (payload.form == PayloadForm::DigitalLink) return 0;
  for (std::size_t i = 0; i < payload.ais.size(); ++i) {
    const CompiledAi* ai = rules.findAi(payload.ais[i].key);
    if (ai != nullptr && ai->definition->digitalLinkPrimaryKey) return i;
  }
  return 0;
}

// The read field of definition.ais[index].
std::size_t fieldOfAi(std::size_t index, std::size_t primaryField) { return index < primaryField ? index : index + 1; }

void buildDefinition(const ReadPayload& payload, std::size_t primaryField, CodeDefinition& definition) {
  definition.reference.reset();
  definition.ais.clear();
  definition.extensionParameters.clear();
  definition.digitalLinkStem.reset();
  definition.linkType.reset();
  definition.context.reset();
  const ReadField& primary = payload.ais[primaryField];
  definition.primaryKey = AiInput{primary.key, primary.value};
  for (std::size_t i = 0; i < payload.ais.size(); ++i) {
    if (i != primaryField) definition.ais.push_back(AiInput{payload.ais[i].key, payload.ais[i].value});
  }
  if (payload.form != PayloadForm::DigitalLink) return;
  definition.digitalLinkStem = payload.stem;
  for (const ReadField& parameter : payload.extensionParameters) {
    definition.extensionParameters.push_back(ExtensionParameter{parameter.key, parameter.value});
  }
  if (payload.linkType) definition.linkType = payload.linkType->value;
  if (payload.context) definition.context = payload.context->value;
}

// A Digital Link read back must have written each AI where GS1 places it:
// key qualifiers in the path, in the order of their sequence, data
// attributes in the query string (as GS1's own reader requires). The
// pipeline has placed every AI by now.
void checkPlacement(ItemContext& item, const ReadPayload& payload) {
  int lastRank = -1;
  bool outOfOrder = false;
  thread_local std::vector<const ItemAi*> pathQualifiers;
  pathQualifiers.clear();
  for (std::size_t i = 0; i < item.ais().size(); ++i) {
    const ItemAi& ai = item.ais()[i];
    const bool readInPath = fieldOfAi(i, 0) < payload.pathAis;
    if (ai.placement == Placement::PathQualifier && !readInPath) {
      item.addError(codes::aiPlacement(i), "ais." + std::to_string(i), {std::string(ai.key), "qualifierInQuery"},
                    messages::Fault{.sentence = messages::Sentence::QualifierInQuery});
    } else if (ai.placement == Placement::QueryAttribute && readInPath) {
      item.addError(codes::aiPlacement(i), "ais." + std::to_string(i), {std::string(ai.key), "attributeInPath"},
                    messages::Fault{.sentence = messages::Sentence::AttributeInPath});
    } else if (ai.placement == Placement::PathQualifier) {
      outOfOrder = outOfOrder || ai.qualifierRank <= lastRank;
      lastRank = ai.qualifierRank;
      pathQualifiers.push_back(&ai);
    }
  }
  if (!outOfOrder) return;
  std::vector<std::string> args{std::string(item.primaryKey().key)};
  for (const ItemAi* ai : pathQualifiers) args.emplace_back(ai->key);
  std::sort(pathQualifiers.begin(), pathQualifiers.end(),
            [](const ItemAi* a, const ItemAi* b) { return a->qualifierRank < b->qualifierRank; });
  std::string allowed;
  for (const ItemAi* ai : pathQualifiers) {
    if (!allowed.empty()) allowed += ", ";
    allowed += ai->key;
  }
  item.addError(codes::qualifierOrder(), "ais", std::move(args),
                messages::Fault{.sentence = messages::Sentence::QualifierOrder, .allowed = allowed});
}

// The index in "<prefix><index>..." of `path`, or nullopt.
std::optional<std::size_t> indexAfter(std::string_view path, std::string_view prefix) {
  if (path.substr(0, prefix.size()) != prefix) return std::nullopt;
  std::size_t index = 0;
  const char* begin = path.data() + prefix.size();
  const auto [end, problem] = std::from_chars(begin, path.data() + path.size(), index);
  if (problem != std::errc() || end == begin || (end != path.data() + path.size() && *end != '.')) return std::nullopt;
  return index;
}

// The place in the data of the field a pipeline error names.
void locate(ValidationError& error, const ReadPayload& payload, std::size_t primaryField) {
  if (!error.path) return;
  const std::string_view path = *error.path;
  const ReadField* field = nullptr;
  if (path == "primaryKey") {
    field = &payload.ais[primaryField];
  } else if (const auto index = indexAfter(path, "ais."); index && fieldOfAi(*index, primaryField) < payload.ais.size()) {
    field = &payload.ais[fieldOfAi(*index, primaryField)];
  } else if (const auto parameter = indexAfter(path, "extensionParameters.");
             parameter && *parameter < payload.extensionParameters.size()) {
    field = &payload.extensionParameters[*parameter];
  } else if (path == "linkType" && payload.linkType) {
    field = &*payload.linkType;
  } else if (path == "context" && payload.context) {
    field = &*payload.context;
  } else if (path == "digitalLinkStem") {
    error.offset = payload.symbologyIdentifier.size();
    error.length = payload.stem.size();
    return;
  }
  if (field == nullptr) return;
  error.offset = field->offset;
  error.length = field->length;
}

}  // namespace

void parseItem(const Snapshot& rules, std::string_view data, std::size_t position, ParseOutcome& outcome) {
  outcome.read = false;
  outcome.elementString.clear();
  outcome.digitalLink.clear();
  outcome.hri.clear();
  outcome.errors.clear();
  ReadFault fault;
  if (!readPayload(rules, data, outcome.payload, fault)) {
    outcome.errors.push_back(readFaultError(fault, data));
    inCharacters(outcome.errors.back(), data);
    return;
  }
  outcome.read = true;
  const std::size_t primaryField = primaryKeyField(rules, outcome.payload);
  buildDefinition(outcome.payload, primaryField, outcome.definition);

  ItemContext item(rules, outcome.definition, position, outcome.errors, outcome.ais);
  item.valuesAsPrinted = outcome.payload.form != PayloadForm::DigitalLink;
  std::string_view stem;
  if (validateItem(item, stem) && item.hasStem()) checkPlacement(item, outcome.payload);
  if (!outcome.errors.empty()) {
    for (ValidationError& error : outcome.errors) {
      locate(error, outcome.payload, primaryField);
      inCharacters(error, data);
    }
    return;
  }
  writeElementString(item, outcome.elementString);
  if (item.hasStem()) writeDigitalLink(item, stem, outcome.digitalLink);
  writeHri(item, item.hasStem(), outcome.hri);
}

}  // namespace codepayload
