// Behind a reverse proxy (settings http.trustedProxies, http.forwardedHeader):
// which peers may tell the service who their client is, and who the client of
// a request then is. From a trusted peer only, the client address comes from
// the one header the proxy writes: X-Forwarded-For (the default) or Forwarded
// (RFC 7239). The other one is never read: a proxy passes a client's copy of
// a header it does not write through untouched, so its every entry may be
// made up (D-S14). The chain is walked from its right end (the hop the peer
// itself added) past every trusted proxy, and the first address not trusted
// is the client (D-P12). From any other peer both headers are ignored. PROXY
// protocol is not read (D-P14).
#pragma once

#include <Poco/Net/IPAddress.h>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "app/address_blocks.h"

namespace codepayload::server {

class TrustedProxies {
 public:
  TrustedProxies() = default;
  // A comma-separated CIDR list ("10.0.0.0/8, 192.168.1.7, fd00::/8"); an
  // address without a prefix is one host. Empty text: no trusted proxy.
  // Throws std::invalid_argument naming the entry that is not one.
  static TrustedProxies parse(std::string_view list);

  bool empty() const { return blocks_.empty(); }
  // An IPv4-mapped IPv6 address is matched as its IPv4 form.
  bool contains(const Poco::Net::IPAddress& address) const;
  // The blocks in canonical text ("10.0.0.0/8"), in the order given.
  std::vector<std::string> text() const;

  bool operator==(const TrustedProxies& other) const { return text() == other.text(); }

 private:
  std::vector<app::AddressBlock> blocks_;
};

// The header a trusted proxy writes the client's address into.
enum class ForwardedHeader { XForwardedFor, Forwarded };

// "X-Forwarded-For" or "Forwarded".
std::string_view forwardedHeaderName(ForwardedHeader header);
// The header `name` names, in any letter case ("x-forwarded-for"); nullopt
// for any other text.
std::optional<ForwardedHeader> forwardedHeaderNamed(std::string_view name);

// The request's client address (as text, e.g. "203.0.113.9", "2001:db8::1")
// when the connection's peer is `peer`, from `values`: every field line of the
// request's `header`, in order (the caller leaves the other header out).
// Returns the peer's address when it is not trusted, and the peer's or the
// last trusted hop's address when a hop's address cannot be read ("unknown",
// an obfuscated identifier, garbage): nothing is taken from a hop nobody
// trusted reported.
std::string forwardedClient(const TrustedProxies& proxies, const Poco::Net::IPAddress& peer, ForwardedHeader header,
                            std::span<const std::string_view> values);

}  // namespace codepayload::server
