// parseBaseline: baseline text -> Dictionary (see baseline_format.h).
#include <map>
#include <optional>
#include <vector>

#include "db/import/attribute_syntax.h"
#include "db/import/baseline_format.h"
#include "db/import/component_syntax.h"
#include "db/import/dictionary_checks.h"
#include "db/import/field_escape.h"
#include "db/import/import_error.h"
#include "db/import/link_types_parser.h"
#include "db/import/text_checks.h"

namespace codepayload::importer {

namespace {

constexpr std::size_t kHeaderLines = 5;
constexpr std::string_view kFormatLine = "# codepayload rule baseline, format ";

bool isSha256Hex(std::string_view text) {
  if (text.size() != 64) return false;
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// "<prefix><file> sha256:<hex>" -> file and hash.
void readSourceLine(std::string_view line, std::string_view prefix, std::string& file, std::string& sha256) {
  const std::string expected = "must be \"" + std::string(prefix) + "<file> sha256:<64 lowercase hex digits>\"";
  if (!line.starts_with(prefix)) throw SyntaxError(expected);
  const std::string_view rest = line.substr(prefix.size());
  const std::size_t marker = rest.rfind(" sha256:");
  if (marker == std::string_view::npos || marker == 0) throw SyntaxError(expected);
  const std::string_view hash = rest.substr(marker + 8);
  if (!isSha256Hex(hash)) throw SyntaxError(expected);
  file = rest.substr(0, marker);
  sha256 = hash;
}

class BaselineReader {
 public:
  explicit BaselineReader(std::string_view fileName) { parsed_.fileName = fileName; }

  void readLine(std::string_view line, std::size_t number) {
    if (const std::string problem = lineTextProblem(line); !problem.empty()) throw SyntaxError(problem);
    if (number <= kHeaderLines) {
      readHeader(line, number);
      return;
    }
    if (line.empty() || line.front() == '#') return;
    const std::vector<std::string_view> fields = splitFields(line, '\t');
    if (fields.front() == "ai") {
      if (!parsed_.dictionary.linkTypes.empty()) throw SyntaxError("ai record after the link-type records");
      readAi(fields, number);
    } else if (fields.front() == "link-type") {
      readLinkType(fields, number);
    } else {
      throw SyntaxError("unknown record \"" + std::string(fields.front()) + "\" (known: ai, link-type)");
    }
  }

  ParsedDictionary finish(std::size_t lineCount) {
    if (lineCount < kHeaderLines) throw ImportError(parsed_.fileName + ": the header has fewer than 5 lines");
    if (parsed_.dictionary.linkTypes.empty()) throw ImportError(parsed_.fileName + ": no link-type records");
    return std::move(parsed_);
  }

 private:
  void readHeader(std::string_view line, std::size_t number) {
    ReleaseInfo& release = parsed_.dictionary.release;
    switch (number) {
      case 1: {
        if (!line.starts_with(kFormatLine)) throw SyntaxError("must be \"" + std::string(kFormatLine) + "1\"");
        const std::string_view format = line.substr(kFormatLine.size());
        if (format != std::to_string(kBaselineFormat)) {
          throw SyntaxError("baseline format \"" + std::string(format) + "\" is not supported (this program reads " +
                            std::to_string(kBaselineFormat) + ")");
        }
        break;
      }
      case 2: {
        constexpr std::string_view kPrefix = "# release: ";
        if (!line.starts_with(kPrefix) || line.size() == kPrefix.size()) {
          throw SyntaxError("must be \"# release: <name>\"");
        }
        release.name = line.substr(kPrefix.size());
        if (!isReleaseName(release.name)) {
          throw SyntaxError("release \"" + release.name + "\" is not a date YYYY-MM-DD");
        }
        break;
      }
      case 3: readSourceLine(line, "# dictionary: ", release.sourceFile, release.sha256); break;
      case 4: readSourceLine(line, "# link types: ", release.linkTypesSourceFile, release.linkTypesSha256); break;
      default:
        if (!line.starts_with("# regenerate: ")) throw SyntaxError("must be \"# regenerate: <command>\"");
    }
  }

  static void expectFields(const std::vector<std::string_view>& fields, std::size_t count) {
    if (fields.size() != count) {
      throw SyntaxError(std::string(fields.front()) + " record has " + std::to_string(fields.size()) +
                        " fields, expected " + std::to_string(count));
    }
  }

  void readAi(const std::vector<std::string_view>& fields, std::size_t number) {
    expectFields(fields, 6);
    AiDefinition ai;
    if (!isAi(fields[1])) throw SyntaxError("AI \"" + std::string(fields[1]) + "\" is not 2 to 4 digits");
    ai.ai = fields[1];
    const std::string_view flags = fields[2];
    if (flags != "-" && flags != "*" && flags != "?" && flags != "*?") {
      throw SyntaxError("flags \"" + std::string(flags) + "\" must be -, *, ? or *?");
    }
    ai.fixedLength = flags.find('*') != std::string_view::npos;
    ai.digitalLinkDataAttribute = flags.find('?') != std::string_view::npos;
    ai.components = parseSpecification(splitFields(fields[3], ' '));
    if (fields[4] != "-") {
      for (std::string_view attribute : splitFields(fields[4], ' ')) {
        if (attribute.empty()) throw SyntaxError("empty attribute in \"" + std::string(fields[4]) + "\"");
        applyAttribute(attribute, ai);
      }
    }
    ai.title = unescapeField(fields[5]);
    appendInOrder(parsed_, std::move(ai), number);
  }

  void readLinkType(const std::vector<std::string_view>& fields, std::size_t number) {
    expectFields(fields, 8);
    LinkType type;
    type.id = fields[1];
    if (!isUnbrokenText(type.id)) throw SyntaxError("link type id \"" + type.id + "\" must be one word");
    auto [first, inserted] = linkTypeLines_.emplace(type.id, number);
    if (!inserted) {
      throw SyntaxError("link type \"" + type.id + "\" repeated (first on line " + std::to_string(first->second) + ")");
    }
    type.status = fields[2];
    if (!isPlainToken(type.status)) throw SyntaxError("status \"" + type.status + "\" must be one word");
    if (fields[3] != "deprecated" && fields[3] != "-") {
      throw SyntaxError("deprecated field \"" + std::string(fields[3]) + "\" must be \"deprecated\" or \"-\"");
    }
    type.deprecated = fields[3] == "deprecated";
    if (fields[4] != "-") {
      for (std::string_view restriction : splitFields(fields[4], ',')) {
        if (!isPlainToken(restriction))
          throw SyntaxError("restriction \"" + std::string(restriction) + "\" must be one word");
        for (const std::string& earlier : type.restricted) {
          if (earlier == restriction) throw SyntaxError("restriction \"" + earlier + "\" listed twice");
        }
        type.restricted.emplace_back(restriction);
      }
    }
    type.uri = fields[5];
    if (!isUnbrokenText(type.uri)) throw SyntaxError("uri \"" + type.uri + "\" must be non-empty without spaces");
    type.title = unescapeField(fields[6]);
    type.description = unescapeField(fields[7]);
    type.selectable = isSelectable(type.restricted);
    parsed_.dictionary.linkTypes.push_back(std::move(type));
  }

  ParsedDictionary parsed_;
  std::map<std::string, std::size_t, std::less<>> linkTypeLines_;
};

}  // namespace

ParsedDictionary parseBaseline(std::string_view text, std::string_view fileName) {
  BaselineReader reader(fileName);
  const std::size_t lineCount = readEachLine(text, fileName, reader);
  ParsedDictionary parsed = reader.finish(lineCount);
  checkReferences(parsed);
  return parsed;
}

}  // namespace codepayload::importer
