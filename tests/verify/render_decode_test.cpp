// Codes for seeded random definitions drawn by zint (GS1 DataMatrix for an
// element string, QR Code for a Digital Link URI) to PNG, decoded by
// zxing-cpp's ZXingReader (and DataMatrix also by dmtxread), and the scanner
// data each decoder reports (ZXingReader: the AIM symbology identifier, then
// the bytes with their GS separators; dmtxread: the bytes with FNC1 as GS)
// read back (engine/payload_reader.h) to exactly the AIs that went in.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/item_processor.h"
#include "engine/payload_reader.h"
#include "tests/engine/random_definitions.h"
#include "tests/engine/rules_fixture.h"

namespace codepayload::testing {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

// A folder of its own, removed with what it holds.
class ScratchFolder {
 public:
  ScratchFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "codepayload-verify-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Runs `command` (file names only, no data: the data goes through files);
// its standard output, or nullopt when it failed.
std::optional<std::string> run(const std::string& command) {
  std::FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string out;
  char buffer[4096];
  std::size_t read = 0;
  while ((read = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, read);
  const int status = ::pclose(pipe);
  if (status != 0) return std::nullopt;
  return out;
}

void writeFile(const std::filesystem::path& file, const std::string& bytes) {
  std::ofstream(file, std::ios::binary) << bytes;
}

// The value of "<name>: <value>" in ZXingReader's output.
std::string fieldOf(const std::string& output, const std::string& name) {
  const std::size_t at = output.find("\n" + name + ":") != std::string::npos ? output.find("\n" + name + ":") + 1
                                                                             : output.find(name + ":");
  if (at == std::string::npos) return "";
  const std::size_t start = output.find_first_not_of(' ', at + name.size() + 1);
  return output.substr(start, output.find('\n', start) - start);
}

// ZXingReader's "Bytes:" hex, as bytes.
std::string bytesOf(const std::string& hex) {
  std::string bytes;
  std::istringstream in(hex);
  std::string pair;
  while (in >> pair) bytes += static_cast<char>(std::stoi(pair, nullptr, 16));
  return bytes;
}

// What ZXingReader decodes in `png`: the AIM identifier and the bytes, as a
// scanner in keyboard mode sends them.
std::string zxingScan(const std::filesystem::path& png) {
  const std::optional<std::string> output = run("ZXingReader '" + png.string() + "'");
  if (!output) return "ZXingReader failed";
  return fieldOf(*output, "Identifier") + bytesOf(fieldOf(*output, "Bytes"));
}

Fields keysAndValues(const std::vector<ReadField>& fields) {
  Fields pairs;
  for (const ReadField& field : fields) pairs.emplace_back(field.key, field.value);
  return pairs;
}

Fields sorted(Fields fields) {
  std::sort(fields.begin(), fields.end());
  return fields;
}

Fields readBack(const std::string& scanned, PayloadForm form, const std::string& identifier) {
  ReadFault fault;
  const std::optional<ReadPayload> read = readPayload(*newestSnapshot(), scanned, fault);
  EXPECT_TRUE(read.has_value()) << "cannot read " << scanned << ": at " << fault.offset << " " << fault.detail;
  if (!read) return {};
  EXPECT_EQ(read->form, form) << scanned;
  EXPECT_EQ(read->symbologyIdentifier, identifier) << scanned;
  return keysAndValues(read->ais);
}

TEST(RenderDecodeRead, ZintSymbolsDecodedByZxingAndDmtxReadBackToTheirAis) {
  for (const char* tool : {"zint", "ZXingReader", "dmtxread"}) {
    ASSERT_TRUE(run(std::string("command -v ") + tool).has_value())
        << tool << " is not installed (scripts/install-deps.sh installs zint, zxing-cpp-tools and dmtx-utils)";
  }
  const ScratchFolder scratch;
  Generator g(20261127);
  ItemOutcome outcome;
  int elementStrings = 0;
  int digitalLinks = 0;
  for (int n = 0; n < 150; ++n) {
    const Case c = makeCase(g);
    processItem(*newestSnapshot(), definitionOf(c), 0, outcome);
    ASSERT_TRUE(outcome.accepted()) << "case " << n;
    const std::filesystem::path data = scratch.path() / (std::to_string(n) + ".txt");
    const std::filesystem::path png = scratch.path() / (std::to_string(n) + ".png");
    SCOPED_TRACE("case " + std::to_string(n) + ": " + outcome.barcodeText);
    if (!c.stem) {
      ++elementStrings;
      // zint's GS1 input: [AI]value, so that values may hold parentheses.
      // --gs1nocheck: zint 2.11 predates AIs such as 4330 and would refuse
      // them; the service has checked the AIs. zint 2.11 also takes every AI
      // that begins with 23 for one of a pre-defined length and writes no
      // FNC1 after it, which the dictionary requires after AI 235: such an
      // AI goes last, where no separator is needed. Scale 6: dmtxread misses
      // the smallest symbols (10 x 10 modules) at some smaller scales.
      Fields drawn = c.ais;
      std::stable_partition(drawn.begin(), drawn.end(), [](const auto& ai) { return !ai.first.starts_with("23"); });
      std::string input;
      for (const auto& [key, value] : drawn) input += "[" + key + "]" + value;
      writeFile(data, input);
      ASSERT_TRUE(run("zint -b 71 --gs1 --gs1nocheck --quietzones --scale=6 -o '" + png.string() + "' -i '" +
                      data.string() + "'"));
      EXPECT_EQ(readBack(zxingScan(png), PayloadForm::ScannerData, "]d2"), drawn);
      const std::optional<std::string> dmtx = run("dmtxread -G 29 '" + png.string() + "'");
      ASSERT_TRUE(dmtx.has_value());
      EXPECT_EQ(readBack(*dmtx, PayloadForm::ScannerData, ""), drawn);
    } else {
      ++digitalLinks;
      writeFile(data, outcome.barcodeText);
      ASSERT_TRUE(run("zint -b 58 --quietzones -o '" + png.string() + "' -i '" + data.string() + "'"));
      const std::string scanned = zxingScan(png);
      EXPECT_EQ(scanned, "]Q1" + outcome.barcodeText);
      EXPECT_EQ(sorted(readBack(scanned, PayloadForm::DigitalLink, "]Q1")), sorted(c.ais));
    }
  }
  EXPECT_GT(elementStrings, 50);
  EXPECT_GT(digitalLinks, 50);
}

}  // namespace
}  // namespace codepayload::testing
