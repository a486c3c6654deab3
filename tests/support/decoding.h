// What the tests that draw symbols and decode them share: running a decoder, the scanner data ZXingReader and dmtxread report, and an
// SVG of the server's symbols (server/symbols/symbol_svg.h) rasterised to a
// PGM picture the decoders read. No GoogleTest here: faults come back as
// values.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace codepayload::testing {

// Runs `command` (file names only: data goes through files); its output,
// standard error included, or nullopt when it failed, with that output in
// `failure` when one is given.
std::optional<std::string> runCommand(const std::string& command, std::string* failure = nullptr);

// `file` in single quotes, for a command line.
std::string quoted(const std::filesystem::path& file);

// What ZXingReader decodes in the picture: the AIM symbology identifier, then
// the bytes (GS separators included, which its "Text:" leaves out). nullopt,
// with why in `failure`, when it decodes nothing.
std::optional<std::string> zxingScan(const std::filesystem::path& picture, std::string& failure);

// What dmtxread decodes in the picture, every FNC1 as GS (the leading one that
// makes it a GS1 DataMatrix too).
std::optional<std::string> dmtxScan(const std::filesystem::path& picture, std::string& failure);

// The SVG's picture as a binary PGM, `scale` pixels a module: its white
// rectangle, then every "M<x> <y>h<w>v<h>h-<w>z" of its one black path. nullopt,
// with why in `failure`, for an SVG that holds anything else.
std::optional<std::string> rasteriseSvg(const std::string& svg, int scale, std::string& failure);

}  // namespace codepayload::testing
