// How many large /codes requests each client id has in flight, so that one
// client cannot hold the memory of many maximum-size batches at once (a
// large request holds its body, simdjson's index of it and its definitions:
// several times the body; see docs/robustness.md). A request is large when
// its body is over a threshold, or chunked (its size is not known before it
// is read). A slot is taken before the body is read and given back when the
// Slot object ends. Thread-safe.
#pragma once

#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "common/string_hash.h"

namespace codepayload::server {

class LargeRequestSlots {
 public:
  // A body over `largeBodyBytes` is large; at most `perClient` large requests
  // per client id at once (0: no limit, slots are still counted).
  LargeRequestSlots(std::size_t largeBodyBytes, int perClient)
      : largeBodyBytes_(largeBodyBytes), perClient_(perClient) {}

  LargeRequestSlots(const LargeRequestSlots&) = delete;
  LargeRequestSlots& operator=(const LargeRequestSlots&) = delete;

  // `bodyBytes`: the announced Content-Length, nullopt for a chunked body.
  bool isLarge(std::optional<std::size_t> bodyBytes) const { return !bodyBytes || *bodyBytes > largeBodyBytes_; }

  // A taken slot, given back when it ends (move-only); an empty one (false)
  // when the client already held its limit.
  class Slot {
   public:
    Slot() = default;
    Slot(Slot&& other) noexcept;
    Slot& operator=(Slot&& other) noexcept;
    ~Slot();
    explicit operator bool() const { return owner_ != nullptr; }

   private:
    friend class LargeRequestSlots;
    Slot(LargeRequestSlots* owner, std::string clientId) : owner_(owner), clientId_(std::move(clientId)) {}
    void giveBack();

    LargeRequestSlots* owner_ = nullptr;
    std::string clientId_;
  };

  Slot tryTake(std::string_view clientId);

  int held(std::string_view clientId) const;
  // Client ids holding at least one slot (ids without one are forgotten).
  std::size_t clients() const;
  int perClient() const { return perClient_; }

 private:
  void release(const std::string& clientId);

  const std::size_t largeBodyBytes_;
  const int perClient_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, int, common::TransparentStringHash, std::equal_to<>> heldByClient_;
};

}  // namespace codepayload::server
