// How many connections each client address holds, so that one address
// cannot take every connection the server accepts (and the memory and
// descriptors they hold). A connection takes a slot when it is accepted and
// gives it back when it ends. A connection is known by an identity unique
// among live connections (its socket's descriptor, given back before the
// socket closes); a slot left by an identity that ended without giving it
// back is released as soon as the identity is reused. Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/string_hash.h"

namespace codepayload::server {

class AddressSlots {
 public:
  using Connection = std::uintptr_t;

  // At most `perAddress` connections per address key; 0: no limit.
  explicit AddressSlots(int perAddress) : perAddress_(perAddress) {}

  // Takes a slot for `connection` from `addressKey`;
  // false (nothing taken) when that address already holds its limit.
  bool admit(Connection connection, std::string_view addressKey);
  // Gives back the slot of `connection` (nothing when it has none).
  void release(Connection connection);

  int held(std::string_view addressKey) const;
  std::size_t connections() const;
  int perAddress() const { return perAddress_; }

 private:
  void releaseLocked(Connection connection);

  const int perAddress_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, int, common::TransparentStringHash, std::equal_to<>> heldByAddress_;
  std::unordered_map<Connection, std::string> addressByConnection_;
};

}  // namespace codepayload::server
