// Property: for thousands of generated valid definitions, the Digital Link URI
// read back (engine/payload_reader.h) yields exactly the AIs and values that
// went in (and the extension parameters, linkType, context), and so does the
// element string.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "engine/item_processor.h"
#include "engine/payload_reader.h"
#include "tests/engine/rules_fixture.h"

namespace codepayload::testing {
namespace {

constexpr std::string_view kCset82 =
    "!\"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";

class Generator {
 public:
  explicit Generator(std::uint32_t seed) : random_(seed) {}

  int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random_); }
  bool coin() { return below(2) == 1; }

  std::string digits(int count) {
    std::string text;
    for (int i = 0; i < count; ++i) text += static_cast<char>('0' + below(10));
    return text;
  }

  static std::string withCheckDigit(std::string body) {
    int sum = 0;
    bool three = true;
    for (std::size_t i = body.size(); i-- > 0;) {
      sum += (body[i] - '0') * (three ? 3 : 1);
      three = !three;
    }
    body += static_cast<char>('0' + (10 - sum % 10) % 10);
    return body;
  }

  std::string cset82(int minLength, int maxLength) {
    int length = minLength + below(maxLength - minLength + 1);
    std::string text;
    for (int i = 0; i < length; ++i) text += kCset82[static_cast<std::size_t>(below(static_cast<int>(kCset82.size())))];
    return text;
  }

  std::string date() {
    auto two = [](int n) { return std::string{static_cast<char>('0' + n / 10), static_cast<char>('0' + n % 10)}; };
    return two(below(100)) + two(1 + below(12)) + two(below(29));
  }

 private:
  std::mt19937 random_;
};

struct Case {
  std::vector<std::pair<std::string, std::string>> ais;  // [0] is the primary key
  std::vector<std::pair<std::string, std::string>> extensions;
  std::optional<std::string> stem, linkType, context;
};

Case makeCase(Generator& g) {
  Case c;
  bool digitalLink = g.coin();
  int kind = g.below(3);
  if (kind == 0) {
    c.ais.emplace_back("01", Generator::withCheckDigit(g.digits(13)));
    std::vector<std::string> qualifiers;
    if (g.below(4) == 0) {
      qualifiers = {"235"};
    } else {
      for (const char* q : {"22", "10", "21"}) {
        if (g.coin()) qualifiers.emplace_back(q);
      }
    }
    std::shuffle(qualifiers.begin(), qualifiers.end(), std::mt19937(static_cast<std::uint32_t>(g.below(1000))));
    for (const std::string& q : qualifiers) c.ais.emplace_back(q, g.cset82(1, q == "235" ? 28 : 20));
    if (g.coin()) c.ais.emplace_back("17", g.date());
    if (g.coin()) c.ais.emplace_back("3103", g.digits(6));
    if (g.coin()) c.ais.emplace_back("240", g.cset82(1, 30));
  } else if (kind == 1) {
    c.ais.emplace_back("00", Generator::withCheckDigit(g.digits(17)));
    if (g.coin()) c.ais.emplace_back("4330", g.digits(6) + (g.coin() ? "-" : ""));
    if (g.coin()) c.ais.emplace_back("403", g.cset82(1, 30));
  } else {
    c.ais.emplace_back("414", Generator::withCheckDigit(g.digits(12)));
    if (g.coin()) c.ais.emplace_back("254", g.cset82(1, 20));
  }
  if (g.coin()) c.ais.emplace_back("91", g.cset82(1, 90));
  if (digitalLink) {
    c.stem = g.coin() ? "https://id.example.com" : "http://example.org/a/b";
    if (g.coin()) c.linkType = g.coin() ? "gs1:pip" : "https://example.com/type/x?y=1&z";
    if (g.coin()) c.context = "ctx-" + g.digits(3);
    if (g.coin()) c.extensions.emplace_back("k" + g.digits(2), "v:/" + g.digits(3));
  }
  return c;
}

CodeDefinition definitionOf(const Case& c) {
  CodeDefinition definition;
  definition.primaryKey = {c.ais[0].first, c.ais[0].second};
  for (std::size_t i = 1; i < c.ais.size(); ++i) definition.ais.push_back({c.ais[i].first, c.ais[i].second});
  for (const auto& [key, value] : c.extensions) definition.extensionParameters.push_back({key, value});
  if (c.stem) definition.digitalLinkStem = *c.stem;
  if (c.linkType) definition.linkType = *c.linkType;
  if (c.context) definition.context = *c.context;
  return definition;
}

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
