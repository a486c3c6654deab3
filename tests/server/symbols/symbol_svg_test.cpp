// Symbols as SVG: the exact text of a small one, and a round trip for
// others: the SVG's rectangles rasterised into a PGM image
// (tests/support/decoding.h), decoded by
// zxing-cpp's ZXingReader (the AIM identifier and the bytes, GS included) and
// for DataMatrix also by dmtxread (every FNC1 as GS, the leading one too), to exactly the scanner data
// the text asks for. The decoders come from scripts/install-deps.sh test.
#include "server/symbols/symbol_svg.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/support/decoding.h"
#include "tests/support/temp_dir.h"

namespace codepayload::server::symbols {
namespace {

class SymbolSvg : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    for (const char* tool : {"ZXingReader", "dmtxread"}) {
      if (!codepayload::testing::runCommand(std::string("command -v ") + tool)) {
        FAIL() << tool << " is not installed (scripts/install-deps.sh test installs zxing-cpp-tools and dmtx-utils)";
      }
    }
  }

  // What ZXingReader reads in the symbol: the AIM identifier, then the bytes.
  std::string zxingScan(const Symbol& symbol) {
    std::string failure;
    return codepayload::testing::zxingScan(writeImage(symbol), failure).value_or("ZXingReader failed: " + failure);
  }

  // What dmtxread reads in the symbol, every FNC1 as GS: the leading one that
  // makes a DataMatrix a GS1 DataMatrix, and the separators.
  std::string dmtxScan(const Symbol& symbol) {
    std::string failure;
    return codepayload::testing::dmtxScan(writeImage(symbol), failure).value_or("dmtxread failed: " + failure);
  }

  std::filesystem::path writeImage(const Symbol& symbol) {
    const std::filesystem::path image = scratch_.path() / (std::to_string(++images_) + ".pgm");
    std::string failure;
    const std::optional<std::string> picture = codepayload::testing::rasteriseSvg(symbol.svg, 6, failure);
    EXPECT_TRUE(picture.has_value()) << failure;
    std::ofstream(image, std::ios::binary) << picture.value_or("");
    return image;
  }

  codepayload::testing::TempDir scratch_;
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

TEST_F(SymbolSvg, ALabelledQrCodeKeepsWhatItHoldsOutOfItsText) {
  const std::string uri =
      "otpauth://totp/Code-Payload%20Service:dev%40acme.example?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
      "&issuer=Code-Payload%20Service&algorithm=SHA1&digits=6&period=30";
  std::string fault;
  const std::optional<Symbol> symbol = drawQrCodeLabelled(uri, "QR Code of the key & more", fault);
  ASSERT_TRUE(symbol.has_value()) << fault;
  EXPECT_EQ(symbol->symbology, Symbology::QrCode);
  EXPECT_EQ(symbol->label, "QR Code of the key & more");
  EXPECT_TRUE(symbol->svg.starts_with(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="244" height="244" viewBox="0 0 61 61" role="img" )"
      R"(aria-label="QR Code of the key &amp; more" shape-rendering="crispEdges"><title>QR Code of the key &amp; )"
      R"(more</title><rect width="61" height="61" fill="#fff"/><path fill="#000" d="M4 4h7v1h-7z)"))
      << symbol->svg;
  EXPECT_EQ(symbol->svg.find("GEZDGNBV"), std::string::npos);
  EXPECT_EQ(symbol->svg.find("otpauth"), std::string::npos);
  EXPECT_EQ(zxingScan(*symbol), "]Q1" + uri);
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
