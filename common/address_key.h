// The key under which limits count a client address: what one client usually
// controls. The token endpoint's failure throttle (auth/auth_throttle) and the
// per-address connection slots (server/connections/http_transport) both use it.
#pragma once

#include <string>
#include <string_view>

namespace codepayload::common {

// An IPv4 address as given, an IPv4-mapped IPv6 address as its IPv4 form, any
// other IPv6 address as its /64 prefix ("2001:0db8:0001:0002::/64", a zone id
// ignored); text that is no IP address as given.
std::string addressKey(std::string_view address);

}  // namespace codepayload::common
