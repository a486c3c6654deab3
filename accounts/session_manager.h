// Dashboard sessions (OWASP Session Management cheat sheet): a session id of
// 256 random bits (base64url, 43 characters) lives only in the browser's
// cookie; the store keeps its SHA-256 digest, never the id. A session ends
// after 30 minutes without a request (idle) and 8 hours after sign-in
// (absolute), whichever comes first; every sign-in starts a new id and ends
// the session the browser held; "sign out everywhere" ends every session of
// an account. Each session has a CSRF token (OWASP CSRF cheat sheet,
// synchronizer token) derived from its id: HMAC-SHA-256 keyed with the id, so
// it needs no storage and a copy of the store cannot forge one
// (docs/decisions.md D-D5). Thread-safe when the store is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "auth/unix_clock.h"

namespace codepayload::accounts {

struct SessionSettings {
  std::int64_t idleSeconds = 30 * 60;
  std::int64_t absoluteSeconds = 8 * 60 * 60;
};

// A session as stored: the id's digest, never the id.
struct StoredSession {
  std::string idDigest;     // sessionIdDigest(id): 64 lower-case hex digits
  std::string principalId;  // a user's or an operator's id
  std::int64_t createdAt = 0;
  std::int64_t lastSeenAt = 0;
  std::int64_t expiresAt = 0;  // createdAt + absoluteSeconds

  bool operator==(const StoredSession&) const = default;
};

// Where sessions are kept (the registry's sessions table; memory in tests).
class SessionStore {
 public:
  virtual ~SessionStore() = default;
  virtual void insertSession(const StoredSession& session) = 0;
  virtual std::optional<StoredSession> findSession(std::string_view idDigest) = 0;
  virtual void touchSession(std::string_view idDigest, std::int64_t lastSeenAt) = 0;
  virtual void removeSession(std::string_view idDigest) = 0;
  // Removes every session of `principalId`; returns how many there were.
  virtual std::size_t removeSessionsOf(std::string_view principalId) = 0;
};

// What the browser gets at sign-in: the cookie's value and the page's CSRF token.
struct NewSession {
  std::string id;
  std::string csrfToken;
  std::int64_t expiresAt = 0;  // absolute end, for the cookie's lifetime
};

// A session that a request may use.
struct ActiveSession {
  std::string principalId;
  std::string csrfToken;
  std::int64_t createdAt = 0;
  std::int64_t expiresAt = 0;  // absolute end

  bool operator==(const ActiveSession&) const = default;
};

// SHA-256 of the id, in lower-case hex.
std::string sessionIdDigest(std::string_view id);

// The CSRF token of session `id`: base64url of HMAC-SHA-256(key = id, "codepayload dashboard csrf").
std::string csrfTokenOf(std::string_view id);

class SessionManager {
 public:
  static constexpr std::size_t kIdBytes = 32;
  static constexpr std::size_t kIdLength = 43;  // base64url without padding

  SessionManager(SessionStore& store, SessionSettings settings = {}, auth::UnixClock clock = auth::systemUnixSeconds);

  const SessionSettings& settings() const { return settings_; }

  // A new session for `principalId`; ends `previousId` (the session the
  // browser held, whoever's it was) when not empty.
  NewSession start(std::string_view principalId, std::string_view previousId = {});

  // The session of `id` when it exists and is neither idle too long nor past
  // its absolute end (such a session is removed); records the request as its
  // last activity. nullopt for anything else, a malformed id included.
  std::optional<ActiveSession> resume(std::string_view id);

  // Ends one session (sign-out); an unknown id is ignored.
  void end(std::string_view id);

  // Ends every session of `principalId` (sign out everywhere, a changed
  // password, a removed account); returns how many ended.
  std::size_t endAllOf(std::string_view principalId);

  // Whether `presented` is the CSRF token of session `id`, compared in
  // constant time; false for an empty or malformed value.
  static bool csrfTokenMatches(std::string_view id, std::string_view presented);

 private:
  SessionStore& store_;
  SessionSettings settings_;
  auth::UnixClock clock_;
};

}  // namespace codepayload::accounts
