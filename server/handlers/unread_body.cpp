#include "server/handlers/unread_body.h"

#include "common/error_codes.h"

namespace codepayload::server {

UnreadBodyAnswer unreadBodyAnswer(BodyRead read, std::size_t limitBytes) {
  switch (read) {
    case BodyRead::TooLarge:
      return {413, error_code::kBodyTooLarge, "The body is larger than " + std::to_string(limitBytes) + " bytes."};
    case BodyRead::LengthRequired:
      return {411, error_code::kLengthRequired, "Send a Content-Length or a chunked body."};
    case BodyRead::Incomplete: return {400, error_code::kIncompleteBody, "The body ended before its announced length."};
    case BodyRead::Malformed:
    case BodyRead::Complete: break;
  }
  return {400, error_code::kInvalidFraming, "The chunked body does not follow RFC 9112 §7.1."};
}

}  // namespace codepayload::server
