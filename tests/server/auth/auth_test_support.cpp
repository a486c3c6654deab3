#include "auth_test_support.h"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "server/auth/base64.h"

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
std::filesystem::path buildTreeKeyFile(const char* name) {
  const std::filesystem::path dir(CODEPAYLOAD_TEST_KEY_DIR);
  std::filesystem::create_directories(dir);
  return dir / name;
}

void installKey(const char* name, const std::filesystem::path& destination) {
  std::filesystem::copy_file(buildTreeKeyFile(name), destination);
  std::filesystem::permissions(destination, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
}

}  // namespace

const SigningKey& sharedTestKey() {
  static const SigningKey key = SigningKey::loadOrCreate(buildTreeKeyFile("shared-test-key.pem"));
  return key;
}

const SigningKey& otherTestKey() {
  static const SigningKey key = SigningKey::loadOrCreate(buildTreeKeyFile("other-test-key.pem"));
  return key;
}

void installSharedTestKey(const std::filesystem::path& destination) {
  sharedTestKey();  // the file exists from here on
  installKey("shared-test-key.pem", destination);
}

void installOtherTestKey(const std::filesystem::path& destination) {
  otherTestKey();
  installKey("other-test-key.pem", destination);
}

namespace {

struct PkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
struct MdCtxFree {
  void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
};

std::unique_ptr<EVP_PKEY, PkeyFree> privateKeyOf(const SigningKey& key) {
  std::ostringstream pem;
  key.rsaKey()->save(nullptr, &pem);
  const std::string text = pem.str();
  BIO* bio = BIO_new_mem_buf(text.data(), static_cast<int>(text.size()));
  EVP_PKEY* pkey = PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr);
  BIO_free(bio);
  if (pkey == nullptr) throw std::runtime_error("cannot read the test key");
  return std::unique_ptr<EVP_PKEY, PkeyFree>(pkey);
}

std::string signingInput(std::string_view headerJson, std::string_view payloadJson) {
  return encodeBase64Url(headerJson) + "." + encodeBase64Url(payloadJson);
}

}  // namespace

std::string signRsa(std::string_view headerJson, std::string_view payloadJson, const SigningKey& key,
                    std::string_view algorithm) {
  const EVP_MD* digest = algorithm == "RS512" ? EVP_sha512() : algorithm == "RS384" ? EVP_sha384() : EVP_sha256();
  const std::string input = signingInput(headerJson, payloadJson);
  const auto pkey = privateKeyOf(key);
  std::unique_ptr<EVP_MD_CTX, MdCtxFree> context(EVP_MD_CTX_new());
  std::size_t length = 0;
  if (EVP_DigestSignInit(context.get(), nullptr, digest, nullptr, pkey.get()) != 1 ||
      EVP_DigestSign(context.get(), nullptr, &length, reinterpret_cast<const unsigned char*>(input.data()),
                     input.size()) != 1) {
    throw std::runtime_error("RSA signing failed");
  }
  std::string signature(length, '\0');
  if (EVP_DigestSign(context.get(), reinterpret_cast<unsigned char*>(signature.data()), &length,
                     reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1) {
    throw std::runtime_error("RSA signing failed");
  }
  signature.resize(length);
  return input + "." + encodeBase64Url(signature);
}

std::string signRs256(std::string_view headerJson, std::string_view payloadJson, const SigningKey& key) {
  return signRsa(headerJson, payloadJson, key, "RS256");
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

Organisation FaultInjectingRegistry::createOrganisation(std::string_view name, Plan plan) {
  check();
  return inner_.createOrganisation(name, plan);
}

void FaultInjectingRegistry::setPlan(std::string_view organisationId, Plan plan) {
  check();
  inner_.setPlan(organisationId, plan);
}

void FaultInjectingRegistry::setSubscription(std::string_view organisationId, Subscription subscription) {
  check();
  inner_.setSubscription(organisationId, subscription);
}

std::optional<Organisation> FaultInjectingRegistry::findOrganisation(std::string_view organisationId) {
  check();
  return inner_.findOrganisation(organisationId);
}

std::vector<Organisation> FaultInjectingRegistry::listOrganisations() {
  check();
  return inner_.listOrganisations();
}

CreatedClient FaultInjectingRegistry::createClient(std::string_view organisationId, std::string_view name,
                                                   const std::vector<std::string>& scopes) {
  check();
  return inner_.createClient(organisationId, name, scopes);
}

std::vector<ClientRecord> FaultInjectingRegistry::listClients(std::string_view organisationId) {
  check();
  return inner_.listClients(organisationId);
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

std::vector<ClientStatus> FaultInjectingRegistry::listClientStatuses() {
  check();
  return inner_.listClientStatuses();
}

std::uint64_t FaultInjectingRegistry::version() {
  check();
  return inner_.version();
}

}  // namespace codepayload::auth::testing
