// The registry on SQLite: files in the data directory, opened only by
// app/registry.cpp (and read by the tests that look behind the interfaces):
//   registry.db                     the database (0600)
//   client-secret-pepper            the pepper of client secrets (0600)
//   token-signing-key.pem           the signing key, 0600: an EC P-256 private key
//                                   (tokens are ES256; created on first use) or an
//                                   RSA private key of at least 2048 bits (RS256)
//   token-signing-key.previous.pem, token-signing-key.next.pem
//                                   optional, 0600, each EC P-256 or RSA: keys that
//                                   are published in the JWKS and accepted, but do
//                                   not sign
//
// Key rotation (checklist JK-05), each step a restart of the server:
//  1. put the next key in token-signing-key.next.pem (e.g. `openssl genpkey
//     -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out token-signing-key.next.pem
//     && chmod 600 ...`; an RSA key instead, e.g. `openssl genpkey -algorithm RSA
//     -pkeyopt rsa_keygen_bits:2048 -out ...`, keeps RS256 for verifiers that need
//     it): it is published, not used; wait until JWKS caches elsewhere have it;
//  2. rename token-signing-key.pem to token-signing-key.previous.pem and
//     token-signing-key.next.pem to token-signing-key.pem: the new key signs,
//     tokens of the old one keep verifying and it stays in the JWKS;
//  3. after the token lifetime plus leeway, remove the .previous file.
#pragma once

#include <memory>
#include <string_view>

#include "app/registry.h"

namespace codepayload::app {

inline constexpr std::string_view kRegistryDatabaseFile = "registry.db";
inline constexpr std::string_view kPepperFile = "client-secret-pepper";
inline constexpr std::string_view kSigningKeyFile = "token-signing-key.pem";
inline constexpr std::string_view kPreviousSigningKeyFile = "token-signing-key.previous.pem";
inline constexpr std::string_view kNextSigningKeyFile = "token-signing-key.next.pem";

std::unique_ptr<Registry> openSqliteRegistry(const RegistryLocation& location);

}  // namespace codepayload::app
