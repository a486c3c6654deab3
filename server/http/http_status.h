// The status codes the service may answer with and their reason phrases: the
// registry of RFC 9110 §15 (the codes in use: 305 is deprecated, 306 and 418
// are unused, so none of them is here) and 429 and 431 of RFC 6585. The
// status line of every answer takes its phrase from here
// (server/connections/http_connection.cpp). tests/server/http/http_status_test.cpp pins
// the table and checks that every status the sources send is in it.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace codepayload::server {

struct HttpStatus {
  int code;
  std::string_view reasonPhrase;  // as RFC 9110 §15 / RFC 6585 name it
};

// Every registered status, in ascending order of code.
std::span<const HttpStatus> registeredStatuses();

// The registered phrase of `status`, or nullopt when the table lacks it.
std::optional<std::string_view> registeredReasonPhrase(int status);

// RFC 9110 §15's name of the class of a status 100-599 ("Informational",
// "Successful", "Redirection", "Client Error", "Server Error"); "" for any
// other number, which is no status code.
std::string_view statusClassPhrase(int status);

// The phrase of the status line. Sending a status the table lacks is a
// programming error: asserted in debug builds; a release build sends the
// class phrase (a client treats an unknown code as the x00 of its class,
// RFC 9110 §15) or, for a number outside 100-599, no phrase.
std::string_view reasonPhrase(int status);

}  // namespace codepayload::server
