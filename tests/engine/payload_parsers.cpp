#include "tests/engine/payload_parsers.h"

#include <algorithm>

#include "engine/snapshot.h"
#include "engine/uri_text.h"

namespace codepayload {

namespace {

bool isAiKey(std::string_view text) {
  return text.size() >= 2 && text.size() <= 4 &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    std::size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (at == std::string_view::npos) return parts;
    start = at + 1;
  }
}

bool isQualifierOf(const AiDefinition& primaryKey, std::string_view ai) {
  for (const auto& sequence : primaryKey.qualifierSequences) {
    if (std::find(sequence.begin(), sequence.end(), ai) != sequence.end()) return true;
  }
  return false;
}

}  // namespace

std::optional<ParsedDigitalLink> parseDigitalLink(const Snapshot& rules, std::string_view uri) {
  std::size_t schemeEnd = uri.find("://");
  if (schemeEnd == std::string_view::npos) return std::nullopt;
  std::size_t pathStart = uri.find('/', schemeEnd + 3);
  if (pathStart == std::string_view::npos) return std::nullopt;
  std::size_t queryStart = uri.find('?', pathStart);
  std::string_view path =
      uri.substr(pathStart, queryStart == std::string_view::npos ? std::string_view::npos : queryStart - pathStart);
  std::vector<std::string_view> segments = split(path.substr(1), '/');

  // Find the leftmost segment i (pairs to the end) that is a primary key whose
  // following pairs are all its qualifiers.
  std::optional<std::size_t> keyAt;
  for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
    if ((segments.size() - i) % 2 != 0 || !isAiKey(segments[i])) continue;
    const CompiledAi* primaryKey = rules.findAi(segments[i]);
    if (primaryKey == nullptr || !primaryKey->definition->digitalLinkPrimaryKey) continue;
    bool qualifiersOnly = true;
    for (std::size_t q = i + 2; q < segments.size(); q += 2) {
      if (!isQualifierOf(*primaryKey->definition, segments[q])) qualifiersOnly = false;
    }
    if (qualifiersOnly) {
      keyAt = i;
      break;
    }
  }
  if (!keyAt) return std::nullopt;

  ParsedDigitalLink link;
  std::size_t stemLength = pathStart;
  for (std::size_t i = 0; i < *keyAt; ++i) stemLength += 1 + segments[i].size();
  link.stem = std::string(uri.substr(0, stemLength));
  std::string decoded;
  for (std::size_t i = *keyAt; i < segments.size(); i += 2) {
    if (!uri::percentDecode(segments[i + 1], decoded)) return std::nullopt;
    link.pathAis.push_back({std::string(segments[i]), decoded});
  }
  if (queryStart == std::string_view::npos) return link;
  for (std::string_view parameter : split(uri.substr(queryStart + 1), '&')) {
    std::size_t equals = parameter.find('=');
    std::string_view key = parameter.substr(0, equals);
    std::string_view value = equals == std::string_view::npos ? std::string_view() : parameter.substr(equals + 1);
    std::string decodedKey;
    if (!uri::percentDecode(key, decodedKey) || !uri::percentDecode(value, decoded)) return std::nullopt;
    if (isAiKey(decodedKey) && rules.findAi(decodedKey) != nullptr) {
      link.queryAis.push_back({decodedKey, decoded});
    } else {
      link.otherParameters.emplace_back(decodedKey, decoded);
    }
  }
  return link;
}

std::optional<std::vector<ParsedAi>> parseElementString(std::string_view text) {
  std::vector<ParsedAi> ais;
  std::size_t at = 0;
  while (at < text.size()) {
    if (text[at] != '(') return std::nullopt;
    std::size_t close = text.find(')', at);
    if (close == std::string_view::npos) return std::nullopt;
    std::string_view key = text.substr(at + 1, close - at - 1);
    if (!isAiKey(key)) return std::nullopt;
    std::size_t next = text.find('(', close + 1);
    if (next == std::string_view::npos) next = text.size();
    std::string_view raw = text.substr(close + 1, next - close - 1);
    std::string value;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw.compare(i, 4, "^040") == 0) {
        value += '(';
        i += 3;
      } else if (raw.compare(i, 4, "^041") == 0) {
        value += ')';
        i += 3;
      } else {
        value += raw[i];
      }
    }
    ais.push_back({std::string(key), std::move(value)});
    at = next;
  }
  if (ais.empty()) return std::nullopt;
  return ais;
}

}  // namespace codepayload
