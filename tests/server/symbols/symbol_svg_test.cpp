// Symbols as SVG: the exact text of a small one, and a round trip for
// others: the SVG's rectangles rasterised here into a PGM image, decoded by
// zxing-cpp's ZXingReader (the AIM identifier and the bytes, GS included) and
// for DataMatrix also by dmtxread (every FNC1 as GS, the leading one too), to exactly the scanner data
// the text asks for. The decoders come from scripts/install-deps.sh test.
#include "server/symbols/symbol_svg.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace codepayload::server::symbols {
namespace {

// A folder of its own, removed with what it holds.
class ScratchFolder {
 public:
  ScratchFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "codepayload-symbols-XXXXXX").string();
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

// Runs `command`; its standard output and error, or nullopt when it failed.
std::optional<std::string> run(const std::string& command) {
  std::FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string out;
  char buffer[4096];
  std::size_t read = 0;
  while ((read = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, read);
  if (::pclose(pipe) != 0) return std::nullopt;
  return out;
}

// The SVG's picture as a binary PGM, `scale` pixels a module: its white
// rectangle, then every "M<x> <y>h<w>v<h>h-<w>z" of its path in black. Any
// other shape in the SVG fails the test (the drawing has none).
std::string rasterise(const std::string& svg, int scale) {
  std::smatch box;
  if (!std::regex_search(svg, box, std::regex(R"re(viewBox="0 0 (\d+) (\d+)")re"))) {
    ADD_FAILURE() << "no viewBox: " << svg;
    return {};
  }
  const int width = std::stoi(box[1]) * scale;
  const int height = std::stoi(box[2]) * scale;
  std::vector<unsigned char> pixels(static_cast<std::size_t>(width) * height, 255);
  std::smatch path;
  if (!std::regex_search(svg, path, std::regex(R"re(<path fill="#000" d="([^"]*)"/>)re"))) {
    ADD_FAILURE() << "no path: " << svg;
    return {};
  }
  const std::string d = path[1];
  const std::regex rectangle(R"re(M(\d+) (\d+)h(\d+)v(\d+)h-(\d+)z)re");
  std::size_t covered = 0;
  for (auto it = std::sregex_iterator(d.begin(), d.end(), rectangle); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    EXPECT_EQ(m[3], m[5]) << m[0];
    covered += m.length();
    const int x = std::stoi(m[1]) * scale, y = std::stoi(m[2]) * scale;
    const int w = std::stoi(m[3]) * scale, h = std::stoi(m[4]) * scale;
    for (int row = y; row < y + h && row < height; ++row) {
      for (int column = x; column < x + w && column < width; ++column) pixels[row * width + column] = 0;
    }
  }
  EXPECT_EQ(covered, d.size()) << "the path holds something other than rectangles: " << d;
  std::string pgm = "P5\n" + std::to_string(width) + " " + std::to_string(height) + "\n255\n";
  pgm.append(pixels.begin(), pixels.end());
  return pgm;
}

// The value of "<name>: <value>" in ZXingReader's output.
std::string fieldOf(const std::string& output, const std::string& name) {
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with(name + ":")) {
      const std::size_t start = line.find_first_not_of(' ', name.size() + 1);
      return start == std::string::npos ? "" : line.substr(start);
    }
  }
  return "";
}

// ZXingReader's "Bytes:" hex, as bytes.
std::string bytesOf(const std::string& hex) {
  std::string bytes;
  std::istringstream in(hex);
  for (std::string pair; in >> pair;) bytes += static_cast<char>(std::stoi(pair, nullptr, 16));
  return bytes;
}

class SymbolSvg : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (const char* tool : {"ZXingReader", "dmtxread"}) {
      if (!run(std::string("command -v ") + tool)) {
        FAIL() << tool << " is not installed (scripts/install-deps.sh test installs zxing-cpp-tools and dmtx-utils)";
      }
    }
  }

  // What ZXingReader reads in the symbol: the AIM identifier, then the bytes.
  std::string zxingScan(const Symbol& symbol) {
    const std::filesystem::path image = writeImage(symbol);
    const std::optional<std::string> output = run("ZXingReader '" + image.string() + "'");
    if (!output) return "ZXingReader failed";
    return fieldOf(*output, "Identifier") + bytesOf(fieldOf(*output, "Bytes"));
  }

