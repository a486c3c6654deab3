#include "server/http/trusted_proxies.h"

#include <Poco/Net/IPAddress.h>

#include <charconv>
#include <optional>
#include <stdexcept>

#include "common/ascii.h"

namespace codepayload::server {

namespace {

// An IPv4-mapped IPv6 address as its IPv4 form; any other address as it is.
Poco::Net::IPAddress unmapped(const Poco::Net::IPAddress& address) {
  if (address.family() != Poco::Net::IPAddress::IPv6 || !address.isIPv4Mapped()) return address;
  const auto* bytes = static_cast<const unsigned char*>(address.addr());
  return Poco::Net::IPAddress(bytes + 12, 4);
}

// A literal IP address only (no host name, no zone id).
std::optional<Poco::Net::IPAddress> parseAddress(std::string_view text) {
  if (text.empty() || text.find('%') != std::string_view::npos) return std::nullopt;
  Poco::Net::IPAddress address;
  if (!Poco::Net::IPAddress::tryParse(std::string(text), address)) return std::nullopt;
  return address;
}

// A hop's address: "192.0.2.43", "192.0.2.43:47011", "2001:db8::17",
// "[2001:db8::17]", "[2001:db8::17]:4711".
std::optional<Poco::Net::IPAddress> parseHop(std::string_view text) {
  text = common::trimSpaceAndTab(text);
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view rest = text.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') return std::nullopt;
    const auto address = parseAddress(text.substr(1, close - 1));
    if (!address || address->family() != Poco::Net::IPAddress::IPv6) return std::nullopt;
    return address;
  }
  const auto colon = text.find(':');
  if (colon != std::string_view::npos && text.find(':', colon + 1) == std::string_view::npos) {
    text = text.substr(0, colon);  // IPv4 with a port
  }
  return parseAddress(text);
}

// Splits `text` at each `separator` outside a quoted string.
std::vector<std::string_view> splitOutsideQuotes(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  bool quoted = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted && c == '\\') {
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (!quoted && c == separator) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(text.substr(start));
  return parts;
}

// The value of a Forwarded element's "for" parameter, unquoted; "" when it has none.
std::string forParameter(std::string_view element) {
  for (const std::string_view pair : splitOutsideQuotes(element, ';')) {
    const std::string_view trimmed = common::trimSpaceAndTab(pair);
    const auto equals = trimmed.find('=');
    if (equals == std::string_view::npos) continue;
    if (!common::equalsIgnoringAsciiCase(common::trimSpaceAndTab(trimmed.substr(0, equals)), "for")) continue;
    std::string_view value = common::trimSpaceAndTab(trimmed.substr(equals + 1));
    std::string unquoted;
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
      value = value.substr(1, value.size() - 2);
      for (std::size_t i = 0; i < value.size(); ++i) {
        if (value[i] == '\\' && i + 1 < value.size()) ++i;
        unquoted.push_back(value[i]);
      }
      return unquoted;
    }
    return std::string(value);
  }
  return {};
}

// The hops `header`'s field lines name, left (the original client) to right
// (the hop the peer added).
std::vector<std::string> hops(ForwardedHeader header, std::span<const std::string_view> values) {
  std::vector<std::string> result;
  for (const std::string_view line : values) {
    for (const std::string_view element : splitOutsideQuotes(line, ',')) {
      if (header == ForwardedHeader::Forwarded) {
        result.push_back(forParameter(element));
      } else {
        result.emplace_back(common::trimSpaceAndTab(element));
      }
    }
  }
  return result;
}

AddressBlock parseBlock(std::string_view entry) {
  const auto slash = entry.find('/');
  const auto address = parseAddress(common::trimSpaceAndTab(entry.substr(0, slash)));
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
  // An IPv4-mapped block ("::ffff:10.0.0.0/104") is the IPv4 block it maps.
  const Poco::Net::IPAddress host = unmapped(*address);
  if (host.family() != address->family()) {
    if (length < 96) throw refuse();
    length -= 96;
  }
  return AddressBlock{host & Poco::Net::IPAddress(length, host.family()), length};
}

}  // namespace

TrustedProxies TrustedProxies::parse(std::string_view list) {
  TrustedProxies proxies;
  if (common::trimSpaceAndTab(list).empty()) return proxies;
  for (const std::string_view entry : splitOutsideQuotes(list, ',')) {
    proxies.blocks_.push_back(parseBlock(common::trimSpaceAndTab(entry)));
  }
  return proxies;
}

bool TrustedProxies::contains(const Poco::Net::IPAddress& address) const {
  const Poco::Net::IPAddress host = unmapped(address);
  for (const AddressBlock& block : blocks_) {
    if (block.network.family() != host.family()) continue;
    if ((host & Poco::Net::IPAddress(block.prefixLength, host.family())) == block.network) return true;
  }
  return false;
}

std::vector<std::string> TrustedProxies::text() const {
  std::vector<std::string> result;
  for (const AddressBlock& block : blocks_) {
    result.push_back(block.network.toString() + "/" + std::to_string(block.prefixLength));
  }
  return result;
}

std::string_view forwardedHeaderName(ForwardedHeader header) {
  return header == ForwardedHeader::Forwarded ? "Forwarded" : "X-Forwarded-For";
}

std::optional<ForwardedHeader> forwardedHeaderNamed(std::string_view name) {
  for (const ForwardedHeader header : {ForwardedHeader::XForwardedFor, ForwardedHeader::Forwarded}) {
    if (common::equalsIgnoringAsciiCase(name, forwardedHeaderName(header))) return header;
  }
  return std::nullopt;
}

std::string forwardedClient(const TrustedProxies& proxies, const Poco::Net::IPAddress& peer, ForwardedHeader header,
                            std::span<const std::string_view> values) {
  if (!proxies.contains(peer)) return peer.toString();
  Poco::Net::IPAddress current = unmapped(peer);
  const std::vector<std::string> chain = hops(header, values);
  for (auto hop = chain.rbegin(); hop != chain.rend(); ++hop) {
    const auto address = parseHop(*hop);
    if (!address) break;
    current = unmapped(*address);
    if (!proxies.contains(current)) break;
  }
  return current.toString();
}

}  // namespace codepayload::server
