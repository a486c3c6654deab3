// Character classes and encoders for the parts of a Digital Link URI.
#pragma once

#include <string>
#include <string_view>

namespace codepayload::uri {

// RFC 3986 unreserved: A-Z a-z 0-9 - . _ ~
constexpr bool isUnreservedByRule(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

// Characters a query component keeps as they are: unreserved plus
// ! $ ' ( ) * , ; : @ / ?  (never & = + # % [ ] or anything outside ASCII).
constexpr bool isQueryLiteralByRule(char c) {
  switch (c) {
    case '!':
    case '$':
    case '\'':
    case '(':
    case ')':
    case '*':
    case ',':
    case ';':
    case ':':
    case '@':
    case '/':
    case '?': return true;
    default: return isUnreservedByRule(c);
  }
}

// The same two classes as 256-entry tables (hot loops of the encoders).
struct CharacterTable {
  bool member[256];
};
template <bool (*rule)(char)>
constexpr CharacterTable makeTable() {
  CharacterTable table{};
  for (int c = 0; c < 256; ++c) table.member[c] = rule(static_cast<char>(c));
  return table;
}
inline constexpr CharacterTable kUnreserved = makeTable<isUnreservedByRule>();
inline constexpr CharacterTable kQueryLiteral = makeTable<isQueryLiteralByRule>();

constexpr bool isUnreserved(char c) { return kUnreserved.member[static_cast<unsigned char>(c)]; }
constexpr bool isQueryLiteral(char c) { return kQueryLiteral.member[static_cast<unsigned char>(c)]; }

// RFC 3986 sub-delims.
constexpr bool isSubDelim(char c) {
  switch (c) {
    case '!':
    case '$':
    case '&':
    case '\'':
    case '(':
    case ')':
    case '*':
    case '+':
    case ',':
    case ';':
    case '=': return true;
    default: return false;
  }
}

// Every character a URI may hold: reserved, unreserved and '%'.
constexpr bool isUriCharacter(char c) {
  switch (c) {
    case ':':
    case '/':
    case '?':
    case '#':
    case '[':
    case ']':
    case '@':
    case '%': return true;
    default: return isUnreserved(c) || isSubDelim(c);
  }
}

constexpr bool isHexDigit(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f'); }

bool allQueryLiteral(std::string_view text);

// Appends `text`, percent-encoding every byte that is not unreserved (AI values).
void appendEncodedStrict(std::string& out, std::string_view text);

// Appends `text`, percent-encoding every byte that is not a query literal.
void appendEncodedQuery(std::string& out, std::string_view text);

// True when `text` is an absolute http or https URI with a host, made only of
// URI characters with well-formed %XX escapes.
bool isAbsoluteHttpUri(std::string_view text);

}  // namespace codepayload::uri
