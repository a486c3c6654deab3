#include "db/import/release_parser.h"

#include <optional>
#include <vector>

#include "common/ascii.h"
#include "db/import/attribute_syntax.h"
#include "db/import/component_syntax.h"
#include "db/import/dictionary_checks.h"
#include "db/import/import_error.h"
#include "db/import/text_checks.h"

namespace codepayload::importer {

namespace {

// The characters the dictionary reserves for flags; '*' and '?' are defined.
constexpr std::string_view kFlagCharacters = "*!?\"$%&'()+,-./:;<=>@[\\]^_`{|}~";

using common::isSpaceOrTab;
using common::trimSpaceAndTab;

std::vector<std::string_view> tokenize(std::string_view text) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && isSpaceOrTab(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && !isSpaceOrTab(text[i])) ++i;
    if (i > start) tokens.push_back(text.substr(start, i - start));
  }
  return tokens;
}

bool isFlagsToken(std::string_view token) {
  for (char c : token) {
    if (kFlagCharacters.find(c) == std::string_view::npos) return false;
  }
  // "[...]" starts an optional component, never flags.
  return !token.empty() && !looksLikeComponent(token);
}

void applyFlags(std::string_view token, AiDefinition& ai) {
  bool seenFixed = false;
  bool seenDataAttribute = false;
  for (char c : token) {
    bool& seen = c == '*' ? seenFixed : seenDataAttribute;
    if (c != '*' && c != '?') {
      throw SyntaxError("unknown flag \"" + std::string(1, c) + "\" (known: \"*\", \"?\")");
    }
    if (seen) throw SyntaxError("flag \"" + std::string(1, c) + "\" given twice");
    seen = true;
  }
  ai.fixedLength = seenFixed;
  ai.digitalLinkDataAttribute = seenDataAttribute;
}

struct AiRange {
  std::string first;
  char lastDigitEnd;  // the last digit of the range's end
};

AiRange parseAiRange(std::string_view token) {
  const std::size_t dash = token.find('-');
  if (dash == std::string_view::npos) {
    if (!isAi(token)) throw SyntaxError("AI \"" + std::string(token) + "\" is not 2 to 4 digits");
    return AiRange{std::string(token), token.back()};
  }
  const std::string_view first = token.substr(0, dash);
  const std::string_view last = token.substr(dash + 1);
  const std::string quotedRange = "AI range \"" + std::string(token) + "\"";
  if (!isAi(first) || !isAi(last)) throw SyntaxError(quotedRange + ": both ends must be 2 to 4 digits");
  if (first.size() != last.size() || first.substr(0, first.size() - 1) != last.substr(0, last.size() - 1)) {
    throw SyntaxError(quotedRange + ": the ends may differ in the last digit only");
  }
  if (first.back() >= last.back()) throw SyntaxError(quotedRange + ": the end must be greater than the start");
  return AiRange{std::string(first), last.back()};
}

// "# Release: 2026-01-27" -> "2026-01-27"; nullopt for any other comment.
std::optional<std::string_view> releaseLineValue(std::string_view comment) {
  comment = trimSpaceAndTab(comment.substr(1));
  constexpr std::string_view kKey = "Release:";
  if (!comment.starts_with(kKey)) return std::nullopt;
  return trimSpaceAndTab(comment.substr(kKey.size()));
}

class ReleaseReader {
 public:
  explicit ReleaseReader(std::string_view fileName) {
    parsed_.fileName = fileName;
    parsed_.dictionary.release.sourceFile = fileName;
  }

  void readLine(std::string_view line, std::size_t number) {
    if (const std::string problem = lineTextProblem(line); !problem.empty()) throw SyntaxError(problem);
    const std::string_view content = trimSpaceAndTab(line);
    if (content.empty()) return;
    if (content.front() == '#') {
      if (parsed_.dictionary.ais.empty()) readHeaderComment(content, number);
      return;
    }
    if (releaseLine_ == 0) throw SyntaxError("entry before the \"# Release: YYYY-MM-DD\" header line");
    readEntry(content, number);
  }

  ParsedDictionary finish() { return std::move(parsed_); }

 private:
  void readHeaderComment(std::string_view comment, std::size_t number) {
    const std::optional<std::string_view> release = releaseLineValue(comment);
    if (!release) return;
    if (releaseLine_ != 0) {
      throw SyntaxError("second \"# Release:\" line (first on line " + std::to_string(releaseLine_) + ")");
    }
    if (!isReleaseName(*release)) {
      throw SyntaxError("release \"" + std::string(*release) + "\" is not a date YYYY-MM-DD");
    }
    parsed_.dictionary.release.name = *release;
    releaseLine_ = number;
  }

  void readEntry(std::string_view content, std::size_t number) {
    const std::size_t hash = content.find('#');
    const std::vector<std::string_view> tokens = tokenize(content.substr(0, hash));
    AiDefinition definition;
    if (hash != std::string_view::npos) definition.title = trimSpaceAndTab(content.substr(hash + 1));

    const AiRange range = parseAiRange(tokens.front());
    std::size_t next = 1;
    if (next < tokens.size() && isFlagsToken(tokens[next])) applyFlags(tokens[next++], definition);
    std::vector<std::string_view> specification;
    while (next < tokens.size() && looksLikeComponent(tokens[next])) specification.push_back(tokens[next++]);
    definition.components = parseSpecification(specification);
    for (; next < tokens.size(); ++next) {
      if (looksLikeComponent(tokens[next])) {
        throw SyntaxError("component \"" + std::string(tokens[next]) + "\" after the attributes");
      }
      applyAttribute(tokens[next], definition);
    }

    std::string ai = range.first;
    while (true) {
      const bool last = ai.back() == range.lastDigitEnd;
      AiDefinition copy = last ? std::move(definition) : definition;
      copy.ai = ai;
      appendInOrder(parsed_, std::move(copy), number);
      if (last) break;
      ++ai.back();
    }
  }

  ParsedDictionary parsed_;
  std::size_t releaseLine_ = 0;
};

}  // namespace

ParsedDictionary parseRelease(std::string_view text, std::string_view fileName) {
  ReleaseReader reader(fileName);
  readEachLine(text, fileName, reader);
  ParsedDictionary parsed = reader.finish();
  checkReferences(parsed);
  return parsed;
}

}  // namespace codepayload::importer
