// A dictionary as read from a text file, with the line each AI came from so
// that later checks can point at it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/dictionary.h"

namespace codepayload::importer {

struct ParsedDictionary {
  Dictionary dictionary;
  std::string fileName;              // as named in messages: "gs1-syntax-dictionary-2026-01-27.txt"
  std::vector<std::size_t> aiLines;  // aiLines[i]: the line of dictionary.ais[i]
};

}  // namespace codepayload::importer
