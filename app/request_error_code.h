// The envelope code of a request the payload engine refuses as a whole
// (D-H4): one name for the server's 400/413 answer and the codepayload tool's
// error, so a script sees the same code from both (docs/error-policy.md).
#pragma once

#include <string_view>

#include "common/error_codes.h"
#include "engine/payload_engine.h"

namespace codepayload::app {

constexpr std::string_view requestErrorCode(RequestError::Kind kind) {
  switch (kind) {
    case RequestError::Kind::InvalidJson: return error_code::kInvalidJson;
    case RequestError::Kind::MissingField: return error_code::kMissingField;
    case RequestError::Kind::WrongType: return error_code::kWrongType;
    case RequestError::Kind::TooManyItems: return error_code::kTooManyItems;
  }
  return error_code::kInvalidJson;
}

}  // namespace codepayload::app
