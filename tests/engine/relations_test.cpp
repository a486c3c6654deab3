// The dictionary's requires and excludes relations.
#include <gtest/gtest.h>

#include "tests/engine/rules_fixture.h"

namespace codepayload::testing {
namespace {

std::string run(const std::string& key, const std::string& value, const std::string& ais) {
  return runDefinition(newestSnapshot(), R"J({"primaryKey":{"key":")J" + key + R"J(","value":")J" + value +
                                             R"J("},"ais":[)J" + ais + R"J(],"extensionParameters":[]})J");
}

std::string rejected(const std::string& errors) {
  return R"J({"codes":[],"failures":[{"reference":"0","errors":[)J" + errors + "]}]}";
}

TEST(Requires, AnyOfTheAlternatives) {
  EXPECT_EQ(
      run("00", "376104250021234569", R"J({"key":"10","value":"L1"})J"),
      rejected(
          R"J({"code":"Validation.Invalid.relations.10.requires","path":"ais.0","args":["01","02","03","8006","8026"],"message":"AI 10 needs one of 01, 02, 03, 8006 or 8026 in the same code."})J"));
}

TEST(Requires, GroupsNeedEveryMember) {
  // 8040: req=01+21
  EXPECT_EQ(
      run("01", "09506000134352", R"J({"key":"8040","value":"123456789012345"})J"),
      rejected(
          R"J({"code":"Validation.Invalid.relations.8040.requires","path":"ais.0","args":["01+21"],"message":"AI 8040 needs AIs 01 and 21 in the same code."})J"));
  EXPECT_EQ(run("01", "09506000134352", R"J({"key":"8040","value":"123456789012345"},{"key":"21","value":"S1"})J"),
            R"J({"codes":[{"reference":"0","barcodeText":"(01)09506000134352(8040)123456789012345(21)S1",)J"
            R"J("hri":"(01)09506000134352(8040)123456789012345(21)S1"}],"failures":[]})J");
}

TEST(Requires, EveryReqAttributeOnItsOwnWithPatterns) {
  // 3920: req=01 req=30,31nn,32nn,35nn,36nn
  EXPECT_EQ(
      run("01", "09506000134352", R"J({"key":"3920","value":"199"})J"),
      rejected(
          R"J({"code":"Validation.Invalid.relations.3920.requires","path":"ais.0","args":["30","31nn","32nn","35nn","36nn"],"message":"AI 3920 needs one of 30, 31nn, 32nn, 35nn or 36nn in the same code."})J"));
  EXPECT_EQ(run("01", "09506000134352", R"J({"key":"3920","value":"199"},{"key":"3103","value":"000500"})J"),
            R"J({"codes":[{"reference":"0","barcodeText":"(01)09506000134352(3920)199(3103)000500",)J"
            R"J("hri":"(01)09506000134352(3920)199(3103)000500"}],"failures":[]})J");
}

TEST(Excludes, EachPairOnceNamedAfterTheAiThatListsTheOther) {
  EXPECT_EQ(
      run("01", "09506000134352", R"J({"key":"02","value":"09506000134352"},{"key":"37","value":"10"})J"),
      rejected(
          R"J({"code":"Validation.Invalid.relations.37.requires","path":"ais.1","args":["00"],"message":"AI 37 needs AI 00 in the same code."},)J"
          R"J({"code":"Validation.Invalid.relations.02.excludes.01","path":"ais.0","args":["02","01"],"message":"AIs 02 and 01 must not be used together in one code."},)J"
          R"J({"code":"Validation.Invalid.relations.01.excludes.37","path":"primaryKey","args":["01","37"],"message":"AIs 01 and 37 must not be used together in one code."})J"));
}

TEST(Excludes, PatternsButNeverItself) {
  EXPECT_EQ(
      run("01", "09506000134352", R"J({"key":"3100","value":"000100"},{"key":"3101","value":"000200"})J"),
      rejected(
          R"J({"code":"Validation.Invalid.relations.3100.excludes.3101","path":"ais.0","args":["3100","3101"],"message":"AIs 3100 and 3101 must not be used together in one code."})J"));
  EXPECT_EQ(run("01", "09506000134352", R"J({"key":"3103","value":"000100"})J"),
            R"J({"codes":[{"reference":"0","barcodeText":"(01)09506000134352(3103)000100",)J"
            R"J("hri":"(01)09506000134352(3103)000100"}],"failures":[]})J");
}

}  // namespace
}  // namespace codepayload::testing
