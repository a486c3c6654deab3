// How many large /codes requests are in flight, per client id, per
// organization and in the whole server, so that neither one client, nor the
// many clients one organization may create, nor all of them together can
// hold the memory of more maximum-size batches than the server was sized for
// (a large request holds its body, simdjson's index of it and its
// definitions: several times the body; see docs/robustness.md). A request is
// large when its body is over a threshold, or chunked (its size is not known
// before it is read), or when its answer grows past what is kept in memory.
// A slot is taken before the body is read and given back when the Slot object
// ends. Thread-safe.
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

struct LargeRequestLimits {
  std::size_t largeBodyBytes = 1024 * 1024;  // a body over this is large
  // Large requests in flight at once; 0: no limit (slots are still counted).
  int perClient = 2;
  int perOrganization = 3;
  int perServer = 4;
};

class LargeRequestSlots {
 public:
  explicit LargeRequestSlots(const LargeRequestLimits& limits) : limits_(limits) {}

  LargeRequestSlots(const LargeRequestSlots&) = delete;
  LargeRequestSlots& operator=(const LargeRequestSlots&) = delete;

  // `bodyBytes`: the announced Content-Length, nullopt for a chunked body.
  bool isLarge(std::optional<std::size_t> bodyBytes) const {
    return !bodyBytes || *bodyBytes > limits_.largeBodyBytes;
  }

  // Which limit refused a slot.
  enum class Refusal { Client, Organization, Server };

  // A taken slot, given back when it ends (move-only); an empty one (false)
  // when a limit was reached: refusal() says which.
  class Slot {
   public:
    Slot() = default;
    Slot(Slot&& other) noexcept;
    Slot& operator=(Slot&& other) noexcept;
    ~Slot();
    explicit operator bool() const { return owner_ != nullptr; }
    std::optional<Refusal> refusal() const { return refusal_; }

   private:
    friend class LargeRequestSlots;
    Slot(LargeRequestSlots* owner, std::string clientId, std::string organizationId)
        : owner_(owner), clientId_(std::move(clientId)), organizationId_(std::move(organizationId)) {}
    explicit Slot(Refusal refusal) : refusal_(refusal) {}
    void giveBack();

    LargeRequestSlots* owner_ = nullptr;
    std::string clientId_;
    std::string organizationId_;
    std::optional<Refusal> refusal_;
  };

  // Takes a slot for client `clientId` of organization `organizationId`, or
  // none (nothing counted) when the client, its organization or the server
  // holds its limit (checked in that order).
  Slot tryTake(std::string_view clientId, std::string_view organizationId);

  int heldByClient(std::string_view clientId) const;
  int heldByOrganization(std::string_view organizationId) const;
  int held() const;
  // Client ids holding at least one slot (ids without one are forgotten).
  std::size_t clients() const;
  const LargeRequestLimits& limits() const { return limits_; }
  // The limit behind `refusal`.
  int limit(Refusal refusal) const;

 private:
  using Counts = std::unordered_map<std::string, int, common::TransparentStringHash, std::equal_to<>>;

  void release(const std::string& clientId, const std::string& organizationId);

  const LargeRequestLimits limits_;
  mutable std::mutex mutex_;
  Counts heldByClient_;
  Counts heldByOrganization_;
  int held_ = 0;
};

}  // namespace codepayload::server
