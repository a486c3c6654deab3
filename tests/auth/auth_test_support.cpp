#include "auth_test_support.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "auth/base64.h"
#include "auth/openssl_handles.h"

namespace codepayload::auth::testing {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "codepayload-auth-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string readWholeFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream content;
  if (in) content << in.rdbuf();
  return content.str();
}

std::filesystem::path sourceRegistryMigrations() {
  return std::filesystem::path(CODEPAYLOAD_TEST_SOURCE_DB_DIR) / "registry";
}

std::string formEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string encoded;
  for (const char character : text) {
    const auto byte = static_cast<unsigned char>(character);
    const bool plain = (byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z') || (byte >= '0' && byte <= '9') ||
                       byte == '*' || byte == '-' || byte == '.' || byte == '_';
    if (plain) {
      encoded.push_back(character);
    } else {
      encoded.push_back('%');
      encoded.push_back(kHex[byte >> 4]);
      encoded.push_back(kHex[byte & 0x0F]);
    }
  }
  return encoded;
}

std::string basicRaw(std::string_view text) { return "Basic " + encodeBase64(text); }

std::string basic(std::string_view id, std::string_view secret) {
  return basicRaw(formEncode(id) + ":" + formEncode(secret));
}

namespace {

// Test keys are generated once per build tree and shared by every test
// process (ctest runs each test on its own); loadOrCreate makes the first
// process's key win when several start at once.
std::filesystem::path buildTreeKeyFile(std::string_view role, SigningAlgorithm algorithm) {
  const std::filesystem::path dir(CODEPAYLOAD_TEST_KEY_DIR);
  std::filesystem::create_directories(dir);
  return dir / (std::string(role) + "-test-key-" + std::string(signingAlgorithmName(algorithm)) + ".pem");
}

const SigningKey& testKey(std::string_view role, SigningAlgorithm algorithm) {
  static const SigningKey sharedEc =
      SigningKey::loadOrCreate(buildTreeKeyFile("shared", SigningAlgorithm::ES256), SigningAlgorithm::ES256);
  static const SigningKey otherEc =
      SigningKey::loadOrCreate(buildTreeKeyFile("other", SigningAlgorithm::ES256), SigningAlgorithm::ES256);
  // The RSA keys are made on first use only.
  if (algorithm == SigningAlgorithm::ES256) return role == "shared" ? sharedEc : otherEc;
  if (role == "shared") {
    static const SigningKey sharedRsa =
        SigningKey::loadOrCreate(buildTreeKeyFile("shared", SigningAlgorithm::RS256), SigningAlgorithm::RS256);
    return sharedRsa;
  }
  static const SigningKey otherRsa =
      SigningKey::loadOrCreate(buildTreeKeyFile("other", SigningAlgorithm::RS256), SigningAlgorithm::RS256);
  return otherRsa;
}

void installKey(std::string_view role, SigningAlgorithm algorithm, const std::filesystem::path& destination) {
  testKey(role, algorithm);  // the file exists from here on
  std::filesystem::copy_file(buildTreeKeyFile(role, algorithm), destination);
  std::filesystem::permissions(destination, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
}

}  // namespace

const SigningKey& sharedTestKey(SigningAlgorithm algorithm) { return testKey("shared", algorithm); }

const SigningKey& otherTestKey(SigningAlgorithm algorithm) { return testKey("other", algorithm); }

void installSharedTestKey(const std::filesystem::path& destination, SigningAlgorithm algorithm) {
  installKey("shared", algorithm, destination);
}

void installOtherTestKey(const std::filesystem::path& destination, SigningAlgorithm algorithm) {
  installKey("other", algorithm, destination);
}

std::string algorithmTestName(const ::testing::TestParamInfo<SigningAlgorithm>& info) {
  return std::string(signingAlgorithmName(info.param));
}

SigningAlgorithm otherAlgorithm(SigningAlgorithm algorithm) {
  return algorithm == SigningAlgorithm::ES256 ? SigningAlgorithm::RS256 : SigningAlgorithm::ES256;
}

namespace {

openssl::PrivateKey privateKeyOf(const SigningKey& key) {
  std::ostringstream pem;
  key.keyPair().save(nullptr, &pem);
  const std::string text = pem.str();
  BIO* bio = BIO_new_mem_buf(text.data(), static_cast<int>(text.size()));
  EVP_PKEY* pkey = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  if (pkey == nullptr) throw std::runtime_error("cannot read the test key");
  return openssl::PrivateKey(pkey);
}

std::string signingInput(std::string_view headerJson, std::string_view payloadJson) {
  return encodeBase64Url(headerJson) + "." + encodeBase64Url(payloadJson);
}

// The DER ECDSA-Sig-Value as R || S, each left-padded to 32 bytes, with S
// replaced by n - S when that gives the spelling `s` asks for (computed with
// OpenSSL's big numbers, independently of auth/ecdsa_low_s.cpp).
std::string rawEcdsaSignature(const std::string& der, EcdsaS s) {
  const auto* cursor = reinterpret_cast<const unsigned char*>(der.data());
  const openssl::EcdsaSignature signature(d2i_ECDSA_SIG(nullptr, &cursor, static_cast<long>(der.size())));
  if (signature == nullptr) throw std::runtime_error("not a DER ECDSA signature");
  const std::unique_ptr<EC_GROUP, decltype(&EC_GROUP_free)> group(EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1),
                                                                  &EC_GROUP_free);
  const std::unique_ptr<BN_CTX, decltype(&BN_CTX_free)> context(BN_CTX_new(), &BN_CTX_free);
  const openssl::Bignum halfOrder(BN_new());
  const openssl::Bignum twin(BN_new());
  if (group == nullptr || context == nullptr || halfOrder == nullptr || twin == nullptr ||
      BN_rshift1(halfOrder.get(), EC_GROUP_get0_order(group.get())) != 1 ||
      BN_sub(twin.get(), EC_GROUP_get0_order(group.get()), ECDSA_SIG_get0_s(signature.get())) != 1) {
    throw std::runtime_error("cannot compute n - S");
  }
  const bool isHigh = BN_cmp(ECDSA_SIG_get0_s(signature.get()), halfOrder.get()) > 0;
  const BIGNUM* chosen = isHigh == (s == EcdsaS::High) ? ECDSA_SIG_get0_s(signature.get()) : twin.get();
  std::string raw(64, '\0');
  auto* out = reinterpret_cast<unsigned char*>(raw.data());
  if (BN_bn2binpad(ECDSA_SIG_get0_r(signature.get()), out, 32) != 32 || BN_bn2binpad(chosen, out + 32, 32) != 32) {
    throw std::runtime_error("an ECDSA signature component is longer than 32 bytes");
  }
  return raw;
}

}  // namespace

