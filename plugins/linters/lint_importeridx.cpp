// importeridx: the Importer Index of an EU 2018/574 Facility or Machine ID,
// one character from '-', '0'-'9', 'A'-'Z', '_', 'a'-'z'.
#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

namespace {

constexpr support::CharClass kImporterIndex{"-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"};

}  // namespace

LintResult lintImporteridx(std::string_view component) {
  if (component.size() != 1) return fail(reason::kImporterIdxMustBeOneCharacter, 0, component.size());
  if (!kImporterIndex.contains(component[0])) return fail(reason::kInvalidImporterIdxCharacter, 0, 1);
  return kPass;
}

namespace {

// The sentence of each reason lintImporteridx reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kImporterIdxMustBeOneCharacter, "the importer index must be exactly one character"},
    {reason::kInvalidImporterIdxCharacter, "the importer index {part} must be a letter, a digit, '-' or '_'"},
};

}  // namespace

ReasonSentences importeridxSentences() { return kSentences; }

}  // namespace codepayload::lint
