#include "engine/uri_text.h"

#include "common/ascii.h"

namespace codepayload::uri {

namespace {

constexpr char kHex[] = "0123456789ABCDEF";

void appendEscape(std::string& out, unsigned char c) {
  out += '%';
  out += kHex[c >> 4];
  out += kHex[c & 0x0F];
}

template <bool (*keep)(char)>
void appendEncoded(std::string& out, std::string_view text) {
  std::size_t run = 0;  // start of the characters kept as they are
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (keep(text[i])) continue;
    out.append(text.data() + run, i - run);
    appendEscape(out, static_cast<unsigned char>(text[i]));
    run = i + 1;
  }
  out.append(text.data() + run, text.size() - run);
}

}  // namespace

bool allQueryLiteral(std::string_view text) {
  for (char c : text) {
    if (!isQueryLiteral(c)) return false;
  }
  return true;
}

void appendEncodedStrict(std::string& out, std::string_view text) { appendEncoded<isUnreserved>(out, text); }

void appendEncodedQuery(std::string& out, std::string_view text) { appendEncoded<isQueryLiteral>(out, text); }

bool isAbsoluteHttpUri(std::string_view text) {
  std::size_t afterScheme;
  if (common::startsWithIgnoringAsciiCase(text, "https://")) {
    afterScheme = 8;
  } else if (common::startsWithIgnoringAsciiCase(text, "http://")) {
    afterScheme = 7;
  } else {
    return false;
  }
  std::size_t hostEnd = text.find_first_of("/?#", afterScheme);
  if (hostEnd == std::string_view::npos) hostEnd = text.size();
  std::string_view authority = text.substr(afterScheme, hostEnd - afterScheme);
  std::size_t at = authority.rfind('@');
  std::string_view host = at == std::string_view::npos ? authority : authority.substr(at + 1);
  if (host.empty() || host[0] == ':') return false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (!isUriCharacter(c)) return false;
    if (c == '%' && (i + 2 >= text.size() || !isHexDigit(text[i + 1]) || !isHexDigit(text[i + 2]))) return false;
  }
  return true;
}

}  // namespace codepayload::uri
