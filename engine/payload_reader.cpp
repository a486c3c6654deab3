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
enum class UriCharacter : unsigned char { NotAllowed, Plain, Slash, Ampersand, Question, Hash, Percent, Plus };
constexpr auto kUriCharacters = [] {
  std::array<UriCharacter, 256> table{};
  for (std::size_t c = 0; c < table.size(); ++c) {
    table[c] = uri::isUriCharacter(static_cast<char>(c)) ? UriCharacter::Plain : UriCharacter::NotAllowed;
  }
  table['/'] = UriCharacter::Slash;
  table['&'] = UriCharacter::Ampersand;
  table['?'] = UriCharacter::Question;
  table['#'] = UriCharacter::Hash;
  table['%'] = UriCharacter::Percent;
  table['+'] = UriCharacter::Plus;
  return table;
}();

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
    ReadField field{text.substr(at, keyLength), {}, at + keyLength, 0};
    at += keyLength;
    if (ai->definition->fixedLength) {
      // The length counts characters: a value that is not ASCII (which no
      // format allows, as the pipeline then says) is not cut inside one.
      const std::size_t characters = fixedValueLength(*ai);
      std::size_t end = at;
      for (std::size_t i = 0; i < characters; ++i) {
        if (end == text.size()) return failed(fault, ReadFault::Kind::Truncated, at, std::string(field.key));
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
    if (field.length == 0) return failed(fault, ReadFault::Kind::EmptyValue, field.offset, std::string(field.key));
    field.value = text.substr(field.offset, field.length);
    payload.ais.push_back(field);
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
    const std::string_view written = text.substr(valueStart, valueEnd - valueStart);
    ReadField field{key, written, valueStart, written.size()};
    if (written.find('^') != std::string_view::npos) {
      char* const begin = payload.decodedEnd();
      char* end = begin;
      for (std::size_t i = 0; i < written.size(); ++i) {
        if (written.compare(i, 4, "^040") == 0 || written.compare(i, 4, "^041") == 0) {
          *end++ = written[i + 3] == '0' ? '(' : ')';
          i += 3;
        } else {
          *end++ = written[i];
        }
      }
      field.value = payload.keepDecoded(static_cast<std::size_t>(end - begin));
    }
    payload.ais.push_back(field);
    at = valueEnd;
  }
  return true;
}

// Decodes %XX escapes and, in a query, '+' as a space into `out` (room for
// written.size() bytes); the end of what it wrote, or nullptr on a malformed
// escape.
char* decodeInto(std::string_view written, bool query, char* out) {
  for (std::size_t i = 0; i < written.size(); ++i) {
    char c = written[i];
    if (c == '%') {
      if (i + 2 >= written.size() || !uri::isHexDigit(written[i + 1]) || !uri::isHexDigit(written[i + 2])) {
        return nullptr;
      }
      c = static_cast<char>(common::hexDigitValue(written[i + 1]) * 16 + common::hexDigitValue(written[i + 2]));
      i += 2;
    } else if (c == '+' && query) {
      c = ' ';
    }
    *out++ = c;
  }
  return out;
}

// What a URI holds that decoding changes: a component is its own value
// unless it has one of these.
struct UriEscapes {
  bool percent = false;
  bool plus = false;
};

// A component's value: the text itself when nothing in it needs decoding,
// else decoded into the payload's buffer; false on a malformed escape, an
// escaped NUL or escapes that decode to no UTF-8 text.
bool decodeComponent(std::string_view written, bool query, UriEscapes escapes, ReadPayload& payload,
                     std::string_view& value) {
  const bool mayChange = escapes.percent || (query && escapes.plus);
  if (!mayChange || written.find_first_of(query ? "%+" : "%") == std::string_view::npos) {
    value = written;
    return true;
  }
  char* const begin = payload.decodedEnd();
  char* const end = decodeInto(written, query, begin);
  if (end == nullptr) return false;
  value = payload.keepDecoded(static_cast<std::size_t>(end - begin));
  return value.find('\0') == std::string_view::npos && common::isValidUtf8(value);
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
  return last.size() >= 10 && std::all_of(last.begin(), last.end(), common::isBase64UrlCharacter) &&
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
  UriEscapes escapes;
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
      case UriCharacter::Percent: escapes.percent = true; break;
      case UriCharacter::Plus: escapes.plus = true; break;
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
  payload.stem = text.substr(begin, segments[keySegment].offset - 1 - begin);
  for (std::size_t i = keySegment; i + 1 < segments.size(); i += 2) {
    const Segment& value = segments[i + 1];
    ReadField field{segments[i].text, {}, value.offset, value.text.size()};
    if (value.text.empty()) return failed(fault, ReadFault::Kind::EmptyValue, value.offset, std::string(field.key));
    if (!decodeComponent(value.text, false, escapes, payload, field.value)) {
      return failed(fault, ReadFault::Kind::UriSyntax, value.offset, std::string(field.key));
    }
    payload.ais.push_back(field);
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
    ReadField field{key, written, offset + equals + 1, written.size()};
    if (allDigits(key)) {
      if (rules.findAi(key) == nullptr) return failed(fault, ReadFault::Kind::UnknownAi, offset, std::string(key));
      if (written.empty()) return failed(fault, ReadFault::Kind::EmptyValue, field.offset, std::string(key));
      if (!decodeComponent(written, true, escapes, payload, field.value)) {
        return failed(fault, ReadFault::Kind::UriSyntax, field.offset, std::string(key));
      }
      payload.ais.push_back(field);
      continue;
    }
    if (std::find(seenKeys.begin(), seenKeys.end(), key) != seenKeys.end()) {
      return failed(fault, ReadFault::Kind::UriSyntax, offset, std::string(key));
    }
    seenKeys.push_back(key);
    // Extension parameters and context are written as sent (their
    // characters are URI characters already): they are read as written.
    if (key == "linkType") {
      if (!decodeComponent(written, false, escapes, payload, field.value)) {
        return failed(fault, ReadFault::Kind::UriSyntax, field.offset, std::string(key));
      }
      payload.linkType = field;
    } else if (key == "context") {
      payload.context = field;
    } else {
      payload.extensionParameters.push_back(field);
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

bool ReadPayload::operator==(const ReadPayload& other) const {
  return form == other.form && symbologyIdentifier == other.symbologyIdentifier && ais == other.ais &&
         pathAis == other.pathAis && stem == other.stem && extensionParameters == other.extensionParameters &&
         linkType == other.linkType && context == other.context;
}

void ReadPayload::makeRoomForDecoding(std::size_t textSize) {
  decodedUsed_ = 0;
  if (textSize <= decodedCapacity_) return;
  decoded_ = std::make_unique_for_overwrite<char[]>(textSize);
  decodedCapacity_ = textSize;
}

bool readPayload(const Snapshot& rules, std::string_view text, ReadPayload& payload, ReadFault& fault) {
  payload.form = PayloadForm::ScannerData;
  payload.symbologyIdentifier = {};
  payload.ais.clear();
  payload.pathAis = 0;
  payload.stem = {};
  payload.extensionParameters.clear();
  payload.linkType.reset();
  payload.context.reset();
  payload.makeRoomForDecoding(text.size());
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
      return failed(fault, ReadFault::Kind::SymbologyIdentifier, 0, std::string(payload.symbologyIdentifier));
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
