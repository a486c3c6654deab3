// The registry: sorted, no duplicates, exactly the published names, aliases
// pointing at the same checks, and nothing registered for other names.
#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "engine/linter.h"
#include "plugins/linters/linters.h"

namespace codepayload::lint::test {
namespace {

std::vector<std::string_view> registeredNames() {
  std::vector<std::string_view> names;
  LinterTable table = builtinLinters();
  for (const LinterEntry* entry = table.begin; entry != table.end; ++entry) names.push_back(entry->name);
  return names;
}

TEST(LinterTable, IsSortedWithoutDuplicates) {
  std::vector<std::string_view> names = registeredNames();
  for (std::size_t i = 1; i < names.size(); ++i) {
    EXPECT_LT(names[i - 1], names[i]) << "at row " << i;
  }
}

TEST(LinterTable, RegistersExactlyThePublishedNames) {
  const std::vector<std::string_view> expected = {
      "couponcode", "couponposoffer", "cset39",      "cset64",    "cset82",       "csetnumeric",
      "csum",       "csumalpha",      "gcppos1",     "gcppos2",   "hasnondigit",  "hh",
      "hhmi",       "hhmm",           "hyphen",      "iban",      "importeridx",  "iso3166",
      "iso3166999", "iso3166alpha2",  "iso3166list", "iso4217",   "iso5218",      "key",
      "keyoff1",    "latitude",       "longitude",   "mediatype", "mi",           "mmoptss",
      "nonzero",    "nozeroprefix",   "packagetype", "pcenc",     "pieceoftotal", "posinseqslash",
      "ss",         "winding",        "yesno",       "yymmd0",    "yymmdd",       "yymmddhh",
      "yyyymmdd",   "zero",
  };
  EXPECT_EQ(registeredNames(), expected);
}

TEST(LinterTable, FindsEveryRegisteredNameByBinarySearch) {
  LinterTable table = builtinLinters();
  for (const LinterEntry* entry = table.begin; entry != table.end; ++entry) {
    EXPECT_EQ(builtinLinters().find(entry->name), entry->fn) << entry->name;
  }
}

TEST(LinterTable, RenamedFormsShareTheirSuccessorsCheck) {
  EXPECT_EQ(builtinLinters().find("hhmm"), &lintHhmi);
  EXPECT_EQ(builtinLinters().find("hhmi"), &lintHhmi);
  EXPECT_EQ(builtinLinters().find("key"), &lintGcppos1);
  EXPECT_EQ(builtinLinters().find("gcppos1"), &lintGcppos1);
  EXPECT_EQ(builtinLinters().find("keyoff1"), &lintGcppos2);
  EXPECT_EQ(builtinLinters().find("gcppos2"), &lintGcppos2);
}

TEST(LinterTable, HasNothingForOtherNames) {
  for (std::string_view name : {"latlong", "", "csu", "csumm", "CSUM", "yyyymmd0", "mm", "aaa", "zzzz"}) {
    EXPECT_EQ(builtinLinters().find(name), nullptr) << "\"" << name << "\"";
  }
}

}  // namespace
}  // namespace codepayload::lint::test
