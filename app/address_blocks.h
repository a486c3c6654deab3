// IP addresses and CIDR blocks as settings write them ("10.0.0.0/8,
// 192.168.1.7, fd00::/8"). Here, below the server, so that every binary
// checks http.trustedProxies with the server's own parser and words.
#pragma once

#include <Poco/Net/IPAddress.h>

#include <optional>
#include <string_view>
#include <vector>

namespace codepayload::app {

// One CIDR block: an address and a prefix length.
struct AddressBlock {
  Poco::Net::IPAddress network;  // with the bits past the prefix cleared
  unsigned prefixLength = 0;
};

// A literal IP address only (no host name, no zone id).
std::optional<Poco::Net::IPAddress> parseIpAddress(std::string_view text);

// An IPv4-mapped IPv6 address as its IPv4 form; any other address as it is.
Poco::Net::IPAddress unmappedAddress(const Poco::Net::IPAddress& address);

// A comma-separated CIDR list; an address without a prefix is one host, an
// IPv4-mapped block the IPv4 block it maps. Empty text: no block. Throws
// std::invalid_argument("not an IP address or CIDR block: ENTRY").
std::vector<AddressBlock> parseAddressBlocks(std::string_view list);

}  // namespace codepayload::app
