#include "engine/digital_link_stem.h"

#include <algorithm>

#include "common/ascii.h"
#include "engine/uri_text.h"

namespace codepayload {

namespace {

bool validEscapes(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && (i + 2 >= text.size() || !uri::isHexDigit(text[i + 1]) || !uri::isHexDigit(text[i + 2]))) {
      return false;
    }
  }
  return true;
}

bool isRegNameChar(char c) { return uri::isUnreserved(c) || uri::isSubDelim(c) || c == '%'; }
bool isPathChar(char c) { return uri::isUnreserved(c) || uri::isSubDelim(c) || c == '%' || c == ':' || c == '@'; }

const char* checkHost(std::string_view hostPort) {
  std::string_view host = hostPort;
  std::string_view port;
  if (!hostPort.empty() && hostPort[0] == '[') {
    std::size_t close = hostPort.find(']');
    if (close == std::string_view::npos || close == 1) return "host";
    for (char c : hostPort.substr(1, close - 1)) {
      if (!(uri::isHexDigit(c) || c == ':' || c == '.')) return "host";
    }
    host = hostPort.substr(0, close + 1);
    std::string_view rest = hostPort.substr(close + 1);
    if (!rest.empty()) {
      if (rest[0] != ':') return "host";
      port = rest.substr(1);
      if (port.empty()) return "port";
    }
  } else {
    std::size_t colon = hostPort.find(':');
    if (colon != std::string_view::npos) {
      host = hostPort.substr(0, colon);
      port = hostPort.substr(colon + 1);
      if (port.empty()) return "port";
    }
    if (host.empty()) return "host";
    for (char c : host) {
      if (!isRegNameChar(c)) return "host";
    }
    if (!validEscapes(host)) return "host";
  }
  if (port.size() > 5) return "port";
  unsigned number = 0;
  for (char c : port) {
    if (c < '0' || c > '9') return "port";
    number = number * 10 + static_cast<unsigned>(c - '0');
  }
  if (!port.empty() && (number == 0 || number > 65535)) return "port";
  return nullptr;
}

}  // namespace

std::string_view checkDigitalLinkStem(std::string_view stem, const char*& reason) {
  reason = nullptr;
  std::size_t schemeEnd;
  if (common::startsWithIgnoringAsciiCase(stem, "https://")) {
    schemeEnd = 8;
  } else if (common::startsWithIgnoringAsciiCase(stem, "http://")) {
    schemeEnd = 7;
  } else {
    reason = "scheme";
    return {};
  }
  if (stem.find('#') != std::string_view::npos) {
    reason = "fragment";
    return {};
  }
  if (stem.find('?') != std::string_view::npos) {
    reason = "query";
    return {};
  }
  std::size_t pathStart = stem.find('/', schemeEnd);
  if (pathStart == std::string_view::npos) pathStart = stem.size();
  std::string_view authority = stem.substr(schemeEnd, pathStart - schemeEnd);
  if (authority.find('@') != std::string_view::npos) {
    reason = "userinfo";
    return {};
  }
  if (authority.empty()) {
    reason = "host";
    return {};
  }
  if (const char* hostFault = checkHost(authority)) {
    reason = hostFault;
    return {};
  }
  std::string_view normalised = stem;
  if (normalised.size() > pathStart && normalised.back() == '/') normalised.remove_suffix(1);
  std::string_view path = normalised.substr(std::min(pathStart, normalised.size()));
  // path is "" or "/seg/seg..."
  std::size_t at = 0;
  while (at < path.size()) {
    std::size_t next = path.find('/', at + 1);
    if (next == std::string_view::npos) next = path.size();
    std::string_view segment = path.substr(at + 1, next - at - 1);
    if (segment.empty()) {
      reason = "emptySegment";
      return {};
    }
    if (segment == "." || segment == "..") {
      reason = "dotSegment";
      return {};
    }
    for (char c : segment) {
      if (!isPathChar(c)) {
        reason = "syntax";
        return {};
      }
    }
    if (!validEscapes(segment)) {
      reason = "syntax";
      return {};
    }
    at = next;
  }
  return normalised;
}

}  // namespace codepayload
