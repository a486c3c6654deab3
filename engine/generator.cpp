#include "engine/generator.h"

#include <cstdint>

#include "engine/item.h"
#include "engine/snapshot.h"
#include "engine/uri_text.h"

namespace codepayload {

namespace {

// Generation only runs for accepted items, whose AIs are all known.
void appendBracketed(std::string& out, const ItemAi& ai, bool escapeParentheses) {
  std::string_view value = ai.value();
  out += ai.ai->bracketed;
  if (!escapeParentheses) {
    out += value;
    return;
  }
  const char* run = value.data();
  const char* end = value.data() + value.size();
  for (const char* at = run; at != end; ++at) {
    if (*at != '(' && *at != ')') continue;
    out.append(run, static_cast<std::size_t>(at - run));
    out.append(*at == '(' ? "^040" : "^041", 4);
    run = at + 1;
  }
  out.append(run, static_cast<std::size_t>(end - run));
}

// The path qualifiers in the order of their qualifier sequence.
template <typename Visit>
void forEachQualifierInOrder(const ItemContext& item, Visit visit) {
  const auto& ais = item.ais();
  std::uint16_t next = 0;
  // Sequences are short (at most a handful of AIs): walk the ranks in order;
  // ranks are distinct, so `next` strictly increases.
  for (;;) {
    std::uint16_t best = UINT16_MAX;
    const ItemAi* chosen = nullptr;
    for (const ItemAi& ai : ais) {
      if (ai.placement == Placement::PathQualifier && ai.qualifierRank >= next && ai.qualifierRank < best) {
        best = ai.qualifierRank;
        chosen = &ai;
      }
    }
    if (chosen == nullptr) return;
    visit(*chosen);
    next = static_cast<std::uint16_t>(best + 1);
  }
}

// The query string's AIs in the order GS1's Syntax Engine writes them: those
// of a pre-defined length first, then the others, each group in the order
// sent (docs/decisions.md D-Q1), so that the same AIs give the same URI here
// and in GS1's tools.
template <typename Visit>
void forEachDataAttributeInOrder(const ItemContext& item, Visit visit) {
  for (const bool fixedLength : {true, false}) {
    for (const ItemAi& ai : item.ais()) {
      if (ai.placement == Placement::QueryAttribute && ai.ai->definition->fixedLength == fixedLength) visit(ai);
    }
  }
}

}  // namespace

void writeElementString(const ItemContext& item, std::string& out) {
  appendBracketed(out, item.primaryKey(), true);
  for (const ItemAi& ai : item.ais()) appendBracketed(out, ai, true);
}

void writeDigitalLink(const ItemContext& item, std::string_view normalisedStem, std::string& out) {
  out += normalisedStem;
  out += item.primaryKey().ai->pathKey;
  uri::appendEncodedStrict(out, item.primaryKey().value());
  forEachQualifierInOrder(item, [&](const ItemAi& ai) {
    out += ai.ai->pathKey;
    uri::appendEncodedStrict(out, ai.value());
  });
  char separator = '?';
  auto startParameter = [&](std::string_view key) {
    out += separator;
    separator = '&';
    out += key;
    out += '=';
  };
  forEachDataAttributeInOrder(item, [&](const ItemAi& ai) {
    startParameter(ai.key);
    uri::appendEncodedStrict(out, ai.value());
  });
  for (const ExtensionParameter& parameter : item.definition().extensionParameters) {
    startParameter(parameter.key);
    out += parameter.value;
  }
  if (item.definition().linkType) {
    startParameter("linkType");
    uri::appendEncodedQuery(out, *item.definition().linkType);
  }
  if (item.definition().context) {
    startParameter("context");
    out += *item.definition().context;
  }
}

void writeHri(const ItemContext& item, bool digitalLink, std::string& out) {
  appendBracketed(out, item.primaryKey(), false);
  if (!digitalLink) {
    for (const ItemAi& ai : item.ais()) appendBracketed(out, ai, false);
    return;
  }
  forEachQualifierInOrder(item, [&](const ItemAi& ai) { appendBracketed(out, ai, false); });
  forEachDataAttributeInOrder(item, [&](const ItemAi& ai) { appendBracketed(out, ai, false); });
}

}  // namespace codepayload
