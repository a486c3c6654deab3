// Small JSON writers for the bodies the HTTP layer answers itself (error
// envelopes, health). The payload engine writes the CodesResponse.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace codepayload::server {

// String values are written with common::appendJsonString (common/json_escape.h).

// {"errors":[{"code":<code>,"path":<path or null>,"message":<message>}]}
std::string errorEnvelope(std::string_view code, std::optional<std::string_view> path, std::string_view message);

}  // namespace codepayload::server
