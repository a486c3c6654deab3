// Random valid code definitions for the tests of both directions: a seeded
// generator of GTINs, SSCCs and GLNs with qualifiers and data attributes,
// as element strings or Digital Links, and the CodeDefinition of each (views
// into the case, which must outlive it).
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/model.h"

namespace codepayload::testing {

inline constexpr std::string_view kCset82 =
    "!\"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz";

class Generator {
 public:
  explicit Generator(std::uint32_t seed) : random_(seed) {}

  int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random_); }
  bool coin() { return below(2) == 1; }

  std::string digits(int count) {
    std::string text;
    for (int i = 0; i < count; ++i) text += static_cast<char>('0' + below(10));
    return text;
  }

  static std::string withCheckDigit(std::string body) {
    int sum = 0;
    bool three = true;
    for (std::size_t i = body.size(); i-- > 0;) {
      sum += (body[i] - '0') * (three ? 3 : 1);
      three = !three;
    }
    body += static_cast<char>('0' + (10 - sum % 10) % 10);
    return body;
  }

  std::string cset82(int minLength, int maxLength) {
    int length = minLength + below(maxLength - minLength + 1);
    std::string text;
    for (int i = 0; i < length; ++i) text += kCset82[static_cast<std::size_t>(below(static_cast<int>(kCset82.size())))];
    return text;
  }

  std::string date() {
    auto two = [](int n) { return std::string{static_cast<char>('0' + n / 10), static_cast<char>('0' + n % 10)}; };
    return two(below(100)) + two(1 + below(12)) + two(below(29));
  }

 private:
  std::mt19937 random_;
};

struct Case {
  std::vector<std::pair<std::string, std::string>> ais;  // [0] is the primary key
  std::vector<std::pair<std::string, std::string>> extensions;
  std::optional<std::string> stem, linkType, context;
};

// A valid definition of a random kind; a Digital Link half of the time.
Case makeCase(Generator& g);

// The CodeDefinition of `c`, viewing its strings.
CodeDefinition definitionOf(const Case& c);

}  // namespace codepayload::testing
