#include "auth/jws_signer.h"

#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/rsa.h>

#include <span>

#include "auth/ecdsa_low_s.h"
#include "auth/openssl_handles.h"
#include "auth/sha256.h"

namespace codepayload::auth {

namespace {

using openssl::EcdsaSignature;
using openssl::KeyContext;

constexpr int kP256ScalarBytes = 32;

[[noreturn]] void fail(const std::string& what) {
  ERR_clear_error();  // the reasons stay queued on this thread otherwise
  throw JwsSigningError(what);
}

// R || S of a DER ECDSA-Sig-Value, each left-padded to 32 bytes, low-S.
std::string rawEs256Signature(const unsigned char* der, std::size_t derLength) {
  const unsigned char* cursor = der;
  const EcdsaSignature parsed(d2i_ECDSA_SIG(nullptr, &cursor, static_cast<long>(derLength)));
  if (parsed == nullptr) fail("OpenSSL wrote an ECDSA signature that is not DER");
  const BIGNUM* r = nullptr;
  const BIGNUM* s = nullptr;
  ECDSA_SIG_get0(parsed.get(), &r, &s);
  std::string raw(kEs256SignatureSize, '\0');
  auto* bytes = reinterpret_cast<unsigned char*>(raw.data());
  if (BN_bn2binpad(r, bytes, kP256ScalarBytes) != kP256ScalarBytes ||
      BN_bn2binpad(s, bytes + kP256ScalarBytes, kP256ScalarBytes) != kP256ScalarBytes) {
    fail("OpenSSL wrote an ECDSA signature longer than P-256's");
  }
  makeLowS(std::span<unsigned char, kEs256SignatureSize>(bytes, kEs256SignatureSize));
  return raw;
}

}  // namespace

// A signing context set up once (key, operation, padding, digest). It is never
// used itself: each signature works on a duplicate, and EVP_PKEY_CTX_dup only
// reads it (and takes references), so threads share it without a lock.
struct JwsSigner::Prepared {
  KeyContext context;
};

JwsSigner::JwsSigner(EVP_PKEY* key, SigningAlgorithm algorithm)
    : algorithm_(algorithm), prepared_(std::make_unique<Prepared>()) {
  prepared_->context.reset(EVP_PKEY_CTX_new_from_pkey(nullptr, key, nullptr));
  if (prepared_->context == nullptr || EVP_PKEY_sign_init(prepared_->context.get()) != 1 ||
      EVP_PKEY_CTX_set_signature_md(prepared_->context.get(), EVP_sha256()) != 1) {
    fail("cannot prepare the token signing key for signing");
  }
  if (algorithm == SigningAlgorithm::RS256 &&
      EVP_PKEY_CTX_set_rsa_padding(prepared_->context.get(), RSA_PKCS1_PADDING) != 1) {
    fail("cannot prepare the RSA token signing key for PKCS #1 v1.5 signatures");
  }
}

JwsSigner::~JwsSigner() = default;

std::string JwsSigner::sign(std::string_view signingInput) const {
  openssl::Sha256Digest digest;
  if (!openssl::sha256(signingInput, digest)) fail("SHA-256 of a token failed");
  const KeyContext context(EVP_PKEY_CTX_dup(prepared_->context.get()));
  if (context == nullptr) fail("cannot copy the token signing context");
  std::size_t length = 0;
  if (EVP_PKEY_sign(context.get(), nullptr, &length, digest.data(), digest.size()) != 1) {
    fail("cannot size a token signature");
  }
  std::string signature(length, '\0');
  auto* bytes = reinterpret_cast<unsigned char*>(signature.data());
  if (EVP_PKEY_sign(context.get(), bytes, &length, digest.data(), digest.size()) != 1) {
    fail("OpenSSL could not sign a token");
  }
  if (algorithm_ == SigningAlgorithm::ES256) return rawEs256Signature(bytes, length);
  signature.resize(length);
  return signature;
}

}  // namespace codepayload::auth
