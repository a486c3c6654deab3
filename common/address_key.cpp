#include "common/address_key.h"

#include <arpa/inet.h>

#include <algorithm>

namespace codepayload::common {

std::string addressKey(std::string_view address) {
  std::string text(address.substr(0, address.find('%')));  // no zone id
  unsigned char bytes[16];
  if (::inet_pton(AF_INET6, text.c_str(), bytes) != 1) return std::string(address);
  static constexpr unsigned char kMappedPrefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
  if (std::equal(bytes, bytes + 12, kMappedPrefix)) {
    char dotted[INET_ADDRSTRLEN];
    ::inet_ntop(AF_INET, bytes + 12, dotted, sizeof dotted);
    return dotted;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string key;
  for (int index = 0; index < 8; ++index) {
    if (index > 0 && index % 2 == 0) key.push_back(':');
    key.push_back(kHex[bytes[index] >> 4]);
    key.push_back(kHex[bytes[index] & 0x0F]);
  }
  return key + "::/64";
}

}  // namespace codepayload::common
