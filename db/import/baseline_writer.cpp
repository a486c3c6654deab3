// formatBaseline: Dictionary -> baseline text (see baseline_format.h).
#include "db/import/attribute_syntax.h"
#include "db/import/baseline_format.h"
#include "db/import/component_syntax.h"
#include "db/import/field_escape.h"

namespace codepayload::importer {

namespace {

void appendHeader(std::string& text, const ReleaseInfo& release) {
  text += "# codepayload rule baseline, format " + std::to_string(kBaselineFormat) + "\n";
  text += "# release: " + release.name + "\n";
  text += "# dictionary: " + release.sourceFile + " sha256:" + release.sha256 + "\n";
  text += "# link types: " + release.linkTypesSourceFile + " sha256:" + release.linkTypesSha256 + "\n";
  text += "# regenerate: codepayload-import --write-baseline rules/baseline/" + std::string(kBaselineFileName) +
          " --link-types ../shared/gs1/" + release.linkTypesSourceFile + " ../shared/gs1/" + release.sourceFile + "\n";
  text +=
      "#   (run in the repository root; codepayload-import is built in <build dir>/tools/dictionary-import/)\n"
      "# Written by codepayload-import from the files above; do not edit by hand.\n"
      "# One record per line, fields separated by one TAB:\n"
      "#   ai <AI> <flags: * fixed length, ? Digital Link data attribute, - none> <specification>\n"
      "#      <attributes: req= ex= dlpkey, - none> <title>\n"
      "#   link-type <id> <status> <deprecated or -> <restricted, comma-separated, or -> <uri> <title> <description>\n"
      "# Specification and attributes use the GS1 Barcode Syntax Dictionary notation; in titles and\n"
      "# descriptions \\\\ is a backslash, \\t a TAB, \\n a line feed, \\r a carriage return, \\xHH a control "
      "character.\n";
}

void appendAi(std::string& text, const AiDefinition& ai) {
  text += "ai\t";
  text += ai.ai;
  text += '\t';
  if (!ai.fixedLength && !ai.digitalLinkDataAttribute) text += '-';
  if (ai.fixedLength) text += '*';
  if (ai.digitalLinkDataAttribute) text += '?';
  text += '\t';
  text += formatSpecification(ai.components);
  text += '\t';
  const std::string attributes = formatAttributes(ai);
  text += attributes.empty() ? "-" : attributes;
  text += '\t';
  text += escapeField(ai.title);
  text += '\n';
}

void appendLinkType(std::string& text, const LinkType& type) {
  text += "link-type\t";
  text += type.id;
  text += '\t';
  text += type.status;
  text += '\t';
  text += type.deprecated ? "deprecated" : "-";
  text += '\t';
  if (type.restricted.empty()) text += '-';
  for (std::size_t i = 0; i < type.restricted.size(); ++i) {
    if (i > 0) text += ',';
    text += type.restricted[i];
  }
  text += '\t';
  text += type.uri;
  text += '\t';
  text += escapeField(type.title);
  text += '\t';
  text += escapeField(type.description);
  text += '\n';
}

}  // namespace

std::string formatBaseline(const Dictionary& dictionary) {
  std::string text;
  appendHeader(text, dictionary.release);
  for (const AiDefinition& ai : dictionary.ais) appendAi(text, ai);
  for (const LinkType& type : dictionary.linkTypes) appendLinkType(text, type);
  return text;
}

}  // namespace codepayload::importer
