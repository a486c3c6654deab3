#include "server/http/error_envelope.h"

#include "common/json_escape.h"

namespace codepayload::server {

using common::appendJsonString;

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
