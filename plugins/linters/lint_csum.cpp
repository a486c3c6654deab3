// csum: the GS1 mod-10 check digit over a numeric component (last digit).
#include "plugins/linters/linters.h"

namespace codepayload::lint {

LintResult lintCsum(std::string_view component) {
  if (component.empty()) return fail("tooShort", 0, 0);
  int sum = 0;
  // Weights 3,1,3,1,... from the rightmost data digit (the one before the check digit).
  bool weightThree = true;
  for (std::size_t i = component.size() - 1; i-- > 0;) {
    char c = component[i];
    if (c < '0' || c > '9') return fail("nonDigitCharacter", i, 1);
    sum += (c - '0') * (weightThree ? 3 : 1);
    weightThree = !weightThree;
  }
  char check = component.back();
  if (check < '0' || check > '9') return fail("nonDigitCharacter", component.size() - 1, 1);
  if ((10 - sum % 10) % 10 != check - '0') return fail("incorrectCheckDigit", component.size() - 1, 1);
  return kPass;
}

}  // namespace codepayload::lint
