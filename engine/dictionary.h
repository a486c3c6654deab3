// The GS1 Barcode Syntax Dictionary as plain data: what the import tool reads
// from a GS1 release (or from the project's baseline), writes to SQLite, and
// what the engine loads back to build a rule snapshot. No behaviour here beyond
// pattern matching; validation lives in plugins/.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace codepayload {

enum class CharacterSet : char {
  Numeric = 'N',    // digits
  Cset82 = 'X',     // GS1 AI encodable character set 82
  Cset39 = 'Y',     // GS1 AI encodable character set 39
  Base64Url = 'Z',  // RFC 4648 base64url alphabet (AI 8030)
};

// One whitespace-separated component of an AI's format specification,
// e.g. "N13,csum,gcppos1" or "[X..17]".
struct ComponentSpec {
  CharacterSet charset = CharacterSet::Numeric;
  std::uint16_t minLength = 0;
  std::uint16_t maxLength = 0;
  bool optional = false;
  std::vector<std::string> linters;  // in the order the dictionary lists them

  bool operator==(const ComponentSpec&) const = default;
};

// An AI or an AI pattern from req=/ex= attributes: 'n' matches any digit
// ("31nn", "310n"); anything else matches itself.
struct AiPattern {
  std::string text;

  bool matches(std::string_view ai) const {
    if (ai.size() != text.size()) return false;
    for (std::size_t i = 0; i < ai.size(); ++i) {
      if (text[i] == 'n' ? (ai[i] < '0' || ai[i] > '9') : ai[i] != text[i]) return false;
    }
    return true;
  }
  bool operator==(const AiPattern&) const = default;
};

// One "req=" attribute. It is satisfied when any one alternative is present in
// full; an alternative is a '+'-joined group ("01+21") of patterns.
// Every req= attribute of an AI must be satisfied on its own.
struct RequiresRule {
  std::vector<std::vector<AiPattern>> alternatives;

  bool operator==(const RequiresRule&) const = default;
};

struct AiDefinition {
  std::string ai;                         // "01", "3103", ...
  std::string title;                      // may be empty (some releases omit it)
  bool fixedLength = false;               // '*' flag: pre-defined length, no FNC1 separator
  bool digitalLinkDataAttribute = false;  // '?' flag: may go in a Digital Link query string
  std::vector<ComponentSpec> components;
  std::vector<RequiresRule> requirements;  // the req= attributes: all must hold
  std::vector<AiPattern> excludes;         // none may be present (an AI never excludes itself)
  bool digitalLinkPrimaryKey = false;      // "dlpkey" attribute present
  // Alternative ordered qualifier sequences from "dlpkey=22,10,21|235";
  // empty when the key takes no qualifiers.
  std::vector<std::vector<std::string>> qualifierSequences;

  bool operator==(const AiDefinition&) const = default;
};

// A GS1 Web Vocabulary link type (sub-property of gs1:linkType).
struct LinkType {
  std::string id;  // "gs1:pip"
  std::string title;
  std::string description;
  std::string uri;     // "https://ref.gs1.org/voc/pip"
  std::string status;  // "stable", ...
  bool deprecated = false;
  std::vector<std::string> restricted;  // e.g. {"resolver"}, {"validatedHealthcare"}
  bool selectable = true;               // false for the resolver-only types (restricted to "resolver")

  bool operator==(const LinkType&) const = default;
};

struct ReleaseInfo {
  std::string name;                 // "2026-01-27"
  std::string sourceFile;           // "gs1-syntax-dictionary-2026-01-27.txt"
  std::string sha256;               // of the source file, lowercase hex
  std::string linkTypesSourceFile;  // "link-types.json"
  std::string linkTypesSha256;

  bool operator==(const ReleaseInfo&) const = default;
};

struct Dictionary {
  ReleaseInfo release;
  std::vector<AiDefinition> ais;  // one entry per AI (ranges expanded), in AI order
  std::vector<LinkType> linkTypes;

  bool operator==(const Dictionary&) const = default;
};

// Writes the format specification without linters, as users see it in
// error args: "N13 [X..17]", "N6 [X1]".
std::string formatSpecText(const AiDefinition& ai);

}  // namespace codepayload
