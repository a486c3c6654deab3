#include "server/symbols/symbol_svg.h"

#include <zint.h>

#include <cmath>
#include <memory>
#include <new>
#include <stdexcept>
#include <utility>

#include "common/markup_text.h"
#include "server/symbols/gs1_zint_input.h"

namespace codepayload::server::symbols {

namespace {

constexpr int kPixelsPerModule = 4;
constexpr int kQrErrorCorrectionM = 2;  // zint's option_1 for QR Code: 1 L, 2 M, 3 Q, 4 H

using ZintSymbol = std::unique_ptr<zint_symbol, decltype(&ZBarcode_Delete)>;

// A coordinate of zint's vector output, drawn with one unit a module: always
// a whole number; anything else is a zint this code does not know.
long moduleUnits(float value) {
  const float rounded = std::round(value);
  if (std::fabs(value - rounded) > 0.001f) {
    throw std::logic_error("zint's vector output has a coordinate that is not a whole module");
  }
  return static_cast<long>(rounded);
}

std::string svgOf(const zint_vector& vector, std::string_view label) {
  const long width = moduleUnits(vector.width);
  const long height = moduleUnits(vector.height);
  std::string svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width * kPixelsPerModule) +
                    "\" height=\"" + std::to_string(height * kPixelsPerModule) + "\" viewBox=\"0 0 " +
                    std::to_string(width) + " " + std::to_string(height) + "\" role=\"img\" aria-label=\"";
  common::appendMarkupText(svg, label);
  svg += "\" shape-rendering=\"crispEdges\"><title>";
  common::appendMarkupText(svg, label);
  svg += "</title><rect width=\"" + std::to_string(width) + "\" height=\"" + std::to_string(height) +
         "\" fill=\"#fff\"/><path fill=\"#000\" d=\"";
  for (const zint_vector_rect* rect = vector.rectangles; rect != nullptr; rect = rect->next) {
    const std::string across = std::to_string(moduleUnits(rect->width));
    svg += "M" + std::to_string(moduleUnits(rect->x)) + " " + std::to_string(moduleUnits(rect->y)) + "h" + across +
           "v" + std::to_string(moduleUnits(rect->height)) + "h-" + across + "z";
  }
  svg += "\"/></svg>";
  return svg;
}

// Draws `data` as `symbology` with zint's settings in `configure`; nullopt
// with zint's reason in `fault` when zint refuses the data.
template <typename Configure>
std::optional<Symbol> draw(Symbology symbology, std::string_view data, std::string label, std::string& fault,
                           Configure configure) {
  ZintSymbol symbol(ZBarcode_Create(), &ZBarcode_Delete);
  if (!symbol) throw std::bad_alloc();
  symbol->output_options = BARCODE_QUIET_ZONES;
  symbol->scale = 0.5f;  // zint's vector output: 2 units a module at scale 1
  symbol->show_hrt = 0;
  symbol->warn_level = WARN_FAIL_ALL;  // a symbol zint would only warn about is not drawn either
  configure(*symbol);
  const std::string name(symbologyName(symbology));
  if (data.size() > ZINT_MAX_DATA_LEN) {
    fault = "The text is too long for a " + name + ".";
    return std::nullopt;
  }
  const int result = ZBarcode_Encode_and_Buffer_Vector(
      symbol.get(), reinterpret_cast<const unsigned char*>(data.data()), static_cast<int>(data.size()), 0);
  switch (result) {
    case 0: break;
    // What the data asks for: refused, with zint's reason.
    case ZINT_ERROR_TOO_LONG:
    case ZINT_ERROR_INVALID_DATA:
    case ZINT_ERROR_INVALID_CHECK:
    case ZINT_ERROR_USES_ECI:
    case ZINT_ERROR_NONCOMPLIANT:
      fault = "zint cannot draw this " + name + " (" + symbol->errtxt + ").";
      return std::nullopt;
    case ZINT_ERROR_MEMORY: throw std::bad_alloc();
    // An option this code set, or zint's own fault.
    default:
      throw std::runtime_error("zint failed to draw a " + name + " (" + std::to_string(result) +
                               "): " + symbol->errtxt);
  }
  if (symbol->vector == nullptr) throw std::logic_error("zint drew a " + name + " without vector output");
  return Symbol{symbology, label, svgOf(*symbol->vector, label)};
}

}  // namespace

std::string_view symbologyName(Symbology symbology) {
  return symbology == Symbology::QrCode ? "QR Code" : "GS1 DataMatrix";
}

std::optional<Symbol> drawQrCode(std::string_view uri, std::string& fault) {
  return drawQrCodeLabelled(uri, "QR Code: " + std::string(uri), fault);
}

std::optional<Symbol> drawQrCodeLabelled(std::string_view data, std::string label, std::string& fault) {
  return draw(Symbology::QrCode, data, std::move(label), fault, [](zint_symbol& symbol) {
    symbol.symbology = BARCODE_QRCODE;
    symbol.input_mode = DATA_MODE;
    symbol.option_1 = kQrErrorCorrectionM;
  });
}

std::optional<Symbol> drawGs1DataMatrix(std::string_view elementString, std::string& fault) {
  const std::optional<std::vector<ElementField>> fields = readElementString(elementString, fault);
  if (!fields) return std::nullopt;
  return draw(Symbology::Gs1DataMatrix, zintGs1Input(*fields), "GS1 DataMatrix: " + humanReadableText(*fields), fault,
              [](zint_symbol& symbol) {
                symbol.symbology = BARCODE_DATAMATRIX;
                symbol.input_mode = GS1_MODE | GS1NOCHECK_MODE;
                symbol.option_3 = DM_SQUARE;
              });
}

}  // namespace codepayload::server::symbols
