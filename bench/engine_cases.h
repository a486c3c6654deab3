// The engine benchmark's inputs, shared by codepayload_engine_bench (timing)
// and codepayload_engine_profile (instruction counts under callgrind):
//   (a) a valid Digital Link (01)+(10)+(21)+(17) with a linkType
//   (b) the same AIs as an element string
//   (c) a definition with three faults
//   (d) a mixed batch as a CodesRequest body
// and for reading back: a definition as scanner data, and a mixed batch of
// payloads as a ParseRequest body.
// The rules are the shipped baseline of the source tree the binary was built
// from (CODEPAYLOAD_SOURCE_RULES_DIR).
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "db/import/baseline_format.h"
#include "db/import/source_file.h"
#include "engine/model.h"
#include "engine/snapshot.h"
#include "plugins/builtin_plugins.h"

namespace codepayload::bench {

inline std::shared_ptr<const Snapshot> baselineRules() {
  static const std::shared_ptr<const Snapshot> rules = [] {
    const std::filesystem::path rulesDir = CODEPAYLOAD_SOURCE_RULES_DIR;
    const importer::SourceFile file =
        importer::readSourceFile(rulesDir / "baseline" / std::string(importer::kBaselineFileName));
    return Snapshot::build(importer::parseBaseline(file.content, file.name).dictionary, rulesDir,
                           builtinPluginTables());
  }();
  return rules;
}

// (a) with digitalLink, (b) without.
inline CodeDefinition fourAis(bool digitalLink) {
  CodeDefinition definition;
  definition.primaryKey = {"01", "09506000134352"};
  definition.ais = {{"10", "ABC123"}, {"21", "SER12345678"}, {"17", "261231"}};
  if (digitalLink) {
    definition.digitalLinkStem = "https://id.example.com";
    definition.linkType = "gs1:pip";
  }
  return definition;
}

// (c): a wrong check digit, a space in (10), month 13 in (17).
inline CodeDefinition threeFaults() {
  CodeDefinition definition;
  definition.primaryKey = {"01", "09506000134353"};
  definition.ais = {{"10", "AB CD"}, {"17", "261332"}};
  return definition;
}

// {"codes":[...]} of `items` items, item i written by itemOf(i, serial), the
// serial a number of its own for each item.
template <typename ItemOf>
std::string codesBody(std::size_t items, ItemOf itemOf) {
  std::string body = "{\"codes\":[";
  for (std::size_t i = 0; i < items; ++i) {
    if (i != 0) body += ',';
    body += itemOf(i, std::to_string(100000 + i));
  }
  return body + "]}";
}

// (d): `items` definitions cycling through a valid Digital Link with a
// reference, a valid element string from a 13-digit GTIN with an escaped (10),
// an SSCC Digital Link with a padded temperature and a stem ending in a slash,
// and the three-fault definition.
inline std::string mixedBatch(std::size_t items) {
  return codesBody(items, [](std::size_t i, const std::string& serial) -> std::string {
    switch (i % 4) {
      case 0:
        return
            R"J({"reference":"r)J" + serial +
            R"J(","primaryKey":{"key":"01","value":"09506000134352"},"ais":[{"key":"10","value":"ABC123"},{"key":"21","value":")J" +
            serial +
            R"J("},{"key":"17","value":"261231"}],"extensionParameters":[],"digitalLinkStem":"https://id.example.com","linkType":"gs1:pip"})J";
      case 1:
        return
            R"J({"primaryKey":{"key":"01","value":"9506000134352"},"ais":[{"key":"10","value":"L(7)"},{"key":"21","value":")J" +
            serial + R"J("}],"extensionParameters":[]})J";
      case 2:
        return
            R"J({"primaryKey":{"key":"00","value":"376104250021234569"},"ais":[{"key":"4330","value":"123-"}],"extensionParameters":[],"digitalLinkStem":"https://example.com/dl/"})J";
      default:
        return
            R"J({"primaryKey":{"key":"01","value":"09506000134353"},"ais":[{"key":"10","value":"AB CD"},{"key":"17","value":"261332"}],"extensionParameters":[]})J";
    }
  });
}

// `definition`'s AIs as a GS1 DataMatrix delivers them: "]d2", then each AI
// and its value, a GS after every value of no pre-defined length but the last.
inline std::string scannerData(const CodeDefinition& definition) {
  std::string data = "]d2";
  std::vector<AiInput> ais{definition.primaryKey};
  ais.insert(ais.end(), definition.ais.begin(), definition.ais.end());
  for (std::size_t i = 0; i < ais.size(); ++i) {
    data.append(ais[i].key).append(ais[i].value);
    const CompiledAi* ai = baselineRules()->findAi(ais[i].key);
    if (i + 1 < ais.size() && !ai->definition->fixedLength) data += '\x1d';
  }
  return data;
}

// `items` payloads cycling through a Digital Link with a reference, a
// bracketed element string with an escaped (10), scanner data of an SSCC with
// a temperature, and an element string with a wrong check digit and a space.
inline std::string mixedParseBatch(std::size_t items) {
  return codesBody(items, [](std::size_t i, const std::string& serial) -> std::string {
    switch (i % 4) {
      case 0:
        return R"J({"reference":"r)J" + serial +
                R"J(","data":"https://id.example.com/01/09506000134352/10/ABC123/21/)J" + serial +
                R"J(?17=261231&linkType=gs1:pip"})J";
      case 1:
        return R"J({"data":"(01)09506000134352(10)L^0407^041(21))J" + serial + R"J("})J";
      case 2:
        return R"J({"data":"]d200376104250021234569\u001d4330000123-"})J";
      default:
        return R"J({"data":"(01)09506000134353(10)AB CD(17)261332"})J";
    }
  });
}

}  // namespace codepayload::bench
