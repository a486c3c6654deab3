// Near misses for the error messages: the selectable link type or the AI the
// caller probably meant (docs/decisions.md D-U7). Only called for a failure.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace codepayload {

class Snapshot;

namespace suggest {

// The selectable link type `value` probably meant: one equal to it ignoring
// case, else the one closest by edit distance (at most 2 after "gs1:", ignoring
// case), when exactly one is that close. A value without "gs1:" is also tried
// with it ("pip" -> "gs1:pip"). Empty when there is none.
std::string linkType(std::string_view value, std::span<const std::string> selectable);

// The AI `key` probably meant, if it is in the dictionary: the key with
// brackets and spaces taken away ("(01)" -> "01"), with the letters O/o read as
// 0 and I/l as 1 ("O1" -> "01"), or with a missing leading zero ("1" -> "01").
// Empty when none of these is a known AI: other edits are not suggested, as
// almost every two-digit number is an AI.
std::string ai(std::string_view key, const Snapshot& rules);

}  // namespace suggest
}  // namespace codepayload
