#include "tests/plugins/linters/lint_test_rows.h"

namespace codepayload::lint::test {
namespace {

constexpr RegisteredLinter lintImporteridx{"importeridx"};

TEST(LintImporteridx, AcceptsOneIndexCharacter) {
  expectRows(lintImporteridx, {
                                  pass("-"),
                                  pass("0"),
                                  pass("9"),
                                  pass("A"),
                                  pass("Z"),
                                  pass("_"),
                                  pass("a"),
                                  pass("z"),
                              });
}

TEST(LintImporteridx, ReportsOtherCharacters) {
  expectRows(lintImporteridx, {
                                  bad(" ", "invalidImporterIdxCharacter", 0, 1),
                                  bad("!", "invalidImporterIdxCharacter", 0, 1),
                                  bad(",", "invalidImporterIdxCharacter", 0, 1),
                                  bad(".", "invalidImporterIdxCharacter", 0, 1),
                                  bad("/", "invalidImporterIdxCharacter", 0, 1),
                                  bad(":", "invalidImporterIdxCharacter", 0, 1),
                                  bad("@", "invalidImporterIdxCharacter", 0, 1),
                                  bad("[", "invalidImporterIdxCharacter", 0, 1),
                                  bad("^", "invalidImporterIdxCharacter", 0, 1),
                                  bad("`", "invalidImporterIdxCharacter", 0, 1),
                                  bad("{", "invalidImporterIdxCharacter", 0, 1),
                                  bad("\x7f", "invalidImporterIdxCharacter", 0, 1),
                                  bad("\x80", "invalidImporterIdxCharacter", 0, 1),
                              });
}

TEST(LintImporteridx, ReportsAnyOtherLengthAsAWhole) {
  expectRows(lintImporteridx, {
                                  bad("", "importerIdxMustBeOneCharacter", 0, 0),
                                  bad("AA", "importerIdxMustBeOneCharacter", 0, 2),
                                  bad("!!!", "importerIdxMustBeOneCharacter", 0, 3),
                              });
}

// The reason tokens lintImporteridx publishes (API error args), exactly: clients match on
// them, so dropping or renaming one must fail here.
TEST(LintImporteridx, PublishesExactlyItsReasons) {
  EXPECT_EQ(lintImporteridx.publishedReasons(),
            (Tokens{"importerIdxMustBeOneCharacter", "invalidImporterIdxCharacter"}));
}

}  // namespace
}  // namespace codepayload::lint::test
