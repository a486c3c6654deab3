#include "engine/payload_reader.h"

#include <algorithm>
#include <array>

#include "common/ascii.h"
#include "common/utf8.h"
#include "engine/snapshot.h"
#include "engine/uri_text.h"

namespace codepayload {

namespace {

constexpr char kGroupSeparator = '\x1d';

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isLetter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool allDigits(std::string_view text) { return !text.empty() && std::all_of(text.begin(), text.end(), isDigit); }

// What a character of a Digital Link URI is, by table: a URI is read
// character by character.
enum class UriCharacter : unsigned char { NotAllowed, Plain, Slash, Ampersand, Question, Hash };
constexpr auto kUriCharacters = [] {
  std::array<UriCharacter, 256> table{};
  for (std::size_t c = 0; c < table.size(); ++c) {
    table[c] = uri::isUriCharacter(static_cast<char>(c)) ? UriCharacter::Plain : UriCharacter::NotAllowed;
  }
  table['/'] = UriCharacter::Slash;
  table['&'] = UriCharacter::Ampersand;
  table['?'] = UriCharacter::Question;
  table['#'] = UriCharacter::Hash;
  return table;
}();

bool isBase64Url(char c) { return isLetter(c) || isDigit(c) || c == '-' || c == '_'; }

// The AIM symbology identifiers whose symbols carry GS1 element strings
// (FNC1 in first position): GS1-128, GS1 DataBar, GS1 DataMatrix, GS1 QR Code,
// GS1 DotCode. A Digital Link URI is plain data: "]Q1", "]d1" and the like.
constexpr std::string_view kGs1Identifiers[] = {"]C1", "]e0", "]d2", "]Q3", "]J1"};

// Where the character that starts at `at` ends: past its whole UTF-8 sequence,
// or past the one byte when the text is no UTF-8 there.
std::size_t characterEnd(std::string_view text, std::size_t at) {
  std::size_t end = at;
  char32_t codePoint = 0;
  if (!common::decodeUtf8(text, end, codePoint)) end = at + 1;
  return end;
}

// Up to `count` characters of `text` from `at`, whole: a detail that quotes
// the text never cuts a character, so the answer stays UTF-8.
std::string charactersAt(std::string_view text, std::size_t at, std::size_t count) {
  std::size_t end = at;
  for (std::size_t i = 0; i < count && end < text.size(); ++i) end = characterEnd(text, end);
  return std::string(text.substr(at, end - at));
}

// Where reading fails: sets `fault` and returns false.
bool failed(ReadFault& fault, ReadFault::Kind kind, std::size_t offset, std::string detail) {
  fault = ReadFault{kind, offset, std::move(detail)};
  return false;
}

// The AI that the digits at `at` begin: the dictionary's AIs are prefix-free,
// so the first of 2, 3 and 4 digits that names one is it.
const CompiledAi* aiAt(const Snapshot& rules, std::string_view text, std::size_t at, std::size_t& length) {
  for (length = 2; length <= 4 && at + length <= text.size(); ++length) {
    const std::string_view key = text.substr(at, length);
    if (!allDigits(key)) return nullptr;
    if (const CompiledAi* ai = rules.findAi(key)) return ai;
  }
  return nullptr;
}

// A fixed-length AI's length: the sum of its components' (each fixed).
std::size_t fixedValueLength(const CompiledAi& ai) {
  std::size_t length = 0;
  for (const CompiledComponent& component : ai.components) length += component.maxLength;
  return length;
}

// Unbracketed AIs from `begin`: a fixed-length value takes its length, any
// other runs to the next GS or the end; a GS after a fixed-length value is
// tolerated (some encoders write one).
bool readScannerData(const Snapshot& rules, std::string_view text, std::size_t begin, ReadPayload& payload,
                     ReadFault& fault) {
  payload.form = PayloadForm::ScannerData;
  std::size_t at = begin;
  if (at < text.size() && text[at] == kGroupSeparator) ++at;
  if (at == text.size()) return failed(fault, ReadFault::Kind::Empty, at, "");
  while (at < text.size()) {
    std::size_t keyLength = 0;
    const CompiledAi* ai = aiAt(rules, text, at, keyLength);
    if (ai == nullptr) {
      std::size_t digits = 0;
      while (digits < 4 && at + digits < text.size() && isDigit(text[at + digits])) ++digits;
      return failed(fault, ReadFault::Kind::UnknownAi, at,
                    digits > 0 ? std::string(text.substr(at, digits)) : charactersAt(text, at, 1));
    }
    ReadField field{std::string(text.substr(at, keyLength)), "", at + keyLength, 0};
    at += keyLength;
    if (ai->definition->fixedLength) {
      // The length counts characters: a value that is not ASCII (which no
      // format allows, as the pipeline then says) is not cut inside one.
      const std::size_t characters = fixedValueLength(*ai);
      std::size_t end = at;
      for (std::size_t i = 0; i < characters; ++i) {
        if (end == text.size()) return failed(fault, ReadFault::Kind::Truncated, at, field.key);
        end = characterEnd(text, end);
      }
      field.length = end - at;
      at = end;
      if (at < text.size() && text[at] == kGroupSeparator) ++at;
    } else {
      const std::size_t end = std::min(text.find(kGroupSeparator, at), text.size());
      field.length = end - at;
      at = end < text.size() ? end + 1 : end;
    }
    if (field.length == 0) return failed(fault, ReadFault::Kind::EmptyValue, field.offset, field.key);
    field.value = std::string(text.substr(field.offset, field.length));
    payload.ais.push_back(std::move(field));
  }
  return true;
}

// "(ai)value(ai)value...", ^040 and ^041 standing for '(' and ')' in values.
bool readBracketed(const Snapshot& rules, std::string_view text, ReadPayload& payload, ReadFault& fault) {
  payload.form = PayloadForm::BracketedElementString;
  std::size_t at = 0;
  while (at < text.size()) {
    if (text[at] != '(') return failed(fault, ReadFault::Kind::Bracket, at, "(");
    const std::size_t close = text.find(')', at + 1);
    if (close == std::string_view::npos) return failed(fault, ReadFault::Kind::Bracket, at, ")");
    const std::string_view key = text.substr(at + 1, close - at - 1);
    if (!allDigits(key)) return failed(fault, ReadFault::Kind::Bracket, at + 1, std::string(key));
    if (rules.findAi(key) == nullptr) return failed(fault, ReadFault::Kind::UnknownAi, at + 1, std::string(key));
    const std::size_t valueStart = close + 1;
    const std::size_t valueEnd = std::min(text.find('(', valueStart), text.size());
    if (valueEnd == valueStart) return failed(fault, ReadFault::Kind::EmptyValue, valueStart, std::string(key));
    ReadField field{std::string(key), "", valueStart, valueEnd - valueStart};
    const std::string_view written = text.substr(valueStart, valueEnd - valueStart);
    for (std::size_t i = 0; i < written.size(); ++i) {
      if (written.compare(i, 4, "^040") == 0 || written.compare(i, 4, "^041") == 0) {
        field.value += written[i + 3] == '0' ? '(' : ')';
        i += 3;
      } else {
        field.value += written[i];
      }
    }
    payload.ais.push_back(std::move(field));
    at = valueEnd;
  }
  return true;
}

// A percent-decoded component; false on a malformed escape, an escaped NUL or
// escapes that decode to no UTF-8 text.
bool decodeComponent(std::string_view written, bool query, std::string& out) {
  std::string plusAsSpace;
  if (query && written.find('+') != std::string_view::npos) {
    plusAsSpace = std::string(written);
    std::replace(plusAsSpace.begin(), plusAsSpace.end(), '+', ' ');
    written = plusAsSpace;
  }
  return uri::percentDecode(written, out) && out.find('\0') == std::string::npos && common::isValidUtf8(out);
}

// A path of "/"-separated segments, each with where it starts in the text.
struct Segment {
  std::string_view text;
  std::size_t offset;
};

// Whether the path that did not hold a primary key is a compressed Digital
// Link: its last segment a run of base64url characters with a letter, at
// least as long as the shortest compressed links (a GTIN or a GLN alone
// compresses to 10 characters).
bool looksCompressed(const std::vector<Segment>& segments) {
  if (segments.empty()) return false;
  const std::string_view last = segments.back().text;
  return last.size() >= 10 && std::all_of(last.begin(), last.end(), isBase64Url) &&
         std::any_of(last.begin(), last.end(), isLetter);
}

bool readDigitalLink(const Snapshot& rules, std::string_view text, std::size_t begin, ReadPayload& payload,
                     ReadFault& fault) {
  payload.form = PayloadForm::DigitalLink;
  const std::string_view uriText = text.substr(begin);
  // One pass over the URI checks every character and notes where its
  // delimiters are (reused from payload to payload on the thread).
  thread_local std::vector<std::size_t> slashes;
  thread_local std::vector<std::size_t> ampersands;
  slashes.clear();
  ampersands.clear();
  std::size_t firstQuestion = uriText.size();
  std::size_t firstHash = uriText.size();
  for (std::size_t i = 0; i < uriText.size(); ++i) {
    const UriCharacter kind = kUriCharacters[static_cast<unsigned char>(uriText[i])];
    if (kind == UriCharacter::Plain) [[likely]] continue;
    switch (kind) {
      case UriCharacter::Plain: break;
      case UriCharacter::NotAllowed:
        return failed(fault, ReadFault::Kind::UriSyntax, begin + i, charactersAt(uriText, i, 1));
      case UriCharacter::Slash: slashes.push_back(i); break;
      case UriCharacter::Ampersand: ampersands.push_back(i); break;
      case UriCharacter::Question: firstQuestion = std::min(firstQuestion, i); break;
      case UriCharacter::Hash: firstHash = std::min(firstHash, i); break;
    }
  }
  const std::size_t schemeEnd = uriText.find("://") + 3;
  const auto firstPathSlash = std::lower_bound(slashes.begin(), slashes.end(), schemeEnd);
  if (firstPathSlash == slashes.end() || *firstPathSlash == schemeEnd) {
    return failed(fault, ReadFault::Kind::NoPrimaryKey, begin + uriText.size(), "");
  }
  const std::size_t pathStart = *firstPathSlash;
  // A fragment ends the data a resolver reads; it takes no part in the AIs.
  const std::size_t fragment = firstHash;
  const std::size_t queryMark = std::min(firstQuestion, fragment);
  thread_local std::vector<Segment> segments;
  segments.clear();
  for (auto slash = firstPathSlash; slash != slashes.end() && *slash < queryMark; ++slash) {
    const std::size_t at = *slash;
    const std::size_t next = (slash + 1 != slashes.end()) ? std::min(*(slash + 1), queryMark) : queryMark;
    segments.push_back(Segment{uriText.substr(at + 1, next - at - 1), begin + at + 1});
  }
  // From the end of the path, /<ai>/<value> pairs while the key is an AI;
  // the rightmost pair whose AI is a Digital Link primary key starts them.
  std::size_t keySegment = segments.size();
  for (std::size_t pairEnd = segments.size(); pairEnd >= 2; pairEnd -= 2) {
    const Segment& key = segments[pairEnd - 2];
    const CompiledAi* ai = allDigits(key.text) ? rules.findAi(key.text) : nullptr;
    if (ai == nullptr) break;
    if (ai->definition->digitalLinkPrimaryKey) {
      keySegment = pairEnd - 2;
      break;
    }
  }
  if (keySegment == segments.size()) {
    if (looksCompressed(segments)) {
      return failed(fault, ReadFault::Kind::CompressedDigitalLink, segments.back().offset,
                    std::string(segments.back().text));
    }
    return failed(fault, ReadFault::Kind::NoPrimaryKey, begin + pathStart, "");
  }
  payload.stem = std::string(text.substr(begin, segments[keySegment].offset - 1 - begin));
  for (std::size_t i = keySegment; i + 1 < segments.size(); i += 2) {
    const Segment& value = segments[i + 1];
    ReadField field{std::string(segments[i].text), "", value.offset, value.text.size()};
    if (value.text.empty()) return failed(fault, ReadFault::Kind::EmptyValue, value.offset, field.key);
    if (!decodeComponent(value.text, false, field.value)) {
      return failed(fault, ReadFault::Kind::UriSyntax, value.offset, field.key);
    }
    payload.ais.push_back(std::move(field));
  }
  payload.pathAis = payload.ais.size();

  thread_local std::vector<std::string_view> seenKeys;
  seenKeys.clear();
  auto ampersand = std::upper_bound(ampersands.begin(), ampersands.end(), queryMark);
  for (std::size_t at = queryMark; at < fragment;) {
    const std::size_t start = at + 1;
    const std::size_t end = ampersand != ampersands.end() ? std::min(*ampersand++, fragment) : fragment;
    at = end;
    if (end == start) continue;  // "&&" or a trailing '&'
    const std::string_view parameter = uriText.substr(start, end - start);
    const std::size_t equals = parameter.find('=');
    const std::size_t offset = begin + start;
    if (equals == std::string_view::npos || equals == 0) {
      return failed(fault, ReadFault::Kind::UriSyntax, offset, std::string(parameter));
    }
    const std::string_view key = parameter.substr(0, equals);
    const std::string_view written = parameter.substr(equals + 1);
    ReadField field{std::string(key), "", offset + equals + 1, written.size()};
    if (allDigits(key)) {
      if (rules.findAi(key) == nullptr) return failed(fault, ReadFault::Kind::UnknownAi, offset, field.key);
      if (written.empty()) return failed(fault, ReadFault::Kind::EmptyValue, field.offset, field.key);
      if (!decodeComponent(written, true, field.value)) {
        return failed(fault, ReadFault::Kind::UriSyntax, field.offset, field.key);
      }
      payload.ais.push_back(std::move(field));
      continue;
    }
    if (std::find(seenKeys.begin(), seenKeys.end(), key) != seenKeys.end()) {
      return failed(fault, ReadFault::Kind::UriSyntax, offset, field.key);
    }
    seenKeys.push_back(key);
    if (key == "linkType") {
      if (!decodeComponent(written, false, field.value)) {
        return failed(fault, ReadFault::Kind::UriSyntax, field.offset, field.key);
      }
      payload.linkType = std::move(field);
    } else {
      // Extension parameters and context are written as sent (their
      // characters are URI characters already): read them as written.
      field.value = std::string(written);
      if (key == "context") {
        payload.context = std::move(field);
      } else {
        payload.extensionParameters.push_back(std::move(field));
      }
    }
  }
  return true;
}

// http or https in any case (RFC 3986 3.1), as /codes takes a stem. GS1's
// own tools take only all lower or all upper case; what /codes wrote must
// read back.
bool startsWithScheme(std::string_view text) {
  return common::startsWithIgnoringAsciiCase(text, "https://") || common::startsWithIgnoringAsciiCase(text, "http://");
}

}  // namespace

bool readPayload(const Snapshot& rules, std::string_view text, ReadPayload& payload, ReadFault& fault) {
  payload.form = PayloadForm::ScannerData;
  payload.symbologyIdentifier.clear();
  payload.ais.clear();
  payload.pathAis = 0;
  payload.stem.clear();
  payload.extensionParameters.clear();
  payload.linkType.reset();
  payload.context.reset();
  if (text.empty()) return failed(fault, ReadFault::Kind::Empty, 0, "");
  std::size_t begin = 0;
  bool gs1Data = false;
  if (text[0] == ']') {
    if (text.size() < 3 || !isLetter(text[1]) || !isDigit(text[2])) {
      return failed(fault, ReadFault::Kind::SymbologyIdentifier, 0, charactersAt(text, 0, 3));
    }
    payload.symbologyIdentifier = text.substr(0, 3);
    begin = 3;
    gs1Data = std::find(std::begin(kGs1Identifiers), std::end(kGs1Identifiers), payload.symbologyIdentifier) !=
              std::end(kGs1Identifiers);
    if (!gs1Data && !startsWithScheme(text.substr(begin))) {
      return failed(fault, ReadFault::Kind::SymbologyIdentifier, 0, payload.symbologyIdentifier);
    }
  }
  const std::string_view rest = text.substr(begin);
  if (rest.empty()) return failed(fault, ReadFault::Kind::Empty, begin, "");
  if (!gs1Data && startsWithScheme(rest)) return readDigitalLink(rules, text, begin, payload, fault);
  if (begin == 0 && rest[0] == '(') return readBracketed(rules, text, payload, fault);
  if (!isDigit(rest[0]) && rest[0] != kGroupSeparator) {
    return failed(fault, ReadFault::Kind::Unrecognised, begin, charactersAt(text, begin, 1));
  }
  return readScannerData(rules, text, begin, payload, fault);
}

std::optional<ReadPayload> readPayload(const Snapshot& rules, std::string_view text, ReadFault& fault) {
  ReadPayload payload;
  if (!readPayload(rules, text, payload, fault)) return std::nullopt;
  return payload;
}

}  // namespace codepayload
