#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintCsetnumeric{"csetnumeric"};

using namespace std::literals;

TEST(LintCsetnumeric, AcceptsDigitsOnly) {
  expectRows(lintCsetnumeric, {
                                  pass(""),
                                  pass("0"),
                                  pass("0123456789"),
                                  bad("/", "invalidCharacter", 0, 1),
                                  bad(":", "invalidCharacter", 0, 1),
                                  bad("a0", "invalidCharacter", 0, 1),
                                  bad("0a", "invalidCharacter", 1, 1),
                                  bad("12 34x", "invalidCharacter", 2, 1),
                                  bad("1\0"sv, "invalidCharacter", 1, 1),
                              });
}

// The reason tokens lintCsetnumeric publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintCsetnumeric, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintCsetnumeric.publishedReasons(), (Tokens{"invalidCharacter"}));
}

}  // namespace
}  // namespace codepayload::lint::test
