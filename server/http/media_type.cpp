#include "server/http/media_type.h"

#include <Poco/String.h>

#include "common/ascii.h"

namespace codepayload::server {

namespace {

using common::equalsIgnoringAsciiCase;
using common::trimSpaceAndTab;

// RFC 9110 tchar.
bool isTokenChar(char c) {
  if (Poco::Ascii::isAlphaNumeric(c)) return true;
  switch (c) {
    case '!':
    case '#':
    case '$':
    case '%':
    case '&':
    case '\'':
    case '*':
    case '+':
    case '-':
    case '.':
    case '^':
    case '_':
    case '`':
    case '|':
    case '~': return true;
    default: return false;
  }
}

bool isToken(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!isTokenChar(c)) return false;
  }
  return true;
}

// Splits `text` at `separator` outside quoted strings; calls `onPart` for each
// part (untrimmed). Returns false when a quoted string is not closed.
template <typename OnPart>
bool splitOutsideQuotes(std::string_view text, char separator, OnPart onPart) {
  std::size_t start = 0;
  bool inQuotes = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (inQuotes) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        inQuotes = false;
      }
    } else if (c == '"') {
      inQuotes = true;
    } else if (c == separator) {
      onPart(text.substr(start, i - start));
      start = i + 1;
    }
  }
  if (inQuotes) return false;
  onPart(text.substr(start));
  return true;
}

struct Parameter {
  std::string_view name;
  std::string_view value;  // without quotes (escapes kept)
};

std::optional<Parameter> parseParameter(std::string_view text) {
  text = trimSpaceAndTab(text);
  const auto equals = text.find('=');
  if (equals == std::string_view::npos) return std::nullopt;
  Parameter parameter{trimSpaceAndTab(text.substr(0, equals)), trimSpaceAndTab(text.substr(equals + 1))};
  if (!isToken(parameter.name)) return std::nullopt;
  if (parameter.value.size() >= 2 && parameter.value.front() == '"' && parameter.value.back() == '"') {
    parameter.value = parameter.value.substr(1, parameter.value.size() - 2);
  } else if (!isToken(parameter.value)) {
    return std::nullopt;
  }
  return parameter;
}

bool isUtf8Charset(std::string_view value) { return equalsIgnoringAsciiCase(value, "utf-8"); }

// qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ), in thousandths.
std::optional<int> parseQuality(std::string_view text) {
  if (text.empty() || text.size() > 5) return std::nullopt;
  if (text[0] != '0' && text[0] != '1') return std::nullopt;
  int thousandths = (text[0] - '0') * 1000;
  if (text.size() > 1) {
    if (text[1] != '.') return std::nullopt;
    int scale = 100;
    for (std::size_t i = 2; i < text.size(); ++i) {
      if (!Poco::Ascii::isDigit(text[i])) return std::nullopt;
      thousandths += (text[i] - '0') * scale;
      scale /= 10;
    }
  }
  if (thousandths > 1000) return std::nullopt;
  return thousandths;
}

struct MediaRange {
  std::string_view type;
  std::string_view subtype;
  int quality = 1000;
};

// One element of an Accept header; nullopt for a malformed one (ignored) or
// one with parameters the endpoint cannot satisfy.
std::optional<MediaRange> parseMediaRange(std::string_view element) {
  MediaRange range;
  bool first = true;
  bool valid = true;
  bool qualitySeen = false;
  const bool closed = splitOutsideQuotes(element, ';', [&](std::string_view part) {
    if (!valid) return;
    if (first) {
      first = false;
      const std::string_view mediaType = trimSpaceAndTab(part);
      const auto slash = mediaType.find('/');
      if (slash == std::string_view::npos) {
        valid = false;
        return;
      }
      range.type = mediaType.substr(0, slash);
      range.subtype = mediaType.substr(slash + 1);
      if (!isToken(range.type) || !isToken(range.subtype) || (range.type == "*" && range.subtype != "*")) {
        valid = false;
      }
      return;
    }
    if (qualitySeen) return;  // accept-ext parameters after the weight are ignored
    const auto parameter = parseParameter(part);
    if (!parameter) {
      valid = false;
      return;
    }
    if (equalsIgnoringAsciiCase(parameter->name, "q")) {
      const auto quality = parseQuality(parameter->value);
      if (!quality) {
        valid = false;
        return;
      }
      range.quality = *quality;
      qualitySeen = true;
    } else if (!(equalsIgnoringAsciiCase(parameter->name, "charset") && isUtf8Charset(parameter->value))) {
      // We produce no representation with other parameters.
      valid = false;
    }
  });
  if (!closed || !valid || first) return std::nullopt;
  return range;
}

