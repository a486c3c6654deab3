// Reads the case files of the table-driven suite: tests/cases/*.json, each a
// JSON array of {"name", "why", "request", "response"} objects.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace codepayload::cases {

struct PayloadCase {
  std::string file;          // "gtin.json"
  std::string name;          // "gtin8_normalised": unique within its file
  std::string why;           // the rule the case shows
  std::string requestText;   // the request, as JSON text for the engine
  std::string responseText;  // the expected CodesResponse, as JSON text
  std::string loadError;     // set when the file or the case is malformed

  // "<file without .json>_<name>": the GoogleTest parameter name.
  std::string testName() const;
};

// Every case of every *.json file in `dir`, files in name order, cases in file
// order. A malformed file or case becomes one entry with loadError set (and a
// unique name), so that the suite fails on it instead of skipping it.
std::vector<PayloadCase> loadPayloadCases(const std::filesystem::path& dir);

// Lets GoogleTest print a case by its name.
void PrintTo(const PayloadCase& payloadCase, std::ostream* out);

}  // namespace codepayload::cases
