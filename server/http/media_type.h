// Media types of the /codes endpoint: which request Content-Types are taken,
// and which response type an Accept header asks for (RFC 9110 §12.5.1:
// q-values, `*/*`, `type/*`, q=0 excludes).
#pragma once

#include <optional>
#include <string_view>

namespace codepayload::server {

// The version-1 vendor type; the spec's "vnd.service" with our vendor word.
inline constexpr std::string_view kVersionedJsonType = "application/vnd.codepayload.public.v1+json";
inline constexpr std::string_view kPlainJsonType = "application/json";

enum class JsonMediaType { Versioned, Plain };

std::string_view mediaTypeName(JsonMediaType type);

// Whether a request Content-Type is one /codes reads: the versioned type or
// application/json, compared case-insensitively; parameters are allowed, but
// a charset must be utf-8.
bool isAcceptedJsonRequestType(std::string_view contentType);

// The response type for an Accept header value; an absent (nullopt) or empty
// header yields the versioned type; nullopt when nothing the endpoint
// produces is acceptable (406). On equal quality the versioned type wins.
std::optional<JsonMediaType> negotiateJsonResponseType(std::optional<std::string_view> accept);

// The media type of a Content-Type value without parameters, or "" when it
// has no type/subtype shape: "Application/JSON; charset=x" -> "Application/JSON".
std::string_view bareMediaType(std::string_view contentType);

}  // namespace codepayload::server
