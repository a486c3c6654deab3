// What checking a person's password and second factor needs of the place
// accounts are kept (the registry's AccountStore; memory in tests).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace codepayload::accounts {

// What sign-in needs to know of an account.
struct Credentials {
  std::string principalId;
  std::string passwordHash;
  std::optional<std::string> totpSecret;     // raw bytes; nullopt without TOTP
  std::optional<std::int64_t> lastTotpStep;  // the last step accepted
  // An owner reset the password (AccountStore::startPasswordReset): it no
  // longer signs in until the user completes the reset.
  bool passwordResetPending = false;

  bool operator==(const Credentials&) const = default;
};

// Where accounts are found (the registry; memory in tests).
class CredentialSource {
 public:
  virtual ~CredentialSource() = default;
  // The account whose emailKey() is `emailKey`, user or operator.
  virtual std::optional<Credentials> findCredentials(std::string_view emailKey) = 0;
  // Records `step` as the last accepted TOTP step when it is later than the
  // stored one; false when it is not (a concurrent sign-in used it).
  virtual bool recordTotpStep(std::string_view principalId, std::int64_t step) = 0;
  // Removes the recovery code with `digest` of the account; false when it has none.
  virtual bool useRecoveryCode(std::string_view principalId, std::string_view digest) = 0;
  // Stores a new hash of the same password (made with raised parameters).
  virtual void replacePasswordHash(std::string_view principalId, std::string_view passwordHash) = 0;
};

}  // namespace codepayload::accounts
