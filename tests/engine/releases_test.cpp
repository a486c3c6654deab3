// A dictionary release changes what is accepted, with no rebuild: the same
// binary, a different rule snapshot swapped in.
#include <gtest/gtest.h>

#include "tests/engine/rules_fixture.h"

namespace codepayload::testing {
namespace {

TEST(Releases, Ai717IsUnknownUnder20250130AndAcceptedAfter20260127IsSwappedIn) {
  const std::string body =
      R"J({"codes":[{"primaryKey":{"key":"01","value":"09506000134352"},"ais":[{"key":"717","value":"SRN-1"}],"extensionParameters":[]}]})J";
  SnapshotHolder holder(releaseSnapshot("2025-01-30"));
  PayloadEngine engine(holder);
  std::string out;
  RequestError error{};
  ASSERT_TRUE(engine.generateJson(body, out, error));
  EXPECT_EQ(
      out,
      R"J({"codes":[],"failures":[{"reference":"0","errors":[)J"
      R"J({"code":"Validation.Invalid.ais.0","path":"ais.0","args":["717","unknownAi"],"message":"AI '717' is not in the GS1 Barcode Syntax Dictionary."}]}]})J");
  holder.replace(releaseSnapshot("2026-01-27"));
  ASSERT_TRUE(engine.generateJson(body, out, error));
  EXPECT_EQ(out, R"J({"codes":[{"reference":"0","barcodeText":"(01)09506000134352(717)SRN-1",)J"
                 R"J("hri":"(01)09506000134352(717)SRN-1"}],"failures":[]})J");
}

TEST(Releases, EveryReleaseFrom20240610BuildsASnapshot) {
  for (const char* release : {"2024-06-10", "2025-01-30", "2026-01-27"}) {
    EXPECT_NO_THROW(releaseSnapshot(release)) << release;
  }
}

TEST(Releases, NoDataAttributesBeforeTheQuestionMarkFlag) {
  // 2023-12-11 has no '?' flags: 17 cannot go into a Digital Link query.
  EXPECT_EQ(
      runDefinition(releaseSnapshot("2023-12-11"),
                    R"J({"digitalLinkStem":"https://example.com","primaryKey":{"key":"01","value":"09506000134352"},)J"
                    R"J("ais":[{"key":"17","value":"261231"}],"extensionParameters":[]})J"),
      R"J({"codes":[],"failures":[{"reference":"0","errors":[)J"
      R"J({"code":"Validation.Invalid.ais.0.digitalLink","path":"ais.0","args":["17"],"message":"AI 17 has no place in a Digital Link URI: it is neither a key qualifier of the primary key nor a data attribute; leave it out, or leave out the digitalLinkStem to get an element string."}]}]})J");
}

}  // namespace
}  // namespace codepayload::testing