  // What dmtxread reads in the symbol, every FNC1 as GS: the leading one that
  // makes a DataMatrix a GS1 DataMatrix, and the separators.
  std::string dmtxScan(const Symbol& symbol) {
    const std::filesystem::path image = writeImage(symbol);
    return run("dmtxread -G 29 '" + image.string() + "'").value_or("dmtxread failed");
  }

  std::filesystem::path writeImage(const Symbol& symbol) {
    const std::filesystem::path image = scratch_.path() / (std::to_string(++images_) + ".pgm");
    std::ofstream(image, std::ios::binary) << rasterise(symbol.svg, 6);
    return image;
  }

  ScratchFolder scratch_;
  int images_ = 0;
};

Symbol dataMatrixOf(std::string_view elementString) {
  std::string fault;
  std::optional<Symbol> symbol = drawGs1DataMatrix(elementString, fault);
  EXPECT_TRUE(symbol.has_value()) << elementString << ": " << fault;
  return symbol.value_or(Symbol{});
}

Symbol qrCodeOf(std::string_view uri) {
  std::string fault;
  std::optional<Symbol> symbol = drawQrCode(uri, fault);
  EXPECT_TRUE(symbol.has_value()) << uri << ": " << fault;
  return symbol.value_or(Symbol{});
}

// The smallest symbol of an element string: 12 x 12 modules, one module of
// quiet zone around it. Its modules follow from its codewords alone (FNC1,
// three pairs of digits: DataMatrix has no mask to choose), whichever zint drew it.
constexpr const char* kSmallDataMatrix =
    R"(<svg xmlns="http://www.w3.org/2000/svg" width="56" height="56" viewBox="0 0 14 14" role="img" )"
    R"(aria-label="GS1 DataMatrix: (17)271231" shape-rendering="crispEdges"><title>GS1 DataMatrix: (17)271231</title>)"
    R"(<rect width="14" height="14" fill="#fff"/><path fill="#000" d=")"
    R"(M1 1h1v1h-1zM3 1h1v1h-1zM5 1h1v1h-1zM7 1h1v1h-1zM9 1h1v1h-1zM11 1h1v1h-1zM1 2h2v1h-2z)"
    R"(M4 2h1v1h-1zM6 2h1v1h-1zM9 2h4v1h-4zM1 3h1v2h-1zM3 3h1v1h-1zM5 3h1v1h-1zM7 3h2v1h-2z)"
    R"(M10 3h1v1h-1zM3 4h3v1h-3zM12 4h1v1h-1zM1 5h2v1h-2zM7 5h1v1h-1zM9 5h3v1h-3zM1 6h1v1h-1z)"
    R"(M3 6h1v1h-1zM5 6h2v1h-2zM8 6h5v1h-5zM1 7h3v1h-3zM5 7h1v1h-1zM10 7h2v1h-2zM1 8h4v1h-4z)"
    R"(M6 8h2v2h-2zM10 8h3v1h-3zM1 9h2v2h-2zM5 10h2v1h-2zM9 10h2v1h-2zM12 10h1v1h-1zM1 11h1v1h-1z)"
    R"(M3 11h3v1h-3zM8 11h1v1h-1zM11 11h1v1h-1zM1 12h12v1h-12z)"
    R"("/></svg>)";

TEST_F(SymbolSvg, TheSvgOfASmallDataMatrixIsExact) {
  const Symbol symbol = dataMatrixOf("(17)271231");
  EXPECT_EQ(symbol.symbology, Symbology::Gs1DataMatrix);
  EXPECT_EQ(symbol.label, "GS1 DataMatrix: (17)271231");
  EXPECT_EQ(symbol.svg, kSmallDataMatrix);
  EXPECT_EQ(zxingScan(symbol), "]d217271231");
}

