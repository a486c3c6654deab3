#include "common/error_codes.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace codepayload::error_code {
namespace {

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

template <typename Codes>
std::vector<std::string> asStrings(const Codes& codes) {
  return std::vector<std::string>(codes.begin(), codes.end());
}

// Published codes are never renamed or removed: this list only grows.
TEST(ErrorCodes, TheApisCodesAreThePublishedOnesInTheirOrder) {
  EXPECT_EQ(asStrings(kApiCodes), (std::vector<std::string>{"InvalidJson",
                                                            "MissingField",
                                                            "WrongType",
                                                            "InvalidFraming",
                                                            "IncompleteBody",
                                                            "InvalidRequestLine",
                                                            "InvalidHeader",
                                                            "Unauthorized",
                                                            "Forbidden",
                                                            "NotFound",
                                                            "MethodNotAllowed",
                                                            "NotAcceptable",
                                                            "LengthRequired",
                                                            "BodyTooLarge",
                                                            "TooManyItems",
                                                            "UriTooLong",
                                                            "UnsupportedMediaType",
                                                            "ExpectationFailed",
                                                            "TooManyRequests",
                                                            "HeaderTooLarge",
                                                            "ServerError",
                                                            "NotImplemented",
                                                            "HttpVersionNotSupported",
                                                            "ServiceUnavailable"}));
}

TEST(ErrorCodes, TheDashboardsOwnCodes) {
  EXPECT_EQ(asStrings(kDashboardCodes),
            (std::vector<std::string>{"BadRequest", "Conflict", "PlanExcludesClients", "SecondFactorNeeded",
                                      "SignInRefused", "TooManyAttempts", "TotpRequired", "Unauthenticated"}));
}

// The ErrorEnvelope's code enum in docs/openapi.json, in its order.
std::vector<std::string> openApiErrorCodes() {
  const std::string document = readFile(std::filesystem::path(CODEPAYLOAD_TEST_SOURCE_DIR) / "docs/openapi.json");
  const std::size_t envelope = document.find("\"ErrorEnvelope\": {");
  const std::size_t list = document.find("\"enum\": [", envelope);
  const std::size_t end = document.find(']', list);
  std::vector<std::string> codes;
  if (envelope == std::string::npos || list == std::string::npos || end == std::string::npos) return codes;
  for (std::size_t open = document.find('"', list + 8); open < end; open = document.find('"', open + 1)) {
    const std::size_t close = document.find('"', open + 1);
    codes.push_back(document.substr(open + 1, close - open - 1));
    open = close;
  }
  return codes;
}

TEST(ErrorCodes, TheOpenApiDocumentListsExactlyTheApisCodes) { EXPECT_EQ(openApiErrorCodes(), asStrings(kApiCodes)); }

// Reason phrases that are spelled like a code (RFC 9110's "Unauthorized",
// "Forbidden", "Conflict"): the only literals of those words allowed outside
// common/error_codes.h.
bool isReasonPhrase(const std::filesystem::path& file, const std::string& line) {
  return file.filename() == "http_status.cpp" || line.find("reason") != std::string::npos ||
         line.find("failure(401, \"Unauthorized\"") != std::string::npos;
}

TEST(ErrorCodes, NoSourceSpellsACodeAsALiteral) {
  std::vector<std::string> codes = asStrings(kApiCodes);
  for (const std::string_view code : kDashboardCodes) codes.emplace_back(code);
  std::vector<std::string> found;
  for (const char* folder : {"server", "auth", "app", "accounts"}) {
    const std::filesystem::path root = std::filesystem::path(CODEPAYLOAD_TEST_SOURCE_DIR) / folder;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      const std::string extension = entry.path().extension().string();
      if (extension != ".cpp" && extension != ".h") continue;
      std::istringstream lines(readFile(entry.path()));
      std::string line;
      for (int number = 1; std::getline(lines, line); ++number) {
        if (line.find("//") != std::string::npos && line.find("//") < line.find('"')) continue;
        for (const std::string& code : codes) {
          if (line.find('"' + code + '"') != std::string::npos && !isReasonPhrase(entry.path(), line)) {
            found.push_back(std::filesystem::relative(entry.path(), CODEPAYLOAD_TEST_SOURCE_DIR).string() + ":" +
                            std::to_string(number) + ": " + code);
          }
        }
      }
    }
  }
  EXPECT_EQ(found, std::vector<std::string>{});
}

}  // namespace
}  // namespace codepayload::error_code
