#include "db/import/attribute_syntax.h"

#include <algorithm>
#include <vector>

#include "db/import/import_error.h"
#include "db/import/text_checks.h"

namespace codepayload::importer {

namespace {

[[noreturn]] void refuse(std::string_view token, std::string_view what) {
  std::string message = "attribute \"";
  message += token;
  message += "\": ";
  message += what;
  throw SyntaxError(message);
}

std::string quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

AiPattern parsePattern(std::string_view token, std::string_view text) {
  if (text.empty()) refuse(token, "empty AI pattern");
  if (!isAiPattern(text)) refuse(token, quoted(text) + " is not an AI or AI pattern");
  return AiPattern{std::string(text)};
}

void applyRequires(std::string_view token, std::string_view value, AiDefinition& ai) {
  RequiresRule rule;
  for (std::string_view alternativeText : splitFields(value, ',')) {
    if (alternativeText.empty()) refuse(token, "empty alternative");
    std::vector<AiPattern> alternative;
    for (std::string_view member : splitFields(alternativeText, '+')) {
      AiPattern pattern = parsePattern(token, member);
      if (std::find(alternative.begin(), alternative.end(), pattern) != alternative.end()) {
        refuse(token, quoted(member) + " repeated in " + quoted(alternativeText));
      }
      alternative.push_back(std::move(pattern));
    }
    if (std::find(rule.alternatives.begin(), rule.alternatives.end(), alternative) != rule.alternatives.end()) {
      refuse(token, "alternative " + quoted(alternativeText) + " repeated");
    }
    rule.alternatives.push_back(std::move(alternative));
  }
  ai.requirements.push_back(std::move(rule));
}

void applyExcludes(std::string_view token, std::string_view value, AiDefinition& ai) {
  for (std::string_view text : splitFields(value, ',')) {
    AiPattern pattern = parsePattern(token, text);
    if (std::find(ai.excludes.begin(), ai.excludes.end(), pattern) != ai.excludes.end()) {
      refuse(token, quoted(text) + " excluded twice");
    }
    ai.excludes.push_back(std::move(pattern));
  }
}

void applyPrimaryKey(std::string_view token, std::string_view value, bool hasValue, AiDefinition& ai) {
  if (ai.digitalLinkPrimaryKey) refuse(token, "dlpkey given twice");
  ai.digitalLinkPrimaryKey = true;
  if (!hasValue) return;
  for (std::string_view sequenceText : splitFields(value, '|')) {
    if (sequenceText.empty()) refuse(token, "empty qualifier sequence");
    std::vector<std::string> sequence;
    for (std::string_view qualifier : splitFields(sequenceText, ',')) {
      if (qualifier.empty()) refuse(token, "empty qualifier");
      if (!isAi(qualifier)) refuse(token, quoted(qualifier) + " is not an AI");
      if (std::find(sequence.begin(), sequence.end(), qualifier) != sequence.end()) {
        refuse(token, quoted(qualifier) + " repeated in " + quoted(sequenceText));
      }
      sequence.emplace_back(qualifier);
    }
    if (std::find(ai.qualifierSequences.begin(), ai.qualifierSequences.end(), sequence) !=
        ai.qualifierSequences.end()) {
      refuse(token, "qualifier sequence " + quoted(sequenceText) + " repeated");
    }
    ai.qualifierSequences.push_back(std::move(sequence));
  }
}

void appendPatterns(std::string& text, const std::vector<AiPattern>& patterns, char separator) {
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    if (i > 0) text += separator;
    text += patterns[i].text;
  }
}

}  // namespace

bool isAi(std::string_view text) {
  if (text.size() < 2 || text.size() > 4) return false;
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool isAiPattern(std::string_view text) {
  if (text.size() < 2 || text.size() > 4 || text.front() < '0' || text.front() > '9') return false;
  return std::all_of(text.begin(), text.end(), [](char c) { return (c >= '0' && c <= '9') || c == 'n'; });
}

void applyAttribute(std::string_view token, AiDefinition& ai) {
  const std::size_t equals = token.find('=');
  const std::string_view key = token.substr(0, equals);
  const bool hasValue = equals != std::string_view::npos;
  const std::string_view value = hasValue ? token.substr(equals + 1) : std::string_view();
  if (key == "req" || key == "ex") {
    if (!hasValue) refuse(token, "needs a value (" + std::string(key) + "=...)");
    if (value.empty()) refuse(token, "empty value");
    if (key == "req") {
      applyRequires(token, value, ai);
    } else {
      applyExcludes(token, value, ai);
    }
  } else if (key == "dlpkey") {
    if (hasValue && value.empty()) refuse(token, "empty value");
    applyPrimaryKey(token, value, hasValue, ai);
  } else {
    throw SyntaxError("unknown attribute " + quoted(token) + " (known: req=, ex=, dlpkey)");
  }
}

std::string formatAttributes(const AiDefinition& ai) {
  std::string text;
  auto startAttribute = [&text](std::string_view head) {
    if (!text.empty()) text += ' ';
    text += head;
  };
  for (const RequiresRule& rule : ai.requirements) {
    startAttribute("req=");
    for (std::size_t a = 0; a < rule.alternatives.size(); ++a) {
      if (a > 0) text += ',';
      appendPatterns(text, rule.alternatives[a], '+');
    }
  }
  if (!ai.excludes.empty()) {
    startAttribute("ex=");
    appendPatterns(text, ai.excludes, ',');
  }
  if (ai.digitalLinkPrimaryKey) {
    startAttribute("dlpkey");
    for (std::size_t s = 0; s < ai.qualifierSequences.size(); ++s) {
      text += s == 0 ? '=' : '|';
      for (std::size_t q = 0; q < ai.qualifierSequences[s].size(); ++q) {
        if (q > 0) text += ',';
        text += ai.qualifierSequences[s][q];
      }
    }
  }
  return text;
}

}  // namespace codepayload::importer
