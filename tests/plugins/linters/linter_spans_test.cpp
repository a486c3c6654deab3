// A sweep over every registered linter with many generated inputs: each
// verdict is either a pass or one of that linter's published reason tokens
// (those its row gives a sentence; each linter's own test pins them), with a
// span inside the component. Run under ASan/UBSan this also shows that no
// linter reads outside its component. Nothing here lists the linters.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "engine/linter.h"
#include "plugins/linters/linters.h"

namespace codepayload::lint::test {
namespace {

using Tokens = std::set<std::string_view>;

// The reasons a row gives a sentence: those its linter publishes, which the
// linter's own test pins (lint_<name>_test.cpp, PublishesExactlyItsReasons).
Tokens publishedReasons(const LinterEntry& entry) {
  Tokens reasons;
  for (const ReasonSentence& sentence : entry.sentences()) reasons.insert(sentence.reason);
  return reasons;
}

// Deterministic inputs: runs of single characters, and pseudo-random strings
// drawn mostly from digits (to reach the later checks) with some letters,
// separators, padding, percent signs, NUL and high bytes.
std::vector<std::string> sweepInputs() {
  std::vector<std::string> inputs;
  static constexpr char kFills[] = "0019A=%-/ \0\xff";
  for (char fill : std::string_view(kFills, sizeof kFills - 1)) {
    for (std::size_t size = 0; size <= 110; ++size) inputs.emplace_back(size, fill);
  }
  static constexpr char kAlphabetCharacters[] = "0123456789012345678901234567890123456789ABCXYZaz/%=-_ \0\x80\xff";
  constexpr std::string_view kAlphabet(kAlphabetCharacters, sizeof kAlphabetCharacters - 1);
  std::uint32_t state = 12345;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  for (int i = 0; i < 4000; ++i) {
    std::string input(next() % 48, ' ');
    for (char& c : input) c = kAlphabet[next() % kAlphabet.size()];
    inputs.push_back(std::move(input));
  }
  return inputs;
}

// Every row publishes at least one reason, and gives each one sentence.
TEST(LinterSpans, EveryPublishedTokenHasOneSentenceBesideItsLinter) {
  LinterTable table = builtinLinters();
  for (const LinterEntry* entry = table.begin; entry != table.end; ++entry) {
    Tokens withSentences;
    for (const ReasonSentence& sentence : entry->sentences()) {
      EXPECT_FALSE(sentence.reason.empty()) << entry->name;
      EXPECT_FALSE(sentence.sentence.empty()) << entry->name << ": " << sentence.reason;
      EXPECT_TRUE(withSentences.insert(sentence.reason).second) << entry->name << " repeats " << sentence.reason;
    }
    EXPECT_FALSE(withSentences.empty()) << entry->name << " publishes no reason";
  }
}

TEST(LinterSpans, VerdictsUsePublishedTokensAndStayInsideTheComponent) {
  const std::vector<std::string> inputs = sweepInputs();
  LinterTable table = builtinLinters();
  for (const LinterEntry* entry = table.begin; entry != table.end; ++entry) {
    const Tokens allowed = publishedReasons(*entry);
    std::size_t failures = 0;
    for (const std::string& input : inputs) {
      LintResult result = entry->fn(input);
      if (result.ok()) {
        EXPECT_EQ(result.offset, 0u);
        EXPECT_EQ(result.length, 0u);
        continue;
      }
      ++failures;
      EXPECT_TRUE(allowed.count(result.reason)) << entry->name << " reported \"" << result.reason << "\"";
      EXPECT_FALSE(sentenceOf(entry->sentences(), result.reason).empty())
          << entry->name << " has no sentence for \"" << result.reason << "\"";
      EXPECT_LE(std::size_t{result.offset} + result.length, input.size())
          << entry->name << " on a " << input.size() << "-character input";
    }
    EXPECT_GT(failures, 0u) << entry->name << " rejected nothing";
  }
}

}  // namespace
}  // namespace codepayload::lint::test
