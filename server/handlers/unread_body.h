// The one answer to a request body the connection could not read, for every
// route: what each cause means does not depend on who would have read the
// body. The API's routes send it as an error envelope; the token endpoint in
// OAuth's shape (its status stays 400, RFC 6749 §5.2; the sentence is this).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "server/connections/http_connection.h"

namespace codepayload::server {

struct UnreadBodyAnswer {
  int status = 400;
  std::string_view code;  // an error code of common/error_codes.h
  std::string message;
};

// `read` is not BodyRead::Complete; `limitBytes` is the route's body limit.
UnreadBodyAnswer unreadBodyAnswer(BodyRead read, std::size_t limitBytes);

}  // namespace codepayload::server
