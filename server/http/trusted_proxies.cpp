#include "server/http/trusted_proxies.h"

#include <Poco/Net/IPAddress.h>

#include <optional>

#include "app/address_blocks.h"
#include "common/ascii.h"

namespace codepayload::server {

namespace {

// A hop's address: "192.0.2.43", "192.0.2.43:47011", "2001:db8::17",
// "[2001:db8::17]", "[2001:db8::17]:4711".
std::optional<Poco::Net::IPAddress> parseHop(std::string_view text) {
  text = common::trimSpaceAndTab(text);
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view rest = text.substr(close + 1);
    if (!rest.empty() && rest.front() != ':') return std::nullopt;
    const auto address = app::parseIpAddress(text.substr(1, close - 1));
    if (!address || address->family() != Poco::Net::IPAddress::IPv6) return std::nullopt;
    return address;
  }
  const auto colon = text.find(':');
  if (colon != std::string_view::npos && text.find(':', colon + 1) == std::string_view::npos) {
    text = text.substr(0, colon);  // IPv4 with a port
  }
  return app::parseIpAddress(text);
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

}  // namespace

TrustedProxies TrustedProxies::parse(std::string_view list) {
  TrustedProxies proxies;
  proxies.blocks_ = app::parseAddressBlocks(list);
  return proxies;
}

bool TrustedProxies::contains(const Poco::Net::IPAddress& address) const {
  const Poco::Net::IPAddress host = app::unmappedAddress(address);
  for (const app::AddressBlock& block : blocks_) {
    if (block.network.family() != host.family()) continue;
    if ((host & Poco::Net::IPAddress(block.prefixLength, host.family())) == block.network) return true;
  }
  return false;
}

std::vector<std::string> TrustedProxies::text() const {
  std::vector<std::string> result;
  for (const app::AddressBlock& block : blocks_) {
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
  Poco::Net::IPAddress current = app::unmappedAddress(peer);
  const std::vector<std::string> chain = hops(header, values);
  for (auto hop = chain.rbegin(); hop != chain.rend(); ++hop) {
    const auto address = parseHop(*hop);
    if (!address) break;
    current = app::unmappedAddress(*address);
    if (!proxies.contains(current)) break;
  }
  return current.toString();
}

}  // namespace codepayload::server
