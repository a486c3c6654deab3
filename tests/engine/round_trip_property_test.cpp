// Property: for thousands of generated valid definitions, the Digital Link URI
// read back (engine/payload_reader.h) yields exactly the AIs and values that
// went in (and the extension parameters, linkType, context), and so does the
// element string.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/item_processor.h"
#include "engine/payload_reader.h"
#include "tests/engine/random_definitions.h"
#include "tests/engine/rules_fixture.h"

namespace codepayload::testing {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

Fields keysAndValues(const std::vector<ReadField>& fields) {
  Fields pairs;
  for (const ReadField& field : fields) pairs.emplace_back(field.key, field.value);
  return pairs;
}

Fields sorted(Fields fields) {
  std::sort(fields.begin(), fields.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return fields;
}

std::optional<std::string> valueOf(const std::optional<ReadField>& field) {
  return field ? std::optional<std::string>(field->value) : std::nullopt;
}

TEST(RoundTripProperty, GeneratedPayloadsReadBackToTheirAis) {
  auto rules = newestSnapshot();
  Generator g(20261122);
  ItemOutcome outcome;
  int digitalLinks = 0;
  for (int n = 0; n < 5000; ++n) {
    Case c = makeCase(g);
    CodeDefinition definition = definitionOf(c);
    processItem(*rules, definition, 0, outcome);
    ASSERT_TRUE(outcome.accepted()) << "case " << n << ": " << outcome.errors.front().code << " "
                                    << (outcome.errors.front().args.empty() ? "" : outcome.errors.front().args[0]);
    ReadFault fault;
    const std::optional<ReadPayload> read = readPayload(*rules, outcome.barcodeText, fault);
    ASSERT_TRUE(read.has_value()) << outcome.barcodeText << ": fault at " << fault.offset << " " << fault.detail;
    const Fields ais = keysAndValues(read->ais);
    if (!c.stem) {
      EXPECT_EQ(read->form, PayloadForm::BracketedElementString);
      EXPECT_EQ(ais, c.ais) << outcome.barcodeText;
      continue;
    }
    ++digitalLinks;
    EXPECT_EQ(read->form, PayloadForm::DigitalLink);
    EXPECT_EQ(read->stem, *c.stem) << outcome.barcodeText;
    ASSERT_FALSE(ais.empty());
    EXPECT_EQ(ais.front(), c.ais.front()) << outcome.barcodeText;
    EXPECT_EQ(sorted(ais), sorted(c.ais)) << outcome.barcodeText;
    EXPECT_EQ(keysAndValues(read->extensionParameters), c.extensions) << outcome.barcodeText;
    EXPECT_EQ(valueOf(read->linkType), c.linkType) << outcome.barcodeText;
    EXPECT_EQ(valueOf(read->context), c.context) << outcome.barcodeText;
  }
  EXPECT_GT(digitalLinks, 2000);
}

}  // namespace
}  // namespace codepayload::testing
