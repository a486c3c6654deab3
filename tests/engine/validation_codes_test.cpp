// The per-item error codes are a published contract: this test pins every
// form (a code is never renamed or removed; a new one is added at the end,
// here and in engine/validation_codes.cpp), what each builder writes, and
// that every code the request -> response table (tests/cases, its parse/
// folder too) expects is one of the forms.
#include "engine/validation_codes.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace codepayload::codes {
namespace {

TEST(ValidationCodes, TheFormsArePinned) {
  const std::vector<std::string> published = {
      "Validation.Invalid.primaryKey",
      "Validation.Invalid.ais.<n>",
      "Validation.Invalid.ais",
      "Validation.Invalid.ais.<n>.digitalLink",
      "Validation.Invalid.ais.qualifiers",
      "Validation.Invalid.relations.<ai>.requires",
      "Validation.Invalid.relations.<ai>.excludes.<ai>",
      "Validation.Invalid.extensionParameters",
      "Validation.Invalid.extensionParameters.<n>",
      "Validation.Invalid.digitalLinkStem",
      "Validation.Invalid.context",
      "Validation.Invalid.linkType",
      "Validation.Invalid.rule.<module>",
      "Validation.Invalid.data",
      "Validation.Invalid.data.compressedDigitalLink",
      "Validation.Invalid.ais.<n>.placement",
      "Validation.Invalid.ais.qualifiers.order",
  };
  std::vector<std::string> forms;
  for (const CodeForm& form : codeForms()) {
    forms.emplace_back(form.pattern);
    EXPECT_FALSE(form.meaning.empty()) << form.pattern;
  }
  EXPECT_EQ(forms, published);
}

TEST(ValidationCodes, EachBuilderWritesItsForm) {
  EXPECT_EQ(primaryKey(), "Validation.Invalid.primaryKey");
  EXPECT_EQ(ai(0), "Validation.Invalid.ais.0");
  EXPECT_EQ(ai(12), "Validation.Invalid.ais.12");
  EXPECT_EQ(aiKeys(), "Validation.Invalid.ais");
  EXPECT_EQ(aiDigitalLink(3), "Validation.Invalid.ais.3.digitalLink");
  EXPECT_EQ(qualifiers(), "Validation.Invalid.ais.qualifiers");
  EXPECT_EQ(relationRequires("3922"), "Validation.Invalid.relations.3922.requires");
  EXPECT_EQ(relationExcludes("21", "235"), "Validation.Invalid.relations.21.excludes.235");
  EXPECT_EQ(extensionParameters(), "Validation.Invalid.extensionParameters");
  EXPECT_EQ(extensionParameter(2), "Validation.Invalid.extensionParameters.2");
  EXPECT_EQ(digitalLinkStem(), "Validation.Invalid.digitalLinkStem");
  EXPECT_EQ(context(), "Validation.Invalid.context");
  EXPECT_EQ(linkType(), "Validation.Invalid.linkType");
  EXPECT_EQ(ruleModule("gcp_allowlist"), "Validation.Invalid.rule.gcp_allowlist");
}

// The form as a regular expression: <n> a position, <ai> an AI key (2 to 4
// digits), <module> a rule module's name.
std::regex formExpression(std::string_view pattern) {
  std::string expression;
  for (std::size_t index = 0; index < pattern.size();) {
    if (pattern.substr(index).starts_with("<n>")) {
      expression += "(0|[1-9][0-9]*)";
      index += 3;
    } else if (pattern.substr(index).starts_with("<ai>")) {
      expression += "[0-9]{2,4}";
      index += 4;
    } else if (pattern.substr(index).starts_with("<module>")) {
      expression += "[A-Za-z0-9_.-]+";
      index += 8;
    } else {
      if (pattern[index] == '.') expression += '\\';
      expression += pattern[index++];
    }
  }
  return std::regex(expression);
}

TEST(ValidationCodes, EveryCodeTheCasesExpectIsAPublishedForm) {
  std::vector<std::regex> expressions;
  for (const CodeForm& form : codeForms()) expressions.push_back(formExpression(form.pattern));
  const std::regex quotedCode("\"(Validation\\.Invalid\\.[^\"]*)\"");
  std::set<std::string> seen;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(CODEPAYLOAD_TEST_CASES_DIR)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const std::string content = text.str();
    for (std::sregex_iterator match(content.begin(), content.end(), quotedCode), end; match != end; ++match) {
      seen.insert((*match)[1].str());
    }
  }
  ASSERT_GT(seen.size(), 30u);  // the table exercises most forms
  for (const std::string& code : seen) {
    bool published = false;
    for (const std::regex& expression : expressions) published = published || std::regex_match(code, expression);
    EXPECT_TRUE(published) << code << " is not a published form";
  }
}

}  // namespace
}  // namespace codepayload::codes
