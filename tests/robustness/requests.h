// The requests the robustness suite sends as "a normal client", with the exact
// answers expected under each rules release.
#pragma once

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <string>

#include "tests/robustness/tls_connection.h"
#include "tests/server/support/sample_requests.h"

namespace codepayload::robustness {

// One GTIN, valid under every release, and its answer.
using server::testing::kOneItem;
using server::testing::kOneItemResponse;

// A GTIN with AI 717 (NHRN SRN), which exists only from the 2026-01-27 release.
inline constexpr const char* kItemWith717 =
    R"({"codes":[{"reference":"srn","primaryKey":{"key":"01","value":"09506000134352"},)"
    R"("ais":[{"key":"717","value":"SRN42"}],"extensionParameters":[]}]})";
inline constexpr const char* kItemWith717Accepted =
    R"({"codes":[{"reference":"srn","barcodeText":"(01)09506000134352(717)SRN42",)"
    R"("hri":"(01)09506000134352(717)SRN42"}],"failures":[]})";
inline constexpr const char* kItemWith717Rejected =
    R"({"codes":[],"failures":[{"reference":"srn","errors":[{"code":"Validation.Invalid.ais.0","path":"ais.0",)"
    R"("args":["717","unknownAi"],"message":"AI '717' is not in the GS1 Barcode Syntax Dictionary."}]}]})";

inline constexpr const char* kHealth2025 = R"({"status":"ok","release":"2025-01-30"})";
inline constexpr const char* kHealth2026 = R"({"status":"ok","release":"2026-01-27"})";

// POST /codes with a bearer token and a JSON body.
inline HttpCall codesCall(const std::string& accessToken, const std::string& body) {
  return HttpCall{
      "POST", "/codes", {{"Authorization", "Bearer " + accessToken}, {"Content-Type", "application/json"}}, body};
}

// POST /oauth/token with HTTP Basic credentials.
inline HttpCall tokenCall(const std::string& clientId, const std::string& secret) {
  return HttpCall{"POST",
                  "/oauth/token",
                  {{"Authorization", server::testing::basicAuthorization(clientId, secret)},
                   {"Content-Type", "application/x-www-form-urlencoded"}},
                  "grant_type=client_credentials"};
}

// The access_token of a TokenResponse body.
inline std::string accessTokenFrom(const std::string& tokenResponseBody) {
  Poco::JSON::Parser parser;
  return parser.parse(tokenResponseBody).extract<Poco::JSON::Object::Ptr>()->getValue<std::string>("access_token");
}

}  // namespace codepayload::robustness
