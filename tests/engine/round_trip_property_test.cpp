// Properties, over thousands of generated valid definitions:
//   - the Digital Link URI read back (engine/payload_reader.h) yields exactly
//     the AIs and values that went in (and the extension parameters, linkType,
//     context), and so does the element string;
//   - a payload parsed (engine/parse_item.h) gives a definition that /codes
//     turns into exactly the same barcodeText and hri, in both output forms,
//     and the parse writes that same text again itself.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/item_processor.h"
#include "engine/parse_item.h"
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

// The definition without its stem and what only a Digital Link carries.
CodeDefinition withoutStem(CodeDefinition definition) {
  definition.digitalLinkStem.reset();
  definition.extensionParameters.clear();
  definition.linkType.reset();
  definition.context.reset();
  return definition;
}

TEST(RoundTripProperty, AParsedPayloadGeneratesTheSameTextAgain) {
  auto rules = newestSnapshot();
  Generator g(20261127);
  ItemOutcome generated;
  ItemOutcome regenerated;
  ParseOutcome parsed;
  int digitalLinks = 0;
  int elementStrings = 0;
  for (int n = 0; n < 4000; ++n) {
    const Case c = makeCase(g);
    // Every definition as an element string; one with a stem also as a URI.
    std::vector<CodeDefinition> forms{withoutStem(definitionOf(c))};
    if (c.stem) forms.push_back(definitionOf(c));
    for (const CodeDefinition& definition : forms) {
      processItem(*rules, definition, 0, generated);
      ASSERT_TRUE(generated.accepted()) << "case " << n << ": " << generated.errors.front().code;
      parseItem(*rules, generated.barcodeText, 0, parsed);
      ASSERT_TRUE(parsed.accepted()) << generated.barcodeText << ": " << parsed.errors.front().code << " "
                                     << parsed.errors.front().message;
      processItem(*rules, parsed.definition, 0, regenerated);
      ASSERT_TRUE(regenerated.accepted()) << generated.barcodeText;
      EXPECT_EQ(regenerated.barcodeText, generated.barcodeText);
      EXPECT_EQ(regenerated.hri, generated.hri) << generated.barcodeText;
      EXPECT_EQ(parsed.hri, generated.hri) << generated.barcodeText;
      if (definition.digitalLinkStem) {
        ++digitalLinks;
        EXPECT_EQ(parsed.digitalLink, generated.barcodeText);
      } else {
        ++elementStrings;
        EXPECT_EQ(parsed.elementString, generated.barcodeText);
        EXPECT_EQ(parsed.digitalLink, "");
      }
    }
  }
  EXPECT_GT(digitalLinks, 1500);
  EXPECT_EQ(elementStrings, 4000);
}

}  // namespace
}  // namespace codepayload::testing