TEST_F(SymbolSvg, TheLabelIsEscapedForXml) {
  const Symbol symbol = qrCodeOf("https://id.example.com/01/09520123456788?17=271231&10=A%3CB%22");
  EXPECT_EQ(symbol.label, "QR Code: https://id.example.com/01/09520123456788?17=271231&10=A%3CB%22");
  EXPECT_TRUE(symbol.svg.starts_with(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="164" height="164" viewBox="0 0 41 41" role="img" )"
      R"(aria-label="QR Code: https://id.example.com/01/09520123456788?17=271231&amp;10=A%3CB%22" )"
      R"(shape-rendering="crispEdges"><title>QR Code: https://id.example.com/01/09520123456788?17=271231&amp;10=A%3CB%22</title>)"
      R"(<rect width="41" height="41" fill="#fff"/><path fill="#000" d="M4 4h7v1h-7z)"))
      << symbol.svg;
  EXPECT_TRUE(symbol.svg.ends_with(R"(z"/></svg>)"));
}

TEST_F(SymbolSvg, ADataMatrixHoldsTheElementStringsAisWithTheirSeparators) {
  struct Row {
    std::string_view elementString;
    std::string_view scanned;  // after the AIM identifier ]d2
  };
  for (const Row& row : std::initializer_list<Row>{
           {"(01)09520123456788(10)AB^040C^041(17)271231",
            "010952012345678810AB(C)\x1d"
            "17271231"},
           {"(01)09520123456788(17)271231(10)AB^041", "01095201234567881727123110AB)"},
           {"(00)095201234567890125(21)A1^040(3103)000189",
            "0009520123456789012521A1(\x1d"
            "3103000189"},
           // AI 235 is variable length: an FNC1 follows its value, though zint 2.11 would write none.
           {"(01)09520123456788(235)XYZ123(10)AB",
            "0109520123456788235XYZ123\x1d"
            "10AB"},
           {"(01)09520123456788(10)AB(235)XYZ123(21)S1",
            "010952012345678810AB\x1d"
            "235XYZ123\x1d"
            "21S1"},
           {"(01)09520123456788(10)AB(235)XYZ123",
            "010952012345678810AB\x1d"
            "235XYZ123"},
       }) {
    SCOPED_TRACE(row.elementString);
    const Symbol symbol = dataMatrixOf(row.elementString);
    EXPECT_EQ(zxingScan(symbol), "]d2" + std::string(row.scanned));
    EXPECT_EQ(dmtxScan(symbol), "\x1d" + std::string(row.scanned));
  }
}

TEST_F(SymbolSvg, AQrCodeHoldsTheDigitalLinkUriAsItIs) {
  for (const std::string_view uri : {
           "https://id.example.com/01/09520123456788",
           "https://id.example.com/01/09520123456788/10/AB%28C%29?17=271231&linkType=gs1%3Apip",
           "http://example.org/a/b/01/09520123456788/22/2A/10/1/21/S?3103=000189&ext=x-y",
       }) {
    const Symbol symbol = qrCodeOf(uri);
    EXPECT_EQ(symbol.symbology, Symbology::QrCode);
    EXPECT_EQ(symbol.label, "QR Code: " + std::string(uri));
    EXPECT_EQ(zxingScan(symbol), "]Q1" + std::string(uri));
  }
}

TEST_F(SymbolSvg, WhatCannotBeDrawnIsRefusedWithWhy) {
  std::string fault;
  EXPECT_FALSE(drawGs1DataMatrix("(10)A^042", fault).has_value());
  EXPECT_EQ(fault, "Only ^040 and ^041 are escapes in an element string (character 6 of the element string).");
  EXPECT_FALSE(drawGs1DataMatrix("(8012)" + std::string(3500, 'A'), fault).has_value());
  EXPECT_EQ(fault, "zint cannot draw this GS1 DataMatrix (Error 760: Data too long to fit in symbol).");
  EXPECT_FALSE(drawQrCode("https://id.example.com/01/09520123456788?x=" + std::string(3000, 'a'), fault).has_value());
  EXPECT_TRUE(fault.starts_with("zint cannot draw this QR Code (Error ")) << fault;
}

}  // namespace
}  // namespace codepayload::server::symbols
