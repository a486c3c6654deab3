#include "engine/validation_messages.h"

#include <algorithm>
#include <array>
#include <charconv>

#include "engine/validation_codes.h"

namespace codepayload::messages {

namespace {

struct SentenceTemplate {
  Sentence sentence;
  std::string_view text;
};

constexpr std::string_view kQueryCharacters = "A-Z a-z 0-9 - . _ ~ ! $ ' ( ) * , ; : @ / ?";

constexpr std::array kTemplates{
    // clang-format off
    SentenceTemplate{Sentence::UnknownAi, "AI '{0}' is not in the GS1 Barcode Syntax Dictionary{endDidYouMean}"},
    SentenceTemplate{Sentence::NotPrimaryKey, "AI {0} cannot be the primary key: use a GS1 identification key (such as 01, the GTIN) as primaryKey and give AI {0} in ais."},
    SentenceTemplate{Sentence::PrimaryKeyOnlyInElementStrings, "AI {0} is a primary key only in element strings: leave out the digitalLinkStem, or use a Digital Link primary key such as 01."},
    SentenceTemplate{Sentence::RepeatsPrimaryKey, "AI {0} is already the primary key; give it only once."},
    SentenceTemplate{Sentence::GtinLength, "AI {0}: a GTIN has 8, 12, 13 or 14 digits, not {2}."},
    SentenceTemplate{Sentence::FormatTooShort, "AI {0}: {value} is too short for the format {2}."},
    SentenceTemplate{Sentence::FormatTooLong, "AI {0}: {value} is too long for the format {2}; character {position} and those after it are extra."},
    SentenceTemplate{Sentence::FormatInvalidCharacter, "AI {0}: {span} {where} is not allowed by the format {2}."},
    SentenceTemplate{Sentence::LinterReason, "AI {0}: {linterSentence}."},
    SentenceTemplate{Sentence::LinterReasonWithoutSentence, "AI {0}: {value} fails the check {2} ({3}) {where}."},
    SentenceTemplate{Sentence::LinterFaultInPadding, "AI {0}: the check {2} ({3}) fails on the zeros added in front of {value} to normalise it; send the value in its full length."},
    SentenceTemplate{Sentence::DuplicateAi, "AI {0} is given more than once (first as ais.{1}); give each AI once."},
    SentenceTemplate{Sentence::NotInDigitalLink, "AI {0} has no place in a Digital Link URI: it is neither a key qualifier of the primary key nor a data attribute; leave it out, or leave out the digitalLinkStem to get an element string."},
    SentenceTemplate{Sentence::QualifierSequence, "The key qualifiers {rest} of primary key {0} do not all come from one of its qualifier sequences: {allowed}."},
    SentenceTemplate{Sentence::RelationRequires, "AI {ai} needs {alternatives} in the same code."},
    SentenceTemplate{Sentence::RelationExcludes, "AIs {0} and {1} must not be used together in one code."},
    SentenceTemplate{Sentence::ExtensionParametersRequireStem, "Extension parameters are part of a Digital Link URI: give a digitalLinkStem or leave them out."},
    SentenceTemplate{Sentence::DuplicateExtensionParameterKey, "The extension parameter key '{0}' is given more than once."},
    SentenceTemplate{Sentence::EmptyExtensionParameterKey, "An extension parameter key must not be empty."},
    SentenceTemplate{Sentence::ReservedExtensionParameterKey, "'{0}' cannot be an extension parameter key: linkType and context have fields of their own."},
    SentenceTemplate{Sentence::NumericExtensionParameterKey, "The extension parameter key '{0}' is all digits and would read as an AI; use a key with at least one non-digit."},
    SentenceTemplate{Sentence::ExtensionParameterKeyCharacters, "The extension parameter key '{0}' may only contain the characters {query}."},
    SentenceTemplate{Sentence::ExtensionParameterValueCharacters, "The value of extension parameter '{0}' may only contain the characters {query}."},
    SentenceTemplate{Sentence::StemScheme, "The digitalLinkStem must start with http:// or https://."},
    SentenceTemplate{Sentence::StemHost, "The digitalLinkStem must name a host, as in https://id.example.com."},
    SentenceTemplate{Sentence::StemPort, "The digitalLinkStem's port must be a number from 1 to 65535."},
    SentenceTemplate{Sentence::StemUserinfo, "The digitalLinkStem must not have a user name or password (user@host)."},
    SentenceTemplate{Sentence::StemQuery, "The digitalLinkStem must not have a query (?...)."},
    SentenceTemplate{Sentence::StemFragment, "The digitalLinkStem must not have a fragment (#...)."},
    SentenceTemplate{Sentence::StemEmptySegment, "The digitalLinkStem must not have an empty path segment (//)."},
    SentenceTemplate{Sentence::StemDotSegment, "The digitalLinkStem must not have a '.' or '..' path segment."},
    SentenceTemplate{Sentence::StemSyntax, "The digitalLinkStem has characters a URI does not allow."},
    SentenceTemplate{Sentence::ContextRequiresStem, "context is part of a Digital Link URI: give a digitalLinkStem or leave context out."},
    SentenceTemplate{Sentence::ContextCharacters, "context may only contain the characters {query}."},
    SentenceTemplate{Sentence::LinkTypeUnknown, "linkType '{0}' is not in the GS1 Web Vocabulary{endDidYouMean}"},
    SentenceTemplate{Sentence::LinkTypeNotSelectable, "linkType '{0}' is a GS1 link type only a resolver sets; choose another link type."},
    SentenceTemplate{Sentence::LinkTypeNotAbsoluteHttpUri, "linkType '{0}' is neither a gs1: link type nor an absolute http or https URI{endDidYouMean}"},
    SentenceTemplate{Sentence::LinkTypeRequiresStem, "linkType is part of a Digital Link URI: give a digitalLinkStem or leave linkType out."},
    SentenceTemplate{Sentence::RuleModuleFailed, "The rule module {module} failed on this code, so the code is refused; the operator finds the cause in the server log."},
    SentenceTemplate{Sentence::DataEmpty, "There is no payload to read: give a Digital Link URI, an element string or scanner data (after its AIM symbology identifier, if any)."},
    SentenceTemplate{Sentence::DataUnrecognised, "Character {position} ('{1}') begins none of the forms a payload takes: a Digital Link URI (http:// or https://), an element string ('(') or scanner data (an AI's digits, after an AIM symbology identifier such as ]d2)."},
    SentenceTemplate{Sentence::DataSymbologyIdentifier, "'{1}' is no AIM symbology identifier of GS1 data: ]C1, ]e0, ]d2, ]Q3 or ]J1 come before an element string, ]Q1 or ]d1 before a Digital Link URI."},
    SentenceTemplate{Sentence::DataNoPrimaryKey, "There is no GS1 primary key (such as AI 01, the GTIN) from character {position}: a Digital Link URI's path ends in /<key>/<value> pairs starting with one, an element string holds one."},
    SentenceTemplate{Sentence::DataUriSyntax, "The Digital Link URI cannot be read at character {position} ('{1}'): a character a URI does not allow, a broken %-escape, a parameter without a key or '=', or a parameter given twice."},
    SentenceTemplate{Sentence::DataUnknownAi, "'{1}' at character {position} begins no AI of the GS1 Barcode Syntax Dictionary."},
    SentenceTemplate{Sentence::DataBracket, "The element string cannot be read at character {position}: each AI is written as its digits in brackets, '(01)', followed by its value."},
    SentenceTemplate{Sentence::DataTruncated, "The data ends inside the value of AI {1}, which has a fixed length."},
    SentenceTemplate{Sentence::DataEmptyValue, "AI {1} has no value at character {position}."},
    SentenceTemplate{Sentence::CompressedDigitalLink, "This is a compressed GS1 Digital Link URI ('{0}'), which is not read here: scan or send its uncompressed form."},
    SentenceTemplate{Sentence::QualifierInQuery, "AI {0} is a key qualifier of the primary key: it belongs in the URI's path, not its query string."},
    SentenceTemplate{Sentence::AttributeInPath, "AI {0} is a data attribute: it belongs in the URI's query string, not its path."},
    SentenceTemplate{Sentence::QualifierOrder, "The key qualifiers {rest} of primary key {0} are not in GS1's order: {allowed}."},
    // clang-format on
};

constexpr bool inEnumOrder() {
  for (std::size_t i = 0; i < kTemplates.size(); ++i) {
    if (static_cast<std::size_t>(kTemplates[i].sentence) != i || kTemplates[i].text.empty()) return false;
  }
  return kTemplates.size() == kSentenceCount;
}
static_assert(inEnumOrder(), "kTemplates must give every Sentence its template, in the enum's order");

constexpr auto kTemplateTexts = [] {
  std::array<std::string_view, kSentenceCount> texts{};
  for (std::size_t i = 0; i < kTemplates.size(); ++i) texts[i] = kTemplates[i].text;
  return texts;
}();

// checkDigitalLinkStem's reasons and their sentences.
struct StemReason {
  std::string_view reason;
  Sentence sentence;
};

constexpr StemReason kStemReasons[] = {
    {"scheme", Sentence::StemScheme},
    {"host", Sentence::StemHost},
    {"port", Sentence::StemPort},
    {"userinfo", Sentence::StemUserinfo},
    {"query", Sentence::StemQuery},
    {"fragment", Sentence::StemFragment},
    {"emptySegment", Sentence::StemEmptySegment},
    {"dotSegment", Sentence::StemDotSegment},
    {"syntax", Sentence::StemSyntax},
};

bool isContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Text from the request is cut to this many bytes in a message (on a UTF-8
// character boundary, "..." added), so a huge value or key does not appear
// twice, in full, in the answer (AI values are at most 90 characters).
constexpr std::size_t kMaxQuotedBytes = 100;

void appendNumber(std::string& out, std::size_t number) {
  char digits[24];
  auto [end, error] = std::to_chars(digits, digits + sizeof digits, number);
  out.append(digits, static_cast<std::size_t>(end - digits));
}

void appendFromRequest(std::string& out, std::string_view text) {
  if (text.size() <= kMaxQuotedBytes) {
    out += text;
    return;
  }
  std::size_t end = kMaxQuotedBytes;
  while (end > 0 && isContinuationByte(text[end])) --end;
  out += text.substr(0, end);
  out += "...";
}

void appendQuoted(std::string& out, std::string_view text) {
  out += '\'';
  appendFromRequest(out, text);
  out += '\'';
}

// What the placeholders stand for in one error.
struct Fill {
  Fill(const std::vector<std::string>& errorArgs, const Fault& errorFault)
      : args(errorArgs), facts(errorFault), offset(errorFault.offset), length(errorFault.length) {}

  const std::vector<std::string>& args;
  const Fault& facts;
  std::size_t offset;  // the span at fault, in the value as sent
  std::size_t length;

  // The span widened to whole UTF-8 characters and clipped to the value.
  std::string_view span() const {
    std::string_view value = facts.valueAsSent;
    std::size_t begin = std::min(offset, value.size());
    std::size_t end = std::min(offset + length, value.size());
    while (begin > 0 && begin < value.size() && isContinuationByte(value[begin])) --begin;
    while (end < value.size() && isContinuationByte(value[end])) ++end;
    return value.substr(begin, end - begin);
  }

  void appendValue(std::string& out) const {
    if (facts.valueAsSent.empty()) {
      out += "the empty value";
    } else {
      appendQuoted(out, facts.valueAsSent);
    }
  }

  // The characters at fault, and where they are when they are not the whole value.
  void appendPart(std::string& out) const {
    std::string_view value = facts.valueAsSent;
    std::string_view at = span();
    if (facts.inPadding) {
      out += "the zeros added in front of ";
      appendQuoted(out, value);
      out += " to normalise it";
    } else if (at.size() == value.size()) {
      appendValue(out);
    } else if (at.empty()) {
      out += "nothing ";
      appendWhere(out);
    } else {
      appendQuoted(out, at);
      out += " (";
      appendPosition(out);
      out += ')';
    }
  }

  void appendWhere(std::string& out) const {
    std::string_view value = facts.valueAsSent;
    if (facts.inPadding) {
      out += "in the zeros added in front of ";
      appendQuoted(out, value);
      out += " to normalise it";
      return;
    }
    if (offset >= value.size()) {
      out += "at the end of ";
      appendQuoted(out, value);
    } else {
      out += "at ";
      appendPosition(out);
    }
  }

  // "character 3 of 'value'", "characters 3 to 4 of 'value'".
  void appendPosition(std::string& out) const {
    std::string_view value = facts.valueAsSent;
    std::size_t first = std::min(offset, value.size()) + 1;
    std::size_t last = std::min(offset + length, value.size());
    if (last <= first) {
      out += "character ";
      appendNumber(out, first);
      out += " of ";
    } else {
      out += "characters ";
      appendNumber(out, first);
      out += " to ";
      appendNumber(out, last);
      out += " of ";
    }
    appendQuoted(out, value);
  }

  // One alternative: "AI 01" or "AIs 01 and 21"; several: "one of 01, 01 with 21 or 8006".
  void appendAlternatives(std::string& out) const {
    // "01+21+8040" -> "01, 21 and 8040" (or "01 with 21 with 8040" in a list)
    auto appendAlternative = [&](std::string_view alternative, std::string_view joiner) {
      for (std::size_t plus = alternative.find('+'); plus != std::string_view::npos; plus = alternative.find('+')) {
        out += alternative.substr(0, plus);
        bool last = alternative.find('+', plus + 1) == std::string_view::npos;
        out += last || joiner != " and " ? joiner : ", ";
        alternative.remove_prefix(plus + 1);
      }
      out += alternative;
    };
    if (args.size() == 1) {
      out += args[0].find('+') == std::string::npos ? "AI " : "AIs ";
      appendAlternative(args[0], " and ");
      return;
    }
    out += "one of ";
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (i != 0) out += i + 1 == args.size() ? " or " : ", ";
      appendAlternative(args[i], " with ");
    }
  }

  void appendPlaceholder(std::string& out, std::string_view name) const {
    if (name.size() == 1 && name[0] >= '0' && name[0] <= '9') {
      std::size_t index = static_cast<std::size_t>(name[0] - '0');
      if (index < args.size()) appendFromRequest(out, args[index]);
    } else if (name == "value") {
      appendValue(out);
    } else if (name == "part") {
      appendPart(out);
    } else if (name == "span") {
      appendQuoted(out, span());
    } else if (name == "where") {
      appendWhere(out);
    } else if (name == "position") {
      appendNumber(out, offset + 1);
    } else if (name == "expected") {
      out += facts.expected;
    } else if (name == "linter") {
      out += facts.linter;
    } else if (name == "linterSentence") {
      appendTo(out, facts.linterSentence);
    } else if (name == "allowed") {
      out += facts.allowed;
    } else if (name == "endDidYouMean") {
      if (facts.suggestion.empty()) {
        out += '.';
      } else {
        out += "; did you mean ";
        out += facts.suggestion;
        out += '?';
      }
    } else if (name == "rest") {
      for (std::size_t i = 1; i < args.size(); ++i) {
        if (i != 1) out += ", ";
        appendFromRequest(out, args[i]);
      }
    } else if (name == "ai") {
      out += facts.ai;
    } else if (name == "module") {
      out += facts.module;
    } else if (name == "query") {
      out += kQueryCharacters;
    } else if (name == "alternatives") {
      appendAlternatives(out);
    }
  }

  // Appends `sentence` with its placeholders filled in.
  void appendTo(std::string& out, std::string_view sentence) const {
    while (!sentence.empty()) {
      std::size_t open = sentence.find('{');
      std::size_t close = open == std::string_view::npos ? open : sentence.find('}', open);
      if (close == std::string_view::npos) {
        out += sentence;
        break;
      }
      out += sentence.substr(0, open);
      appendPlaceholder(out, sentence.substr(open + 1, close - open - 1));
      sentence.remove_prefix(close + 1);
    }
  }

  std::string apply(std::string_view sentence) const {
    std::string out;
    out.reserve(sentence.size() + 3 * std::min(facts.valueAsSent.size(), kMaxQuotedBytes) + 32);
    appendTo(out, sentence);
    return out;
  }
};

// A code of a Lua rule module's own: the code and the args.
std::string genericSentence(std::string_view field, const std::vector<std::string>& args) {
  std::string out = "A rule refused ";
  appendFromRequest(out, field);
  if (!args.empty()) {
    out += " (";
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (i != 0) out += ", ";
      appendFromRequest(out, args[i]);
    }
    out += ')';
  }
  out += '.';
  return out;
}

}  // namespace

std::string describe(const Fault& fault, const std::vector<std::string>& args) {
  return Fill(args, fault).apply(kTemplateTexts[static_cast<std::size_t>(fault.sentence)]);
}

std::string describeUnknown(std::string_view code, const std::vector<std::string>& args) {
  return genericSentence(code.starts_with(codes::kPrefix) ? code.substr(codes::kPrefix.size()) : code, args);
}

Sentence stemSentence(std::string_view reason) {
  for (const StemReason& entry : kStemReasons) {
    if (entry.reason == reason) return entry.sentence;
  }
  return Sentence::StemSyntax;
}

std::span<const std::string_view> sentenceTemplates() { return kTemplateTexts; }

}  // namespace codepayload::messages
