// Reads the case files of the table-driven suite, each a JSON array of
// {"name", "why", "request", "response"} objects: tests/cases/*.json are
// CodesRequest -> CodesResponse cases (POST /codes), tests/cases/parse/*.json
// ParseRequest -> ParseResponse cases (POST /codes/parse).
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace codepayload::cases {

// What the engine does with a case's request: the folder of its file says.
enum class Operation {
  Generate,  // PayloadEngine::generateJson (a file of tests/cases)
  Parse,     // PayloadEngine::parseJson (a file of tests/cases/parse)
};

struct PayloadCase {
  Operation operation = Operation::Generate;
  std::string file;          // "gtin.json", "parse/scanner_data.json"
  std::string name;          // "gtin8_normalised": unique within its file
  std::string why;           // the rule the case shows
  std::string requestText;   // the request, as JSON text for the engine
  std::string responseText;  // the expected response, as JSON text
  std::string loadError;     // set when the file or the case is malformed

  // "<file without .json>_<name>", "parse_" before it for a parse case: the
  // GoogleTest parameter name.
  std::string testName() const;
};

// Every case of every *.json file in `dir` and then in `dir`/parse, files in
// name order, cases in file order. A malformed file or case becomes one entry
// with loadError set (and a unique name), so that the suite fails on it
// instead of skipping it.
std::vector<PayloadCase> loadPayloadCases(const std::filesystem::path& dir);

// Lets GoogleTest print a case by its name.
void PrintTo(const PayloadCase& payloadCase, std::ostream* out);

}  // namespace codepayload::cases
