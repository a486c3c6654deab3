// fuzz_dictionary_import: arbitrary bytes as a GS1 Barcode Syntax Dictionary
// release file (importer::parseRelease) and as a baseline file
// (importer::parseBaseline).
//
// Invariants (abort on violation), for each reader:
//  - it throws nothing but importer::ImportError, whose message is
//    "<file>:<line>: <cause>" (line between 1 and the number of lines of the
//    input) or "<file>: <cause>", with a non-empty cause and no line break;
//  - or it returns a Dictionary that formatBaseline writes and parseBaseline
//    reads back to an equal Dictionary, and formatting that again gives the
//    same bytes. A release has no link types and no checksums of its own:
//    before formatting, it gets the shipped baseline's link types and fixed
//    checksums, as codepayload-import would add them.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include "app/paths.h"
#include "db/import/baseline_format.h"
#include "db/import/import_error.h"
#include "db/import/release_parser.h"
#include "tests/fuzz/fuzz_check.h"

namespace codepayload::fuzz {
namespace {

constexpr std::string_view kReleaseFileName = "gs1-syntax-dictionary-fuzz.txt";
constexpr std::string_view kBaselineFileName = "fuzz.baseline";
constexpr std::string_view kLinkTypesFileName = "link-types.json";
constexpr std::string_view kFixedSha256 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

// The shipped baseline's link types, added to every parsed release.
const std::vector<LinkType>* shippedLinkTypes = nullptr;

// Lines as importer::LineCursor counts them: a final line without '\n' counts.
std::size_t lineCount(std::string_view text) {
  std::size_t count = 0;
  for (char c : text) count += c == '\n' ? 1 : 0;
  if (!text.empty() && text.back() != '\n') ++count;
  return count;
}

bool isAsciiDigits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

void checkErrorMessage(std::string_view message, std::string_view fileName, std::string_view input) {
  const std::string shown(message);
  require(message.find('\n') == std::string_view::npos && message.find('\r') == std::string_view::npos,
          "an import error is one line", shown);
  require(message.starts_with(fileName), "an import error starts with the file name", shown);
  std::string_view rest = message.substr(fileName.size());
  require(rest.starts_with(':'), "the file name is followed by ':'", shown);
  rest.remove_prefix(1);
  if (!rest.starts_with(' ')) {
    const std::size_t end = rest.find(':');
    require(end != std::string_view::npos, "a line number is followed by ':'", shown);
    const std::string_view number = rest.substr(0, end);
    require(isAsciiDigits(number) && number.size() <= 9, "the line number is decimal digits", shown);
    const std::size_t line = std::stoul(std::string(number));
    require(line >= 1 && line <= lineCount(input), "the line number is a line of the input", shown);
    rest.remove_prefix(end + 1);
  }
  require(rest.starts_with(' '), "the location is followed by ': '", shown);
  rest.remove_prefix(1);
  require(!rest.empty() && rest.front() != ' ', "the cause is not empty", shown);
}

void checkRoundTrip(const Dictionary& dictionary, std::string_view what) {
  const std::string formatted = importer::formatBaseline(dictionary);
  Dictionary reread;
  try {
    reread = importer::parseBaseline(formatted, kBaselineFileName).dictionary;
  } catch (const importer::ImportError& error) {
    invariantViolated(what, std::string("formatBaseline wrote a baseline parseBaseline refuses: ") + error.what());
  }
  require(reread == dictionary, what, formatted);
  require(importer::formatBaseline(reread) == formatted, "formatting is deterministic", formatted);
}

// Runs `read` on the input; any exception but ImportError breaks the contract.
template <typename Read>
void readAndCheck(std::string_view input, std::string_view fileName, Read read) {
  try {
    read();
  } catch (const importer::ImportError& error) {
    checkErrorMessage(error.what(), fileName, input);
  } catch (const std::exception& error) {
    invariantViolated("only ImportError leaves the reader", error.what());
  }
}

std::string readWholeFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  require(file.good(), "the baseline file can be read", path.string());
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

}  // namespace
}  // namespace codepayload::fuzz

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  using namespace codepayload;
  const std::string text = fuzz::readWholeFile(app::defaultRulesDir() / "baseline" / importer::kBaselineFileName);
  fuzz::shippedLinkTypes =
      new std::vector<LinkType>(importer::parseBaseline(text, importer::kBaselineFileName).dictionary.linkTypes);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace codepayload;
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  fuzz::readAndCheck(input, fuzz::kReleaseFileName, [&] {
    Dictionary dictionary = importer::parseRelease(input, fuzz::kReleaseFileName).dictionary;
    dictionary.release.sha256 = fuzz::kFixedSha256;
    dictionary.release.linkTypesSourceFile = fuzz::kLinkTypesFileName;
    dictionary.release.linkTypesSha256 = fuzz::kFixedSha256;
    dictionary.linkTypes = *fuzz::shippedLinkTypes;
    fuzz::checkRoundTrip(dictionary, "a parsed release re-reads equal from its baseline text");
  });

  fuzz::readAndCheck(input, fuzz::kBaselineFileName, [&] {
    const Dictionary dictionary = importer::parseBaseline(input, fuzz::kBaselineFileName).dictionary;
    fuzz::checkRoundTrip(dictionary, "a parsed baseline re-reads equal from its own formatting");
  });
  return 0;
}
