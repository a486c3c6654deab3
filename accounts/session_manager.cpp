#include "accounts/session_manager.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdexcept>

#include "accounts/sha256_hex.h"
#include "auth/base64.h"
#include "auth/random_strings.h"
#include "common/ascii.h"

namespace codepayload::accounts {

namespace {

constexpr std::string_view kCsrfLabel = "codepayload dashboard csrf";

bool isWellFormedId(std::string_view id) {
  if (id.size() != SessionManager::kIdLength) return false;
  for (const char c : id) {
    if (!common::isBase64UrlCharacter(c)) return false;
  }
  return true;
}

}  // namespace

std::string sessionIdDigest(std::string_view id) { return sha256Hex(id); }

std::string csrfTokenOf(std::string_view id) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int macLength = 0;
  if (HMAC(EVP_sha256(), id.data(), static_cast<int>(id.size()),
           reinterpret_cast<const unsigned char*>(kCsrfLabel.data()), kCsrfLabel.size(), mac, &macLength) == nullptr) {
    throw std::runtime_error("HMAC-SHA-256 failed");
  }
  return auth::encodeBase64Url(std::span<const unsigned char>(mac, macLength));
}

SessionManager::SessionManager(SessionStore& store, SessionSettings settings, auth::UnixClock clock)
    : store_(store), settings_(settings), clock_(std::move(clock)) {}

NewSession SessionManager::start(std::string_view principalId, std::string_view previousId) {
  if (!previousId.empty()) end(previousId);
  const std::int64_t now = clock_();
  NewSession session;
  session.id = auth::randomBase64Url(kIdBytes);
  session.csrfToken = csrfTokenOf(session.id);
  session.expiresAt = now + settings_.absoluteSeconds;
  store_.insertSession(
      StoredSession{sessionIdDigest(session.id), std::string(principalId), now, now, session.expiresAt});
  return session;
}

std::optional<ActiveSession> SessionManager::resume(std::string_view id) {
  if (!isWellFormedId(id)) return std::nullopt;
  const std::string digest = sessionIdDigest(id);
  const std::optional<StoredSession> stored = store_.findSession(digest);
  if (!stored) return std::nullopt;
  const std::int64_t now = clock_();
  if (now >= stored->expiresAt || now >= stored->lastSeenAt + settings_.idleSeconds) {
    store_.removeSession(digest);
    return std::nullopt;
  }
  store_.touchSession(digest, now);
  return ActiveSession{stored->principalId, csrfTokenOf(id), stored->createdAt, stored->expiresAt};
}

void SessionManager::end(std::string_view id) {
  if (isWellFormedId(id)) store_.removeSession(sessionIdDigest(id));
}

std::size_t SessionManager::endAllOf(std::string_view principalId) { return store_.removeSessionsOf(principalId); }

bool SessionManager::csrfTokenMatches(std::string_view id, std::string_view presented) {
  if (!isWellFormedId(id)) return false;
  const std::string expected = csrfTokenOf(id);
  if (presented.size() != expected.size()) return false;
  return CRYPTO_memcmp(expected.data(), presented.data(), expected.size()) == 0;
}

}  // namespace codepayload::accounts
