#include "tests/support/decoding.h"

#include <cstdio>
#include <regex>
#include <sstream>
#include <vector>

namespace codepayload::testing {

namespace {

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

}  // namespace

std::optional<std::string> runCommand(const std::string& command, std::string* failure) {
  std::FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string out;
  char buffer[4096];
  std::size_t read = 0;
  while ((read = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, read);
  if (::pclose(pipe) != 0) {
    if (failure != nullptr) *failure = out;
    return std::nullopt;
  }
  return out;
}

std::string quoted(const std::filesystem::path& file) { return "'" + file.string() + "'"; }

std::optional<std::string> zxingScan(const std::filesystem::path& picture, std::string& failure) {
  const std::optional<std::string> output = runCommand("ZXingReader " + quoted(picture), &failure);
  if (!output) return std::nullopt;
  if (fieldOf(*output, "Bytes").empty()) {
    failure = "ZXingReader found no symbol: " + *output;
    return std::nullopt;
  }
  return fieldOf(*output, "Identifier") + bytesOf(fieldOf(*output, "Bytes"));
}

std::optional<std::string> dmtxScan(const std::filesystem::path& picture, std::string& failure) {
  return runCommand("dmtxread -G 29 " + quoted(picture), &failure);
}

std::optional<std::string> rasteriseSvg(const std::string& svg, int scale, std::string& failure) {
  std::smatch box;
  if (!std::regex_search(svg, box, std::regex(R"re(viewBox="0 0 (\d+) (\d+)")re"))) {
    failure = "no viewBox: " + svg;
    return std::nullopt;
  }
  const int width = std::stoi(box[1]) * scale;
  const int height = std::stoi(box[2]) * scale;
  std::vector<unsigned char> pixels(static_cast<std::size_t>(width) * static_cast<std::size_t>(height), 255);
  std::smatch path;
  if (!std::regex_search(svg, path, std::regex(R"re(<path fill="#000" d="([^"]*)"/>)re"))) {
    failure = "no path: " + svg;
    return std::nullopt;
  }
  const std::string d = path[1];
  const std::regex rectangle(R"re(M(\d+) (\d+)h(\d+)v(\d+)h-(\d+)z)re");
  std::size_t covered = 0;
  for (auto it = std::sregex_iterator(d.begin(), d.end(), rectangle); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    if (m[3] != m[5]) {
      failure = "a rectangle that does not close: " + m.str();
      return std::nullopt;
    }
    covered += static_cast<std::size_t>(m.length());
    const int x = std::stoi(m[1]) * scale;
    const int y = std::stoi(m[2]) * scale;
    const int w = std::stoi(m[3]) * scale;
    const int h = std::stoi(m[4]) * scale;
    for (int row = y; row < y + h && row < height; ++row) {
      for (int column = x; column < x + w && column < width; ++column) {
        pixels[static_cast<std::size_t>(row) * static_cast<std::size_t>(width) + static_cast<std::size_t>(column)] = 0;
      }
    }
  }
  if (covered != d.size()) {
    failure = "the path holds something other than rectangles: " + d;
    return std::nullopt;
  }
  std::string pgm = "P5\n" + std::to_string(width) + " " + std::to_string(height) + "\n255\n";
  pgm.append(pixels.begin(), pixels.end());
  return pgm;
}

}  // namespace codepayload::testing
