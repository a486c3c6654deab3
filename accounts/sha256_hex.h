// SHA-256 in lower-case hex: how session ids and recovery codes are stored.
#pragma once

#include <string>
#include <string_view>

namespace codepayload::accounts {

// 64 lower-case hex digits.
std::string sha256Hex(std::string_view bytes);

}  // namespace codepayload::accounts
