#include "tests/engine/random_definitions.h"

#include <algorithm>

namespace codepayload::testing {

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

}  // namespace codepayload::testing
