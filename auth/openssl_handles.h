// Owning handles for the OpenSSL objects the project creates: a unique_ptr
// each, freed by its own OpenSSL function.
#pragma once

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>

namespace codepayload::openssl {

template <auto Free>
struct FreeWith {
  template <typename Object>
  void operator()(Object* object) const {
    Free(object);
  }
};

using PrivateKey = std::unique_ptr<EVP_PKEY, FreeWith<EVP_PKEY_free>>;
using KeyContext = std::unique_ptr<EVP_PKEY_CTX, FreeWith<EVP_PKEY_CTX_free>>;
using Bio = std::unique_ptr<BIO, FreeWith<BIO_free>>;
using Bignum = std::unique_ptr<BIGNUM, FreeWith<BN_free>>;
using Certificate = std::unique_ptr<X509, FreeWith<X509_free>>;
using CertificateExtension = std::unique_ptr<X509_EXTENSION, FreeWith<X509_EXTENSION_free>>;
using DigestContext = std::unique_ptr<EVP_MD_CTX, FreeWith<EVP_MD_CTX_free>>;
using EcdsaSignature = std::unique_ptr<ECDSA_SIG, FreeWith<ECDSA_SIG_free>>;
using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, FreeWith<EVP_CIPHER_CTX_free>>;
using Kdf = std::unique_ptr<EVP_KDF, FreeWith<EVP_KDF_free>>;
using KdfContext = std::unique_ptr<EVP_KDF_CTX, FreeWith<EVP_KDF_CTX_free>>;

}  // namespace codepayload::openssl
