#include "server/http/http_status.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <functional>

namespace codepayload::server {

namespace {

constexpr HttpStatus kStatuses[] = {
    {100, "Continue"},
    {101, "Switching Protocols"},
    {200, "OK"},
    {201, "Created"},
    {202, "Accepted"},
    {203, "Non-Authoritative Information"},
    {204, "No Content"},
    {205, "Reset Content"},
    {206, "Partial Content"},
    {300, "Multiple Choices"},
    {301, "Moved Permanently"},
    {302, "Found"},
    {303, "See Other"},
    {304, "Not Modified"},
    {307, "Temporary Redirect"},
    {308, "Permanent Redirect"},
    {400, "Bad Request"},
    {401, "Unauthorized"},
    {402, "Payment Required"},
    {403, "Forbidden"},
    {404, "Not Found"},
    {405, "Method Not Allowed"},
    {406, "Not Acceptable"},
    {407, "Proxy Authentication Required"},
    {408, "Request Timeout"},
    {409, "Conflict"},
    {410, "Gone"},
    {411, "Length Required"},
    {412, "Precondition Failed"},
    {413, "Content Too Large"},
    {414, "URI Too Long"},
    {415, "Unsupported Media Type"},
    {416, "Range Not Satisfiable"},
    {417, "Expectation Failed"},
    {421, "Misdirected Request"},
    {422, "Unprocessable Content"},
    {426, "Upgrade Required"},
    {429, "Too Many Requests"},
    {431, "Request Header Fields Too Large"},
    {500, "Internal Server Error"},
    {501, "Not Implemented"},
    {502, "Bad Gateway"},
    {503, "Service Unavailable"},
    {504, "Gateway Timeout"},
    {505, "HTTP Version Not Supported"},
};

// Looked up by binary search: the codes must strictly ascend (sorted, one row a code).
static_assert(std::ranges::adjacent_find(kStatuses, std::ranges::greater_equal{}, &HttpStatus::code) ==
                  std::ranges::end(kStatuses),
              "kStatuses must be sorted by code, without repeats");

}  // namespace

std::span<const HttpStatus> registeredStatuses() { return kStatuses; }

std::optional<std::string_view> registeredReasonPhrase(int status) {
  const auto found = std::ranges::lower_bound(kStatuses, status, std::ranges::less{}, &HttpStatus::code);
  if (found == std::ranges::end(kStatuses) || found->code != status) return std::nullopt;
  return found->reasonPhrase;
}

std::string_view statusClassPhrase(int status) {
  if (status < 100 || status > 599) return {};
  constexpr std::array<std::string_view, 5> kClasses = {"Informational", "Successful", "Redirection", "Client Error",
                                                        "Server Error"};
  return kClasses[static_cast<std::size_t>(status / 100 - 1)];
}

std::string_view reasonPhrase(int status) {
  if (const std::optional<std::string_view> phrase = registeredReasonPhrase(status)) return *phrase;
  assert(false && "a status without a registered reason phrase (server/http/http_status.cpp)");
  return statusClassPhrase(status);
}

}  // namespace codepayload::server
