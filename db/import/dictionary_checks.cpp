#include "db/import/dictionary_checks.h"

#include <algorithm>
#include <set>

#include "db/import/import_error.h"
#include "engine/linter_catalog.h"

namespace codepayload::importer {

namespace {

[[noreturn]] void refuseAt(const ParsedDictionary& parsed, std::size_t index, std::string_view cause) {
  throw ImportError(locate(parsed.fileName, parsed.aiLines[index], cause));
}

bool matchesAnyAi(const AiPattern& pattern, const std::vector<AiDefinition>& ais) {
  return std::any_of(ais.begin(), ais.end(), [&pattern](const AiDefinition& ai) { return pattern.matches(ai.ai); });
}

bool isDefined(std::string_view ai, const std::vector<AiDefinition>& ais) {
  auto it = std::lower_bound(ais.begin(), ais.end(), ai,
                             [](const AiDefinition& entry, std::string_view key) { return entry.ai < key; });
  return it != ais.end() && it->ai == ai;
}

}  // namespace

void appendInOrder(ParsedDictionary& parsed, AiDefinition ai, std::size_t line) {
  std::vector<AiDefinition>& ais = parsed.dictionary.ais;
  if (!ais.empty() && !(ais.back().ai < ai.ai)) {
    auto same = std::lower_bound(ais.begin(), ais.end(), ai.ai,
                                 [](const AiDefinition& entry, const std::string& key) { return entry.ai < key; });
    if (same != ais.end() && same->ai == ai.ai) {
      const std::size_t first = parsed.aiLines[static_cast<std::size_t>(same - ais.begin())];
      throw ImportError(locate(parsed.fileName, line,
                               "AI " + ai.ai + " is defined twice (first on line " + std::to_string(first) + ")"));
    }
    throw ImportError(locate(parsed.fileName, line,
                             "AI " + ai.ai + " is out of order: it must come before AI " + ais.back().ai + " (line " +
                                 std::to_string(parsed.aiLines.back()) + ")"));
  }
  ais.push_back(std::move(ai));
  parsed.aiLines.push_back(line);
}

void checkReferences(const ParsedDictionary& parsed) {
  const std::vector<AiDefinition>& ais = parsed.dictionary.ais;
  if (ais.empty()) throw ImportError(parsed.fileName + ": no AI entries");
  for (std::size_t i = 0; i < ais.size(); ++i) {
    const AiDefinition& ai = ais[i];
    // In sorted order an AI that starts with another sorts right after it
    // (or after AIs that also start with it), so neighbours suffice.
    if (i > 0 && ai.ai.starts_with(ais[i - 1].ai)) {
      refuseAt(parsed, i,
               "AI " + ai.ai + " starts with AI " + ais[i - 1].ai + " (line " + std::to_string(parsed.aiLines[i - 1]) +
                   "); AIs must not be prefixes of one another");
    }
    for (const RequiresRule& rule : ai.requirements) {
      for (const std::vector<AiPattern>& alternative : rule.alternatives) {
        for (const AiPattern& pattern : alternative) {
          if (!matchesAnyAi(pattern, ais)) refuseAt(parsed, i, "req=: \"" + pattern.text + "\" matches no AI");
        }
      }
    }
    for (const AiPattern& pattern : ai.excludes) {
      if (!matchesAnyAi(pattern, ais)) refuseAt(parsed, i, "ex=: \"" + pattern.text + "\" matches no AI");
    }
    for (const std::vector<std::string>& sequence : ai.qualifierSequences) {
      for (const std::string& qualifier : sequence) {
        if (qualifier == ai.ai) refuseAt(parsed, i, "dlpkey=: qualifier \"" + qualifier + "\" is the key itself");
        if (!isDefined(qualifier, ais)) refuseAt(parsed, i, "dlpkey=: qualifier \"" + qualifier + "\" is not an AI");
      }
    }
  }
}

void checkLinterImplementations(const ParsedDictionary& parsed, const LinterCatalog& linters) {
  std::set<std::string, std::less<>> seen;
  std::string message;
  const std::vector<AiDefinition>& ais = parsed.dictionary.ais;
  for (std::size_t i = 0; i < ais.size(); ++i) {
    for (const ComponentSpec& component : ais[i].components) {
      for (const std::string& name : component.linters) {
        if (!seen.insert(name).second) continue;
        if (linters.find(name) != LinterSource::None) continue;
        if (!message.empty()) message += '\n';
        message += locate(parsed.fileName, parsed.aiLines[i], linters.missingImplementation(name));
      }
    }
  }
  if (!message.empty()) throw ImportError(message);
}

}  // namespace codepayload::importer
