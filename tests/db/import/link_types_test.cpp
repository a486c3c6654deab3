#include "db/import/link_types_parser.h"

#include <gtest/gtest.h>

#include "db/import/import_error.h"
#include "tests/tools/test_files.h"

namespace codepayload::importer {
namespace {

std::vector<LinkType> sharedLinkTypes() {
  return parseLinkTypes(codepayload::testing::readFile(codepayload::testing::linkTypesFile()), "link-types.json");
}

TEST(LinkTypesTest, EveryEntryOfTheSharedFileBecomesALinkType) {
  const std::vector<LinkType> types = sharedLinkTypes();
  ASSERT_EQ(types.size(), 60u);
  EXPECT_EQ(types.front().id, "gs1:activityIdeas");
  EXPECT_EQ(types.back().id, "gs1:whatsInTheBox");
  std::vector<std::string> notSelectable;
  for (const LinkType& type : types) {
    if (!type.selectable) notSelectable.push_back(type.id);
  }
  EXPECT_EQ(notSelectable, (std::vector<std::string>{"gs1:defaultLink", "gs1:defaultLinkMulti", "gs1:handledBy"}));
}

TEST(LinkTypesTest, FieldsAreKeptExactly) {
  const std::vector<LinkType> types = sharedLinkTypes();
  auto find = [&types](std::string_view id) {
    return *std::find_if(types.begin(), types.end(), [id](const LinkType& type) { return type.id == id; });
  };
  EXPECT_EQ(find("gs1:activityIdeas"),
            (LinkType{"gs1:activityIdeas",
                      "Activity Ideas",
                      "A link to ideas for using a product or engaging in other forms of entertainment, particularly "
                      "with children.",
                      "https://ref.gs1.org/voc/activityIdeas",
                      "stable",
                      false,
                      {},
                      true}));
  EXPECT_EQ(find("gs1:defaultLink").restricted, (std::vector<std::string>{"resolver"}));
  EXPECT_EQ(find("gs1:epil").restricted, (std::vector<std::string>{"validatedHealthcare"}));
  EXPECT_TRUE(find("gs1:epil").selectable);
  EXPECT_TRUE(find("gs1:productSustainabilityInfo").deprecated);
  EXPECT_EQ(find("gs1:productSustainabilityInfo").status, "deprecated");
}

TEST(LinkTypesTest, SelectableIsDecidedByTheResolverRestriction) {
  EXPECT_TRUE(isSelectable({}));
  EXPECT_TRUE(isSelectable({"validatedHealthcare"}));
  EXPECT_FALSE(isSelectable({"resolver"}));
  EXPECT_FALSE(isSelectable({"validatedHealthcare", "resolver"}));
}

std::string errorOf(const std::string& json) {
  try {
    parseLinkTypes(json, "types.json");
  } catch (const ImportError& error) {
    return error.what();
  }
  return "no error";
}

// One valid entry with `change` spliced in before the closing brace, or the
// key `drop` left out.
std::string entry(const std::string& change, const std::string& drop = "") {
  const std::vector<std::pair<std::string, std::string>> fields = {
      {"id", "\"gs1:pip\""},    {"title", "\"t\""},      {"description", "\"d\""}, {"uri", "\"https://x/pip\""},
      {"status", "\"stable\""}, {"deprecated", "false"}, {"restricted", "[]"},     {"domain", "[\"owl:Thing\"]"}};
  std::string json = "{";
  for (const auto& [key, value] : fields) {
    if (key == drop) continue;
    if (json.size() > 1) json += ",";
    json += "\"" + key + "\":" + value;
  }
  if (!change.empty()) json += "," + change;
  return json + "}";
}

TEST(LinkTypesTest, RefusesWithTheExactCause) {
  const std::pair<std::string, std::string> rows[] = {
      {"[", "types.json: not valid JSON: JSON Exception: unexpected end of text"},
      {"[{\"id\":\"a\",}]", "types.json: not valid JSON: JSON Exception: unexpected byte '}' in value"},
      {"{}", "types.json: not a JSON array of link types"},
      {"[]", "types.json: no link types"},
      {"[1]", "types.json: entry 1: not a JSON object"},
      {"[" + entry("") + "," + entry("") + "]", "types.json: entry 2 (gs1:pip): id repeated (first in entry 1)"},
      {"[" + entry("\"colour\":\"red\"") + "]", "types.json: entry 1: unknown key \"colour\""},
      {"[" + entry("", "id") + "]", "types.json: entry 1: \"id\" is missing"},
      {"[" + entry("", "uri") + "]", "types.json: entry 1 (gs1:pip): \"uri\" is missing"},
      {"[" + entry("", "restricted") + "]", "types.json: entry 1 (gs1:pip): \"restricted\" is missing"},
      {"[" + entry("", "domain") + "]", "types.json: entry 1 (gs1:pip): \"domain\" is missing"},
      {"[" + entry("", "deprecated") + "]", "types.json: entry 1 (gs1:pip): \"deprecated\" is missing"},
      {R"([{"id":7}])", "types.json: entry 1: \"id\" must be a string"},
      {R"([{"id":"gs1:a b"}])", "types.json: entry 1: \"id\" must be non-empty without spaces or control characters"},
      {R"([{"id":""}])", "types.json: entry 1: \"id\" must be non-empty without spaces or control characters"},
      {"[" + entry("", "title").insert(1, "\"title\":null,") + "]",
       "types.json: entry 1 (gs1:pip): \"title\" must be a string"},
      {"[" + entry("", "deprecated").insert(1, "\"deprecated\":\"no\",") + "]",
       "types.json: entry 1 (gs1:pip): \"deprecated\" must be true or false"},
      {"[" + entry("", "restricted").insert(1, "\"restricted\":\"resolver\",") + "]",
       "types.json: entry 1 (gs1:pip): \"restricted\" must be an array of strings"},
      {"[" + entry("", "restricted").insert(1, "\"restricted\":[1],") + "]",
       "types.json: entry 1 (gs1:pip): \"restricted\" must be an array of strings"},
      {"[" + entry("", "restricted").insert(1, "\"restricted\":[\"a,b\"],") + "]",
       "types.json: entry 1 (gs1:pip): \"restricted\" value \"a,b\" must be one word without commas"},
      {"[" + entry("", "restricted").insert(1, "\"restricted\":[\"a\",\"a\"],") + "]",
       "types.json: entry 1 (gs1:pip): \"restricted\" lists \"a\" twice"},
      {"[" + entry("", "status").insert(1, "\"status\":\"very stable\",") + "]",
       "types.json: entry 1 (gs1:pip): \"status\" must be one word"},
      {"[" + entry("", "uri").insert(1, "\"uri\":\"\",") + "]",
       "types.json: entry 1 (gs1:pip): \"uri\" must be non-empty without spaces or control characters"},
  };
  for (const auto& [json, expected] : rows) {
    SCOPED_TRACE(json);
    EXPECT_EQ(errorOf(json), expected);
  }
}

}  // namespace
}  // namespace codepayload::importer
