// Symbols drawn as SVG text in memory with Debian's libzint: a QR Code holding
// a GS1 Digital Link URI as plain data, a GS1 DataMatrix holding an element
// string as the service writes it (its AIs, FNC1 separators where GS1 puts
// them: gs1_zint_input.h). For the dashboard's Try it page; the API produces
// no images (this room sits above handlers/, so the API's handlers cannot
// include it). Nothing is written to a file.
//
// The SVG: the symbol with its quiet zone (zint's compliant one: 1 module for
// DataMatrix, 4 for QR Code) on a white rectangle, the dark modules as one
// path of rectangles in module units, sized at 4 px a module, role="img"
// with an aria-label and a <title> that name the symbology and the text it
// holds.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace codepayload::server::symbols {

enum class Symbology { QrCode, Gs1DataMatrix };

// "QR Code", "GS1 DataMatrix".
std::string_view symbologyName(Symbology symbology);

struct Symbol {
  Symbology symbology = Symbology::QrCode;
  // What the symbol holds, for people: "QR Code: https://id.example.com/01/...",
  // "GS1 DataMatrix: (01)09520123456788(10)AB(C)" (the HRI, parentheses
  // unescaped), or the label drawQrCodeLabelled was given. The SVG's
  // aria-label and title.
  std::string label;
  std::string svg;
};

// A QR Code (error correction level M) holding `uri` byte for byte. nullopt,
// with a sentence in `fault`, when zint cannot draw it (too long for any
// QR Code). Throws std::bad_alloc when zint runs out of memory.
std::optional<Symbol> drawQrCode(std::string_view uri, std::string& fault);

// The same QR Code of `data`, named `label` instead of by what it holds: for
// data a screen reader must not read out nor a page show as text (an otpauth
// URI holds a TOTP secret).
std::optional<Symbol> drawQrCodeLabelled(std::string_view data, std::string label, std::string& fault);

// A square GS1 DataMatrix holding the element string `elementString`
// ("(01)09520123456788(10)AB^040C^041"). nullopt, with a sentence in `fault`,
// when the text is not an element string this service writes
// (readElementString) or zint cannot draw it (too long for any DataMatrix).
std::optional<Symbol> drawGs1DataMatrix(std::string_view elementString, std::string& fault);

}  // namespace codepayload::server::symbols
