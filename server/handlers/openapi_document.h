// The OpenAPI 3.1 description of the service (docs/openapi.json, embedded at
// build time by cmake/EmbedText.cmake).
#pragma once

#include <string_view>

namespace codepayload::server {

std::string_view openApiDocument();

}  // namespace codepayload::server
