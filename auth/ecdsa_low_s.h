// The one accepted spelling of an ES256 signature. An ECDSA signature (R, S)
// has a twin (R, n - S) that verifies just as well (n: the order of P-256), so
// a token would have two spellings with one meaning. The service accepts only
// the "low-S" one, S <= n/2 (as Bitcoin's BIP 62 and libsecp256k1 do), and
// its issuer writes only that one.
//
// Signatures here are JWS ES256 signatures (RFC 7518 §3.4): R || S, 32
// big-endian bytes each.
#pragma once

#include <cstddef>
#include <span>

namespace codepayload::auth {

inline constexpr std::size_t kEs256SignatureSize = 64;

// True when S (the last 32 bytes) is at most n/2. S = 0 counts as low: such a
// signature never verifies anyway.
bool hasLowS(std::span<const unsigned char, kEs256SignatureSize> signature);

// Replaces S by n - S when S > n/2, so that hasLowS() holds; leaves a low-S
// signature unchanged. Returns true when it changed S. For S >= n (never a
// valid signature) S is left as it is and false is returned.
bool makeLowS(std::span<unsigned char, kEs256SignatureSize> signature);

}  // namespace codepayload::auth
