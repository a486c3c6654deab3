// The `message` of a ValidationError: one English sentence saying what was
// wrong and what was expected. The rule that finds a fault names its sentence
// (a Sentence of the service, or a linter's own sentence for its reason) and
// the values the sentence needs; nothing is read back out of the code or the
// args.
//
// Sentences are data: one template per Sentence, here, and one per linter
// reason beside the linter (lint::ReasonSentence), filled in by one function.
// A message is built only when an error is reported (never for an accepted
// item). Lua rule modules may supply their own message; a Lua module's code
// without one gets a generic sentence made of the code and the args.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace codepayload::messages {

// Every sentence of the service's own faults (the published code and reason
// token each one goes with are in the comment).
enum class Sentence : std::uint8_t {
  UnknownAi,                          // ais.<n> or primaryKey: unknownAi
  NotPrimaryKey,                      // primaryKey: notPrimaryKey
  PrimaryKeyOnlyInElementStrings,     // primaryKey: notPrimaryKey, refused only because of the stem
  RepeatsPrimaryKey,                  // ais.<n>: repeatsPrimaryKey
  GtinLength,                         // ais.<n> or primaryKey: gtinLength
  FormatTooShort,                     // ais.<n> or primaryKey: format, tooShort
  FormatTooLong,                      // ais.<n> or primaryKey: format, tooLong
  FormatInvalidCharacter,             // ais.<n> or primaryKey: format, invalidCharacter
  LinterReason,                       // ais.<n> or primaryKey: linter; the linter's sentence for its reason
  LinterReasonWithoutSentence,        // ais.<n> or primaryKey: linter; a (Lua) linter gave its reason none
  LinterFaultInPadding,               // ais.<n> or primaryKey: linter; the fault lies in zeros normalisation added
  DuplicateAi,                        // ais
  NotInDigitalLink,                   // ais.<n>.digitalLink
  QualifierSequence,                  // ais.qualifiers
  RelationRequires,                   // relations.<ai>.requires
  RelationExcludes,                   // relations.<ai>.excludes.<ai>
  ExtensionParametersRequireStem,     // extensionParameters: requiresDigitalLinkStem
  DuplicateExtensionParameterKey,     // extensionParameters: duplicateKey
  EmptyExtensionParameterKey,         // extensionParameters.<n>: emptyKey
  ReservedExtensionParameterKey,      // extensionParameters.<n>: reservedKey
  NumericExtensionParameterKey,       // extensionParameters.<n>: numericKey
  ExtensionParameterKeyCharacters,    // extensionParameters.<n>: keyCharacters
  ExtensionParameterValueCharacters,  // extensionParameters.<n>: valueCharacters
  StemScheme,                         // digitalLinkStem: scheme
  StemHost,                           // digitalLinkStem: host
  StemPort,                           // digitalLinkStem: port
  StemUserinfo,                       // digitalLinkStem: userinfo
  StemQuery,                          // digitalLinkStem: query
  StemFragment,                       // digitalLinkStem: fragment
  StemEmptySegment,                   // digitalLinkStem: emptySegment
  StemDotSegment,                     // digitalLinkStem: dotSegment
  StemSyntax,                         // digitalLinkStem: syntax
  ContextRequiresStem,                // context: requiresDigitalLinkStem
  ContextCharacters,                  // context: characters
  LinkTypeUnknown,                    // linkType: unknownLinkType
  LinkTypeNotSelectable,              // linkType: notSelectable
  LinkTypeNotAbsoluteHttpUri,         // linkType: notAbsoluteHttpUri
  LinkTypeRequiresStem,               // linkType: requiresDigitalLinkStem
  RuleModuleFailed,                   // rule.<module>: ruleError
  // Reading a payload back; {position} is the character of the data at fault.
  DataEmpty,                  // data: empty
  DataUnrecognised,           // data: unrecognised
  DataSymbologyIdentifier,    // data: symbologyIdentifier
  DataNoPrimaryKey,           // data: noPrimaryKey
  DataUriSyntax,              // data: uriSyntax
  DataUnknownAi,              // data: unknownAi
  DataBracket,                // data: bracket
  DataTruncated,              // data: truncated
  DataEmptyValue,             // data: emptyValue
  CompressedDigitalLink,      // data.compressedDigitalLink
  QualifierInQuery,           // ais.<n>.placement: qualifierInQuery
  AttributeInPath,            // ais.<n>.placement: attributeInPath
  QualifierOrder,             // ais.qualifiers.order
};
inline constexpr std::size_t kSentenceCount = static_cast<std::size_t>(Sentence::QualifierOrder) + 1;

// One fault as the rule that found it knows it: the sentence, and the values
// it names. Every value may stay empty.
struct Fault {
  Sentence sentence;
  std::string_view valueAsSent{};  // the AI value at fault, as the caller sent it
  std::size_t offset = 0;          // the characters at fault, within valueAsSent
  std::size_t length = 0;
  bool inPadding = false;             // the fault lies wholly in zeros normalisation added
  std::string_view expected{};        // the characters that would be right (check digit or pair)
  std::string_view suggestion{};      // a near miss the caller probably meant: "gs1:pip", "01"
  std::string_view allowed{};         // what is allowed instead, already worded ("(22, 10, 21) or (235)")
  std::string_view ai{};              // the AI a relation belongs to
  std::string_view module{};          // the rule module that failed
  std::string_view linter{};          // the linter's name
  std::string_view linterSentence{};  // LinterReason: the linter's sentence for its reason
};

// The sentence for one error. Placeholders of the templates: {0}..{9} the
// args, {rest} args 1.. joined, {value}, {part}, {span}, {where} and
// {position} the value as sent and the characters at fault, {expected},
// {allowed}, {endDidYouMean} ("; did you mean X?" or "."), {ai}, {module},
// {linter}, {linterSentence}, {alternatives} the requirements (the args),
// {query} the characters a query component keeps.
std::string describe(const Fault& fault, const std::vector<std::string>& args);

// The sentence for a code of a Lua rule module that brought no message: the
// code and the args.
std::string describeUnknown(std::string_view code, const std::vector<std::string>& args);

// The sentence of a digitalLinkStem fault, by checkDigitalLinkStem's reason.
Sentence stemSentence(std::string_view reason);

// The template of every Sentence, in the enum's order.
std::span<const std::string_view> sentenceTemplates();

}  // namespace codepayload::messages
