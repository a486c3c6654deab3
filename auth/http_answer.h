// The plain HTTP answer the auth library hands back to the HTTP layer. No Poco
// types: the HTTP layer copies status, reason, headers and body onto its
// response (Content-Length is the HTTP layer's job).
#pragma once

#include <string>
#include <vector>

namespace codepayload::auth {

struct HttpHeader {
  std::string name;
  std::string value;

  bool operator==(const HttpHeader&) const = default;
};

struct HttpAnswer {
  int status = 500;
  std::string reason;               // "Bad Request", "Unauthorized", ...: use setStatusAndReason
  std::vector<HttpHeader> headers;  // in the order to send; Content-Type is always first
  std::string body;                 // the exact bytes to send

  // The value of the first header named `name` (exact spelling), or "" when absent.
  const std::string& header(const std::string& name) const;
};

}  // namespace codepayload::auth
