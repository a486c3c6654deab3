// The same AIs give the same Digital Link URI here and in GS1's Syntax Engine
// (docs/decisions.md D-Q1): every case of reference/syntax_engine_links.tsv,
// the URIs the Syntax Engine wrote for seeded random AIs in shuffled orders,
// is run through the engine with its AIs in the recorded order and its stem,
// and must come out byte for byte. reference/regenerate.sh rewrites the file
// from a checkout of the Syntax Engine; CI cannot build it, so it only reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "engine/item_processor.h"
#include "tests/engine/rules_fixture.h"

namespace codepayload::testing {
namespace {

// Below these the file was cut or made wrong: most of its cases' query
// strings are not in the order their AIs were given.
constexpr std::size_t kMinimumCases = 900;
constexpr std::size_t kMinimumReordered = 300;

using Ais = std::vector<std::pair<std::string, std::string>>;

struct ReferenceCase {
  std::size_t line = 0;
  std::string aiData, stem, uri;
  Ais ais;
};

// The Syntax Engine's bracketed AI data: "(AI)value" repeated, a "(" inside a
// value written "\(". Empty when the text is not of that form.
Ais parseAiData(const std::string& text) {
  Ais ais;
  std::size_t at = 0;
  while (at < text.size()) {
    if (text[at] != '(') return {};
    std::size_t close = text.find(')', at);
    if (close == std::string::npos || close == at + 1) return {};
    std::string ai = text.substr(at + 1, close - at - 1);
    if (ai.find_first_not_of("0123456789") != std::string::npos) return {};
    std::string value;
    at = close + 1;
    while (at < text.size() && text[at] != '(') {
      if (text.compare(at, 2, "\\(") == 0) ++at;
      value += text[at++];
    }
    ais.emplace_back(std::move(ai), std::move(value));
  }
  return ais;
}

struct Fixture {
  std::string release;
  std::vector<ReferenceCase> cases;
};

Fixture readFixture() {
  const std::string path = std::string(CODEPAYLOAD_REFERENCE_DIR) + "/syntax_engine_links.tsv";
  std::ifstream in(path);
  EXPECT_TRUE(in) << "cannot read " << path;
  Fixture fixture;
  std::string text;
  for (std::size_t line = 1; std::getline(in, text); ++line) {
    if (text.rfind("# release: ", 0) == 0) {
      fixture.release = text.substr(11, text.find(' ', 11) - 11);
      continue;
    }
    if (text.empty() || text[0] == '#') continue;
    ReferenceCase c;
    c.line = line;
    std::size_t first = text.find('\t');
    std::size_t second = first == std::string::npos ? first : text.find('\t', first + 1);
    if (second == std::string::npos || text.find('\t', second + 1) != std::string::npos) {
      ADD_FAILURE() << path << ":" << line << ": expected three TAB-separated fields";
      continue;
    }
    c.aiData = text.substr(0, first);
    c.stem = text.substr(first + 1, second - first - 1);
    c.uri = text.substr(second + 1);
    c.ais = parseAiData(c.aiData);
    if (c.ais.empty()) {
      ADD_FAILURE() << path << ":" << line << ": not bracketed AI data: " << c.aiData;
      continue;
    }
    fixture.cases.push_back(std::move(c));
  }
  return fixture;
}

CodeDefinition definitionOf(const ReferenceCase& c) {
  CodeDefinition definition;
  definition.primaryKey = {c.ais[0].first, c.ais[0].second};
  for (std::size_t i = 1; i < c.ais.size(); ++i) definition.ais.push_back({c.ais[i].first, c.ais[i].second});
  definition.digitalLinkStem = c.stem;
  return definition;
}

// The keys of a URI's query string, in order.
std::vector<std::string> queryKeys(const std::string& uri) {
  std::vector<std::string> keys;
  std::size_t at = uri.find('?');
  while (at != std::string::npos) {
    std::size_t end = uri.find('&', at + 1);
    std::string parameter = uri.substr(at + 1, end == std::string::npos ? end : end - at - 1);
    keys.push_back(parameter.substr(0, parameter.find('=')));
    at = end;
  }
  return keys;
}

// Whether the reference put the query's AIs in another order than given.
bool reordered(const ReferenceCase& c) {
  const std::vector<std::string> keys = queryKeys(c.uri);
  std::vector<std::string> given;
  for (const auto& [ai, value] : c.ais) {
    if (std::find(keys.begin(), keys.end(), ai) != keys.end()) given.push_back(ai);
  }
  return given != keys;
}

TEST(ReferenceOrder, ParsesTheSyntaxEnginesAiData) {
  EXPECT_EQ(parseAiData("(01)09506000134352(10)A\\(B)(3103)000195"),
            (Ais{{"01", "09506000134352"}, {"10", "A(B)"}, {"3103", "000195"}}));
  EXPECT_TRUE(parseAiData("01)09506000134352").empty());
  EXPECT_TRUE(parseAiData("(0x)1").empty());
}

TEST(ReferenceOrder, QueryKeysInOrder) {
  EXPECT_EQ(queryKeys("https://e.com/01/09506000134352?17=261231&3922=02%3D9&7003=2612311200"),
            (std::vector<std::string>{"17", "3922", "7003"}));
  EXPECT_TRUE(queryKeys("https://e.com/01/09506000134352").empty());
}

TEST(ReferenceOrder, SameUrisAsGs1SyntaxEngine) {
  const Fixture fixture = readFixture();
  ASSERT_FALSE(fixture.release.empty()) << "the fixture names no release";
  ASSERT_GE(fixture.cases.size(), kMinimumCases);
  auto rules = releaseSnapshot(fixture.release);

  ItemOutcome outcome;
  std::size_t differing = 0, reorderedCases = 0;
  for (const ReferenceCase& c : fixture.cases) {
    if (reordered(c)) ++reorderedCases;
    processItem(*rules, definitionOf(c), 0, outcome);
    const std::string got = outcome.accepted()
                                ? outcome.barcodeText
                                : "refused: " + outcome.errors.front().code + " " + outcome.errors.front().message;
    if (got == c.uri) continue;
    // The first few in full; a broken order would otherwise print hundreds.
    if (++differing <= 10) {
      ADD_FAILURE() << "line " << c.line << ": " << c.aiData << " with stem " << c.stem
                    << "\n  Syntax Engine: " << c.uri << "\n  service:       " << got;
    }
  }
  EXPECT_EQ(differing, 0u) << "of " << fixture.cases.size() << " cases";
  EXPECT_GE(reorderedCases, kMinimumReordered)
      << "too few cases whose reference order differs from the input order to show anything";
}

}  // namespace
}  // namespace codepayload::testing
