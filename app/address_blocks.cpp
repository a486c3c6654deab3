#include "app/address_blocks.h"

#include <charconv>
#include <stdexcept>
#include <string>

#include "common/ascii.h"

namespace codepayload::app {

namespace {

AddressBlock parseBlock(std::string_view entry) {
  const auto slash = entry.find('/');
  const auto address = parseIpAddress(common::trimSpaceAndTab(entry.substr(0, slash)));
  const auto refuse = [entry] {
    return std::invalid_argument("not an IP address or CIDR block: " + std::string(entry));
  };
  if (!address) throw refuse();
  const unsigned maxLength = address->family() == Poco::Net::IPAddress::IPv4 ? 32 : 128;
  unsigned length = maxLength;
  if (slash != std::string_view::npos) {
    const std::string_view digits = common::trimSpaceAndTab(entry.substr(slash + 1));
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), length);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() || length > maxLength) {
      throw refuse();
    }
  }
  const Poco::Net::IPAddress host = unmappedAddress(*address);
  if (host.family() != address->family()) {
    if (length < 96) throw refuse();
    length -= 96;
  }
  return AddressBlock{host & Poco::Net::IPAddress(length, host.family()), length};
}

}  // namespace

std::optional<Poco::Net::IPAddress> parseIpAddress(std::string_view text) {
  if (text.empty() || text.find('%') != std::string_view::npos) return std::nullopt;
  Poco::Net::IPAddress address;
  if (!Poco::Net::IPAddress::tryParse(std::string(text), address)) return std::nullopt;
  return address;
}

Poco::Net::IPAddress unmappedAddress(const Poco::Net::IPAddress& address) {
  if (address.family() != Poco::Net::IPAddress::IPv6 || !address.isIPv4Mapped()) return address;
  const auto* bytes = static_cast<const unsigned char*>(address.addr());
  return Poco::Net::IPAddress(bytes + 12, 4);
}

std::vector<AddressBlock> parseAddressBlocks(std::string_view list) {
  std::vector<AddressBlock> blocks;
  if (common::trimSpaceAndTab(list).empty()) return blocks;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = list.find(',', start);
    blocks.push_back(parseBlock(common::trimSpaceAndTab(list.substr(start, comma - start))));
    if (comma == std::string_view::npos) return blocks;
    start = comma + 1;
  }
}

}  // namespace codepayload::app
