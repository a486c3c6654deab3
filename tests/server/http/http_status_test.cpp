// The status registry: the whole table with its exact phrases (RFC 9110 §15,
// RFC 6585 §4 and §5), that every status the sources send is in it, and what
// a status the table lacks gets.
#include "server/http/http_status.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace codepayload::server {
namespace {

TEST(HttpStatus, TheRegistryIsPinned) {
  const std::vector<std::pair<int, std::string>> expected = {
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
  std::vector<std::pair<int, std::string>> table;
  for (const HttpStatus& status : registeredStatuses()) table.emplace_back(status.code, status.reasonPhrase);
  EXPECT_EQ(table, expected);
  for (const auto& [code, phrase] : expected) {
    EXPECT_EQ(registeredReasonPhrase(code), phrase) << code;
    EXPECT_EQ(reasonPhrase(code), phrase) << code;
  }
}

// Deprecated, unused or never defined: not in the table.
TEST(HttpStatus, CodesOutsideTheRegistryHaveNoPhrase) {
  for (const int code :
       {0, 99, 102, 103, 199, 226, 299, 305, 306, 399, 418, 420, 423, 428, 451, 499, 507, 511, 599, 600, 999, -200}) {
    EXPECT_EQ(registeredReasonPhrase(code), std::nullopt) << code;
  }
}

TEST(HttpStatus, TheClassPhraseFollowsTheFirstDigit) {
  EXPECT_EQ(statusClassPhrase(100), "Informational");
  EXPECT_EQ(statusClassPhrase(199), "Informational");
  EXPECT_EQ(statusClassPhrase(226), "Successful");
  EXPECT_EQ(statusClassPhrase(306), "Redirection");
  EXPECT_EQ(statusClassPhrase(418), "Client Error");
  EXPECT_EQ(statusClassPhrase(599), "Server Error");
  EXPECT_EQ(statusClassPhrase(99), "");
  EXPECT_EQ(statusClassPhrase(600), "");
  EXPECT_EQ(statusClassPhrase(0), "");
  EXPECT_EQ(statusClassPhrase(-404), "");
}

// A debug build stops at the assert; a release build sends the class phrase.
TEST(HttpStatusDeathTest, AStatusTheTableLacksIsAProgrammingError) {
  EXPECT_DEBUG_DEATH(EXPECT_EQ(reasonPhrase(418), "Client Error"), "registered reason phrase");
  EXPECT_DEBUG_DEATH(EXPECT_EQ(reasonPhrase(299), "Successful"), "registered reason phrase");
  EXPECT_DEBUG_DEATH(EXPECT_EQ(reasonPhrase(600), ""), "registered reason phrase");
}

// The statuses the service sends, by the shapes the sources send them in
// (sendBody/sendErrorEnvelope/sendJson/send/beginStream/failure/refuse/error
// calls, `{404, ...}` initialisers, `status = 401`, `ready ? 200 : 503`, the
// literal 100 Continue line), found in every file of server/ and auth/ but
// this table's own, comments skipped. A status added anywhere in one of these
// shapes fails this test until it is added here, and so looked at against
// the registry.
TEST(HttpStatus, EveryStatusTheSourcesSendIsRegistered) {
  const std::map<int, std::string> sent = {
      {100, "Continue"},
      {200, "OK"},
      {201, "Created"},
      {204, "No Content"},
      {303, "See Other"},
      {400, "Bad Request"},
      {401, "Unauthorized"},
      {403, "Forbidden"},
      {404, "Not Found"},
      {405, "Method Not Allowed"},
      {406, "Not Acceptable"},
      {409, "Conflict"},
      {411, "Length Required"},
      {413, "Content Too Large"},
      {414, "URI Too Long"},
      {415, "Unsupported Media Type"},
      {417, "Expectation Failed"},
      {429, "Too Many Requests"},
      {431, "Request Header Fields Too Large"},
      {500, "Internal Server Error"},
      {501, "Not Implemented"},
      {503, "Service Unavailable"},
      {505, "HTTP Version Not Supported"},
  };
  for (const auto& [code, phrase] : sent) EXPECT_EQ(registeredReasonPhrase(code), phrase) << code;

  const std::regex statusShape(
      R"(\b(?:sendBody|sendErrorEnvelope|sendJson|send|beginStream|failure|refuse|error|writeHead)\s*\(\s*)"
      R"((?:[A-Za-z_][\w.\->]*\s*,\s*)?([1-5]\d\d)\b)"
      R"(|\{\s*([1-5]\d\d)\s*,)"
      R"(|\bstatus\s*=\s*([1-5]\d\d)\b)"
      R"(|\?\s*([1-5]\d\d)\s*:\s*([1-5]\d\d)\b)"
      R"(|HTTP/1\.1 ([1-5]\d\d)\b)");
  const std::filesystem::path source = CODEPAYLOAD_TEST_SOURCE_DIR;
  std::map<int, std::set<std::string>> found;  // status -> files
  std::size_t files = 0;
  for (const char* folder : {"server", "auth"}) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(source / folder)) {
      const std::string extension = entry.path().extension().string();
      if (!entry.is_regular_file() || (extension != ".cpp" && extension != ".h")) continue;
      if (entry.path().filename() == "http_status.cpp") continue;
      ++files;
      std::ifstream in(entry.path());
      for (std::string line; std::getline(in, line);) {
        line = line.substr(0, line.find("//"));
        for (auto match = std::sregex_iterator(line.begin(), line.end(), statusShape); match != std::sregex_iterator();
             ++match) {
          for (std::size_t group = 1; group < match->size(); ++group) {
            if ((*match)[group].matched) {
              found[std::stoi((*match)[group].str())].insert(entry.path().lexically_relative(source).string());
            }
          }
        }
      }
    }
  }
  ASSERT_GT(files, 20u) << "the sources were not found under " << source;
  for (const auto& [code, where] : found) {
    std::string names;
    for (const std::string& name : where) names += " " + name;
    EXPECT_TRUE(registeredReasonPhrase(code)) << code << " is sent by" << names << " but has no registered phrase";
    EXPECT_TRUE(sent.contains(code)) << code << " is sent by" << names << ": add it to this test's list";
  }
  for (const auto& [code, phrase] : sent) {
    EXPECT_TRUE(found.contains(code)) << code << " is no longer sent: take it out of this test's list";
  }
}

}  // namespace
}  // namespace codepayload::server
