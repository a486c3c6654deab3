// csumalpha: the last two characters are the GS1 alphanumeric check
// character pair over the CSET 82 characters before them. Each data
// character's CSET 82 index is weighted by the primes 2, 3, 5, ... from right
// to left; the sum modulo 1021 is split into two 5-bit indexes into CSET 32.
// Like the reference, at most 97 data characters are supported.
#include <array>

#include "plugins/linters/lint_support.h"

namespace codepayload::lint {

namespace {

constexpr std::size_t kMaxDataCharacters = 97;

// CSET 82 in weight order: a character's weight is its index here.
constexpr std::string_view kCset82Order =
    "!\"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";
constexpr std::string_view kCset32 = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";

// CSET 82 weight plus one for each byte; 0 for bytes outside CSET 82.
constexpr std::array<unsigned char, 256> kCset82WeightPlusOne = [] {
  std::array<unsigned char, 256> table{};
  for (std::size_t i = 0; i < kCset82Order.size(); ++i) {
    table[static_cast<unsigned char>(kCset82Order[i])] = static_cast<unsigned char>(i + 1);
  }
  return table;
}();

constexpr std::array<unsigned, kMaxDataCharacters> kPrimes = [] {
  std::array<unsigned, kMaxDataCharacters> primes{};
  std::size_t count = 0;
  for (unsigned candidate = 2; count < primes.size(); ++candidate) {
    bool prime = true;
    for (std::size_t i = 0; i < count && primes[i] * primes[i] <= candidate; ++i) {
      if (candidate % primes[i] == 0) prime = false;
    }
    if (prime) primes[count++] = candidate;
  }
  return primes;
}();
static_assert(kPrimes.back() == 509, "the 97th prime is 509");

}  // namespace

LintResult lintCsumalpha(std::string_view component) {
  std::size_t size = component.size();
  if (size > kMaxDataCharacters + 2) return fail(reason::kTooLongForCheckPairImplementation, 0, size);
  if (size < 2) return fail(reason::kTooShortForCheckPair, 0, size);
  std::size_t dataLength = size - 2;
  unsigned sum = 0;
  for (std::size_t pos = 0; pos < dataLength; ++pos) {
    unsigned weightPlusOne = kCset82WeightPlusOne[static_cast<unsigned char>(component[pos])];
    if (weightPlusOne == 0) return fail(reason::kInvalidCset82Character, pos, 1);
    sum += (weightPlusOne - 1) * kPrimes[dataLength - 1 - pos];
  }
  sum %= 1021;
  const char pair[2] = {kCset32[sum >> 5], kCset32[sum & 31]};
  if (component[dataLength] != pair[0] || component[dataLength + 1] != pair[1]) {
    return failExpecting(reason::kIncorrectCheckPair, dataLength, 2, std::string_view(pair, 2));
  }
  return kPass;
}

namespace {

// The sentence of each reason lintCsumalpha reports, shown after "AI <ai>: " (engine/linter.h).
constexpr ReasonSentence kSentences[] = {
    {reason::kTooLongForCheckPairImplementation,
     "{part} is too long: a check character pair covers at most 97 characters before it"},
    {reason::kTooShortForCheckPair, "{part} is too short to end in a check character pair"},
    {reason::kInvalidCset82Character, "{part} is not in GS1 character set 82"},
    {reason::kIncorrectCheckPair, "the check character pair {part} is wrong; the right pair is {expected}"},
};

}  // namespace

ReasonSentences csumalphaSentences() { return kSentences; }

}  // namespace codepayload::lint
