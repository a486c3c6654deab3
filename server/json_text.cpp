#include "server/json_text.h"

namespace codepayload::server {

void appendJsonString(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      default:
        if (byte < 0x20) {
          out.append("\\u00");
          out.push_back(kHex[byte >> 4]);
          out.push_back(kHex[byte & 0x0f]);
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

std::string errorEnvelope(std::string_view code, std::optional<std::string_view> path, std::string_view message) {
  std::string body;
  body.reserve(64 + code.size() + message.size() + (path ? path->size() : 0));
  body.append(R"({"errors":[{"code":)");
  appendJsonString(body, code);
  body.append(R"(,"path":)");
  if (path) {
    appendJsonString(body, *path);
  } else {
    body.append("null");
  }
  body.append(R"(,"message":)");
  appendJsonString(body, message);
  body.append("}]}");
  return body;
}

}  // namespace codepayload::server
