// iso4217: an ISO 4217 numeric currency code, three digits.
#include <cstdint>

#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

namespace {

// ISO 4217 numeric currency codes (179), as in the GS1 reference linter.
constexpr std::uint16_t kIso4217Numeric[] = {
    8,   12,  32,  36,  44,  48,  50,  51,  52,  60,  64,  68,  72,  84,  90,  96,  104, 108, 116, 124, 132, 136, 144,
    152, 156, 170, 174, 188, 192, 203, 208, 214, 222, 230, 232, 238, 242, 262, 270, 292, 320, 324, 328, 332, 340, 344,
    348, 352, 356, 360, 364, 368, 376, 388, 392, 396, 398, 400, 404, 408, 410, 414, 417, 418, 422, 426, 430, 434, 446,
    454, 458, 462, 480, 484, 496, 498, 504, 512, 516, 524, 532, 533, 548, 554, 558, 566, 578, 586, 590, 598, 600, 604,
    608, 634, 643, 646, 654, 682, 690, 702, 704, 706, 710, 728, 748, 752, 756, 760, 764, 776, 780, 784, 788, 800, 807,
    818, 826, 834, 840, 858, 860, 882, 886, 901, 924, 925, 926, 927, 928, 929, 930, 933, 934, 936, 938, 940, 941, 943,
    944, 946, 947, 948, 949, 950, 951, 952, 953, 955, 956, 957, 958, 959, 960, 961, 962, 963, 964, 965, 967, 968, 969,
    970, 971, 972, 973, 975, 976, 977, 978, 979, 980, 981, 984, 985, 986, 990, 994, 997, 999,
};
static_assert(std::is_sorted(std::begin(kIso4217Numeric), std::end(kIso4217Numeric)));

}  // namespace

LintResult lintIso4217(std::string_view component) {
  int code = support::threeDigitCode(component);
  if (code < 0 || !support::inSortedTable(kIso4217Numeric, static_cast<std::uint16_t>(code))) {
    return fail(reason::kNotIso4217, 0, component.size());
  }
  return kPass;
}

namespace {

// The sentence of each reason lintIso4217 reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kNotIso4217, "{part} is not an ISO 4217 numeric currency code"},
};

}  // namespace

ReasonSentences iso4217Sentences() { return kSentences; }

}  // namespace codepayload::lint
