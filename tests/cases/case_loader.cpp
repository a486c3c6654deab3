#include "tests/cases/case_loader.h"

#include <Poco/Exception.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/JSON/Stringifier.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace codepayload::cases {

namespace {

bool isIdentifier(const std::string& text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

std::string stemOf(const std::string& file) { return std::filesystem::path(file).stem().string(); }

std::string toJson(const Poco::Dynamic::Var& value) {
  std::ostringstream out;
  Poco::JSON::Stringifier::stringify(value, out);
  return out.str();
}

PayloadCase brokenEntry(Operation operation, const std::string& file, std::size_t index, std::string cause) {
  PayloadCase broken;
  broken.operation = operation;
  broken.file = file;
  broken.name = "malformed_" + std::to_string(index);
  broken.loadError = file + ": " + std::move(cause);
  return broken;
}

std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The cases of one file; a file that does not parse as a whole is one broken entry.
void loadFile(const std::filesystem::path& path, Operation operation, std::vector<PayloadCase>& out) {
  const std::string file = (operation == Operation::Parse ? "parse/" : "") + path.filename().string();
  Poco::JSON::Array::Ptr array;
  try {
    Poco::JSON::Parser parser;
    Poco::Dynamic::Var root = parser.parse(readText(path));
    if (root.type() != typeid(Poco::JSON::Array::Ptr)) {
      out.push_back(brokenEntry(operation, file, 0, "the file is not a JSON array of cases"));
      return;
    }
    array = root.extract<Poco::JSON::Array::Ptr>();
  } catch (const Poco::Exception& e) {
    out.push_back(brokenEntry(operation, file, 0, "not valid JSON: " + e.displayText()));
    return;
  }
  std::set<std::string> names;
  for (std::size_t i = 0; i < array->size(); ++i) {
    Poco::JSON::Object::Ptr entry = array->getObject(static_cast<unsigned>(i));
    if (entry.isNull()) {
      out.push_back(brokenEntry(operation, file, i, "case " + std::to_string(i) + " is not an object"));
      continue;
    }
    std::vector<std::string> keys;
    entry->getNames(keys);
    std::sort(keys.begin(), keys.end());
    const std::vector<std::string> expectedKeys{"name", "request", "response", "why"};
    if (keys != expectedKeys) {
      out.push_back(brokenEntry(operation, file, i,
                                "case " + std::to_string(i) + " must have exactly name, why, request, response"));
      continue;
    }
    PayloadCase payloadCase;
    payloadCase.operation = operation;
    payloadCase.file = file;
    payloadCase.name = entry->optValue<std::string>("name", "");
    payloadCase.why = entry->optValue<std::string>("why", "");
    if (!isIdentifier(payloadCase.name) || !names.insert(payloadCase.name).second) {
      out.push_back(
          brokenEntry(operation, file, i, "case " + std::to_string(i) + " needs a unique name of [A-Za-z0-9_]"));
      continue;
    }
    if (payloadCase.why.empty()) {
      out.push_back(brokenEntry(operation, file, i, "case " + payloadCase.name + " needs a why"));
      continue;
    }
    Poco::JSON::Object::Ptr request = entry->getObject("request");
    Poco::JSON::Object::Ptr response = entry->getObject("response");
    if (request.isNull() || response.isNull()) {
      out.push_back(
          brokenEntry(operation, file, i, "case " + payloadCase.name + ": request and response must be objects"));
      continue;
    }
    payloadCase.requestText = toJson(request);
    payloadCase.responseText = toJson(response);
    out.push_back(std::move(payloadCase));
  }
  if (array->size() == 0) out.push_back(brokenEntry(operation, file, 0, "the file holds no case"));
}

// The *.json files of `dir`, in name order, loaded as `operation`'s cases; an
// unreadable or empty folder is one broken entry.
void loadFolder(const std::filesystem::path& dir, Operation operation, std::vector<PayloadCase>& cases) {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(dir, error)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  }
  if (error || files.empty()) {
    PayloadCase broken;
    broken.operation = operation;
    broken.file = dir.string();
    broken.name = error ? "unreadable_folder" : "no_case_files";
    broken.loadError = dir.string() + ": " + (error ? error.message() : "no *.json case file");
    cases.push_back(std::move(broken));
    return;
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) loadFile(file, operation, cases);
}

}  // namespace

std::string PayloadCase::testName() const {
  return (operation == Operation::Parse ? "parse_" : "") + stemOf(file) + "_" + name;
}

std::vector<PayloadCase> loadPayloadCases(const std::filesystem::path& dir) {
  std::vector<PayloadCase> cases;
  loadFolder(dir, Operation::Generate, cases);
  loadFolder(dir / "parse", Operation::Parse, cases);
  return cases;
}

void PrintTo(const PayloadCase& payloadCase, std::ostream* out) { *out << payloadCase.testName(); }

}  // namespace codepayload::cases