// How specifically `range` matches "application/<subtype>": 3 exact, 2
// application/*, 1 */*, 0 not at all.
int matchSpecificity(const MediaRange& range, std::string_view subtype) {
  if (range.type == "*") return 1;
  if (!equalsIgnoringAsciiCase(range.type, "application")) return 0;
  if (range.subtype == "*") return 2;
  return equalsIgnoringAsciiCase(range.subtype, subtype) ? 3 : 0;
}

constexpr std::string_view kVersionedSubtype = kVersionedJsonType.substr(sizeof("application/") - 1);
constexpr std::string_view kPlainSubtype = kPlainJsonType.substr(sizeof("application/") - 1);

}  // namespace

std::string_view mediaTypeName(JsonMediaType type) {
  return type == JsonMediaType::Versioned ? kVersionedJsonType : kPlainJsonType;
}

std::string_view bareMediaType(std::string_view contentType) {
  const auto semicolon = contentType.find(';');
  const std::string_view mediaType = trimSpaceAndTab(contentType.substr(0, semicolon));
  const auto slash = mediaType.find('/');
  if (slash == std::string_view::npos || !isToken(mediaType.substr(0, slash)) ||
      !isToken(mediaType.substr(slash + 1))) {
    return {};
  }
  return mediaType;
}

bool isAcceptedJsonRequestType(std::string_view contentType) {
  const std::string_view mediaType = bareMediaType(contentType);
  if (!equalsIgnoringAsciiCase(mediaType, kVersionedJsonType) && !equalsIgnoringAsciiCase(mediaType, kPlainJsonType)) {
    return false;
  }
  const auto semicolon = contentType.find(';');
  if (semicolon == std::string_view::npos) return true;
  bool acceptable = true;
  const bool closed = splitOutsideQuotes(contentType.substr(semicolon + 1), ';', [&](std::string_view part) {
    if (trimSpaceAndTab(part).empty()) return;
    const auto parameter = parseParameter(part);
    if (!parameter || (equalsIgnoringAsciiCase(parameter->name, "charset") && !isUtf8Charset(parameter->value))) {
      acceptable = false;
    }
  });
  return closed && acceptable;
}

std::optional<JsonMediaType> negotiateJsonResponseType(std::optional<std::string_view> accept) {
  if (!accept || trimSpaceAndTab(*accept).empty()) return JsonMediaType::Versioned;
  int versionedSpecificity = 0;
  int versionedQuality = 0;
  int plainSpecificity = 0;
  int plainQuality = 0;
  const auto consider = [](const MediaRange& range, std::string_view subtype, int& specificity, int& quality) {
    const int match = matchSpecificity(range, subtype);
    if (match > specificity) {
      specificity = match;
      quality = range.quality;
    } else if (match != 0 && match == specificity && range.quality > quality) {
      quality = range.quality;
    }
  };
  const bool closed = splitOutsideQuotes(*accept, ',', [&](std::string_view element) {
    if (trimSpaceAndTab(element).empty()) return;
    const auto range = parseMediaRange(element);
    if (!range) return;
    consider(*range, kVersionedSubtype, versionedSpecificity, versionedQuality);
    consider(*range, kPlainSubtype, plainSpecificity, plainQuality);
  });
  if (!closed) return std::nullopt;
  if (versionedQuality == 0 && plainQuality == 0) return std::nullopt;
  return versionedQuality >= plainQuality ? JsonMediaType::Versioned : JsonMediaType::Plain;
}

}  // namespace codepayload::server