std::string signJws(std::string_view headerJson, std::string_view payloadJson, const SigningKey& key,
                    const JwsSignatureOptions& options) {
  const EVP_MD* digest = EVP_get_digestbyname(std::string(options.digest).c_str());
  if (digest == nullptr) throw std::runtime_error("unknown digest " + std::string(options.digest));
  const std::string input = signingInput(headerJson, payloadJson);
  const auto pkey = privateKeyOf(key);
  openssl::DigestContext context(EVP_MD_CTX_new());
  std::size_t length = 0;
  if (EVP_DigestSignInit(context.get(), nullptr, digest, nullptr, pkey.get()) != 1 ||
      EVP_DigestSign(context.get(), nullptr, &length, reinterpret_cast<const unsigned char*>(input.data()),
                     input.size()) != 1) {
    throw std::runtime_error("signing failed");
  }
  std::string signature(length, '\0');
  if (EVP_DigestSign(context.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                     reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1) {
    throw std::runtime_error("signing failed");
  }
  signature.resize(length);
  if (key.algorithm() == SigningAlgorithm::ES256 && !options.derEcdsa)
    signature = rawEcdsaSignature(signature, options.ecdsaS);
  return input + "." + encodeBase64Url(signature);
}

std::string signHs256(std::string_view headerJson, std::string_view payloadJson, std::string_view secret) {
  const std::string input = signingInput(headerJson, payloadJson);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(input.data()), input.size(), mac, &length);
  return input + "." + encodeBase64Url(std::string_view(reinterpret_cast<const char*>(mac), length));
}

void FaultInjectingRegistry::check() const {
  if (failing) throw RegistryError(RegistryError::Kind::Storage, "registry database, injected fault: disk I/O error");
}

Organization FaultInjectingRegistry::createOrganization(std::string_view name, Plan plan) {
  check();
  return inner_.createOrganization(name, plan);
}

void FaultInjectingRegistry::setPlan(std::string_view organizationId, Plan plan) {
  check();
  inner_.setPlan(organizationId, plan);
}

void FaultInjectingRegistry::setSubscription(std::string_view organizationId, Subscription subscription) {
  check();
  inner_.setSubscription(organizationId, subscription);
}

std::optional<Organization> FaultInjectingRegistry::findOrganization(std::string_view organizationId) {
  check();
  return inner_.findOrganization(organizationId);
}

std::vector<Organization> FaultInjectingRegistry::listOrganizations() {
  check();
  return inner_.listOrganizations();
}

CreatedClient FaultInjectingRegistry::createClient(std::string_view organizationId, std::string_view name,
                                                   const std::vector<std::string>& scopes, std::string_view createdBy) {
  check();
  return inner_.createClient(organizationId, name, scopes, createdBy);
}

CreatedClient FaultInjectingRegistry::replaceClient(std::string_view clientId, std::string_view createdBy) {
  check();
  return inner_.replaceClient(clientId, createdBy);
}

std::vector<ClientRecord> FaultInjectingRegistry::listClients(std::string_view organizationId) {
  check();
  return inner_.listClients(organizationId);
}

std::optional<ClientRecord> FaultInjectingRegistry::findClient(std::string_view clientId) {
  check();
  return inner_.findClient(clientId);
}

void FaultInjectingRegistry::setClientState(std::string_view clientId, ClientState state) {
  check();
  inner_.setClientState(clientId, state);
}

std::optional<ClientAuthRecord> FaultInjectingRegistry::findClientForAuthentication(std::string_view clientId) {
  ++authenticationLookups;
  check();
  return inner_.findClientForAuthentication(clientId);
}

std::vector<ClientAuthRecord> FaultInjectingRegistry::listClientsForAuthentication() {
  check();
  return inner_.listClientsForAuthentication();
}

std::uint64_t FaultInjectingRegistry::version() {
  check();
  return inner_.version();
}

}  // namespace codepayload::auth::testing
