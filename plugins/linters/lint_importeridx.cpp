// importeridx: the Importer Index of an EU 2018/574 Facility or Machine ID,
// one character from '-', '0'-'9', 'A'-'Z', '_', 'a'-'z'.
#include "plugins/linters/lint_support.h"
#include "plugins/linters/linters.h"

namespace codepayload::lint {

namespace {

constexpr support::CharClass kImporterIndex{"-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"};

}  // namespace

LintResult lintImporteridx(std::string_view component) {
  if (component.size() != 1) return fail(reason::kImporterIdxMustBeOneCharacter, 0, component.size());
  if (!kImporterIndex.contains(component[0])) return fail(reason::kInvalidImporterIdxCharacter, 0, 1);
  return kPass;
}

}  // namespace codepayload::lint
