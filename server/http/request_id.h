// Request ids (X-Request-Id): every request has one, echoed in its answer and
// written in its access-log line. A trusted proxy's id is taken when it is
// acceptable; otherwise one is generated (D-P10, D-P11).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace codepayload::server {

inline constexpr std::size_t kMaxRequestIdLength = 128;

// 128 random bits as 32 lowercase hex digits ("3f9c0b1e..."). Unique, not
// secret: drawn from a per-thread generator seeded from the system's entropy.
std::string generateRequestId();

// 1 to kMaxRequestIdLength characters, each a letter, a digit or one of
// "-_.:@+/=" (what UUIDs, hex, base64 and the usual proxy ids use; nothing
// that could end a header line or break a log field).
bool acceptableRequestId(std::string_view id);

}  // namespace codepayload::server
