#include "accounts/password_hasher.h"

#include <argon2.h>
#include <openssl/crypto.h>
#include <openssl/rand.h>

#include <charconv>
#include <vector>

#include "auth/base64.h"

namespace codepayload::accounts {

namespace {

constexpr std::string_view kPrefix = "$argon2id$v=19$";
constexpr std::size_t kMinSaltBytes = 8;
constexpr std::size_t kMaxSaltBytes = 64;
constexpr std::size_t kMinHashBytes = 16;
constexpr std::size_t kMaxHashBytes = 64;

struct DecodedHash {
  Argon2Parameters parameters;
  std::string salt;
  std::string hash;
};

// PHC base64: the standard alphabet without padding.
std::string encodePhcBase64(std::string_view bytes) {
  std::string text = auth::encodeBase64(bytes);
  while (!text.empty() && text.back() == '=') text.pop_back();
  return text;
}

bool decodePhcBase64(std::string_view text, std::string& out) {
  if (text.find('=') != std::string_view::npos) return false;
  std::string padded(text);
  while (padded.size() % 4 != 0) padded.push_back('=');
  return auth::decodeBase64Strict(padded, out);
}

// "<name>=<decimal>" at the start of `text`, followed by `end` or the end.
bool readParameter(std::string_view& text, std::string_view name, std::uint32_t& value, char end) {
  if (text.substr(0, name.size() + 1) != std::string(name) + "=") return false;
  text.remove_prefix(name.size() + 1);
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const auto [stop, error] = std::from_chars(first, last, value);
  if (error != std::errc() || stop == first || (stop - first > 1 && *first == '0')) return false;
  text.remove_prefix(static_cast<std::size_t>(stop - first));
  if (end != '\0') {
    if (text.empty() || text.front() != end) return false;
    text.remove_prefix(1);
  }
  return true;
}

DecodedHash decodeHash(std::string_view encoded) {
  const auto refuse = [](std::string_view why) -> PasswordHashError {
    return PasswordHashError("stored password hash is not readable: " + std::string(why));
  };
  if (encoded.substr(0, kPrefix.size()) != kPrefix) throw refuse("not an argon2id version 19 PHC string");
  std::string_view rest = encoded.substr(kPrefix.size());
  DecodedHash decoded;
  Argon2Parameters& parameters = decoded.parameters;
  if (!readParameter(rest, "m", parameters.memoryKib, ',') || !readParameter(rest, "t", parameters.passes, ',') ||
      !readParameter(rest, "p", parameters.lanes, '$')) {
    throw refuse("malformed parameters");
  }
  if (parameters.lanes < 1 || parameters.lanes > PasswordHasher::kMaxLanes || parameters.passes < 1 ||
      parameters.passes > PasswordHasher::kMaxPasses || parameters.memoryKib < 8 * parameters.lanes ||
      parameters.memoryKib > PasswordHasher::kMaxMemoryKib) {
    throw refuse("parameters out of range");
  }
  const std::size_t dollar = rest.find('$');
  if (dollar == std::string_view::npos) throw refuse("no hash");
  if (!decodePhcBase64(rest.substr(0, dollar), decoded.salt) || !decodePhcBase64(rest.substr(dollar + 1), decoded.hash))
    throw refuse("malformed base64");
  if (decoded.salt.size() < kMinSaltBytes || decoded.salt.size() > kMaxSaltBytes) throw refuse("salt length");
  if (decoded.hash.size() < kMinHashBytes || decoded.hash.size() > kMaxHashBytes) throw refuse("hash length");
  return decoded;
}

std::string rawHash(const Argon2Parameters& parameters, std::string_view password, std::string_view salt,
                    std::size_t length) {
  std::string hash(length, '\0');
  const int result = argon2id_hash_raw(parameters.passes, parameters.memoryKib, parameters.lanes, password.data(),
                                       password.size(), salt.data(), salt.size(), hash.data(), hash.size());
  if (result != ARGON2_OK) throw PasswordHashError(std::string("Argon2id failed: ") + argon2_error_message(result));
  return hash;
}

}  // namespace

PasswordHasher::PasswordHasher(Argon2Parameters parameters) : parameters_(parameters) {
  const Argon2Parameters& floor = kMinimumArgon2Parameters;
  if (parameters.memoryKib < floor.memoryKib || parameters.passes < floor.passes || parameters.lanes < floor.lanes) {
    throw PasswordHashError("Argon2id parameters below the minimum (m=" + std::to_string(floor.memoryKib) +
                            " KiB, t=" + std::to_string(floor.passes) + ", p=" + std::to_string(floor.lanes) + ")");
  }
  if (parameters.memoryKib > kMaxMemoryKib || parameters.passes > kMaxPasses || parameters.lanes > kMaxLanes) {
    throw PasswordHashError("Argon2id parameters above the limits (m=" + std::to_string(kMaxMemoryKib) +
                            " KiB, t=" + std::to_string(kMaxPasses) + ", p=" + std::to_string(kMaxLanes) + ")");
  }
  const std::vector<unsigned char> zeroSalt(kSaltBytes, 0);
  dummyHash_ = hashWithSalt("no account has this password", zeroSalt);
}

std::string PasswordHasher::hash(std::string_view password) const {
  unsigned char salt[kSaltBytes];
  if (RAND_bytes(salt, sizeof salt) != 1) throw PasswordHashError("the random generator failed");
  return hashWithSalt(password, salt);
}

std::string PasswordHasher::hashWithSalt(std::string_view password, std::span<const unsigned char> salt) const {
  if (salt.size() < kMinSaltBytes || salt.size() > kMaxSaltBytes) throw PasswordHashError("salt length");
  const std::string_view saltText(reinterpret_cast<const char*>(salt.data()), salt.size());
  const std::string hash = rawHash(parameters_, password, saltText, kHashBytes);
  return std::string(kPrefix) + "m=" + std::to_string(parameters_.memoryKib) +
         ",t=" + std::to_string(parameters_.passes) + ",p=" + std::to_string(parameters_.lanes) + "$" +
         encodePhcBase64(saltText) + "$" + encodePhcBase64(hash);
}

bool PasswordHasher::verify(std::string_view password, std::string_view encoded) const {
  const DecodedHash decoded = decodeHash(encoded);
  const std::string computed = rawHash(decoded.parameters, password, decoded.salt, decoded.hash.size());
  return CRYPTO_memcmp(computed.data(), decoded.hash.data(), computed.size()) == 0;
}

void PasswordHasher::verifyNothing(std::string_view password) const { (void)verify(password, dummyHash_); }

bool PasswordHasher::needsRehash(std::string_view encoded) const {
  try {
    const DecodedHash decoded = decodeHash(encoded);
    return decoded.parameters != parameters_ || decoded.salt.size() != kSaltBytes || decoded.hash.size() != kHashBytes;
  } catch (const PasswordHashError&) {
    return true;
  }
}

}  // namespace codepayload::accounts
