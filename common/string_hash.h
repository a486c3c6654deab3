// A hash that lets unordered containers keyed by std::string be searched with
// a std::string_view (no temporary string per lookup). Use it together with
// std::equal_to<>.
#pragma once

#include <cstddef>
#include <functional>
#include <string_view>

namespace codepayload::common {

struct TransparentStringHash {
  using is_transparent = void;
  std::size_t operator()(std::string_view text) const noexcept { return std::hash<std::string_view>{}(text); }
};

}  // namespace codepayload::common
