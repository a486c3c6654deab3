// Brute force at POST /oauth/token against the real service: repeated failures
// from one address, and for one client id from many addresses, are answered
// 429 with Retry-After, while the real client keeps getting tokens and codes.
// The service runs the default throttle (auth::ThrottleSettings): 20 failures
// per address and 100 per client id in a 60 s window.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "auth/auth_throttle.h"
#include "tests/robustness/requests.h"
#include "tests/robustness/tls_connection.h"

namespace codepayload::robustness {
namespace {

using server::testing::ApiClient;
using server::testing::ServiceHarness;

constexpr const char* kInvalidClient =
    R"({"error":"invalid_client","error_description":"client authentication failed: send the client id and secret )"
    R"(with HTTP Basic authentication"})";
constexpr const char* kRateLimited =
    R"({"error":"rate_limited","error_description":"too many requests: wait the number of seconds in Retry-After"})";

const auth::ThrottleSettings kDefaults{};

class TokenBruteForce : public ::testing::Test {
 protected:
  void SetUp() override {
    harness_ = std::make_unique<ServiceHarness>();
    endpoint_ = ServiceEndpoint{harness_->port(), harness_->clientContext()};
    victim_ = harness_->createClient({"write:codes"});
  }

  // The real client, on 127.0.0.1: gets a token and generates codes with it.
  void expectRealClientServed(const ApiClient& client) {
    const HttpResult token = exchange(endpoint_, tokenCall(client.clientId, client.secret));
    ASSERT_EQ(token.status, 200) << token.body;
    const HttpResult codes = exchange(endpoint_, codesCall(accessTokenFrom(token.body), kOneItem));
    EXPECT_EQ(codes.status, 200);
    EXPECT_EQ(codes.body, kOneItemResponse);
  }

  static void expectInvalidClient(const HttpResult& result) {
    EXPECT_EQ(result.status, 401);
    EXPECT_EQ(result.body, kInvalidClient);
    EXPECT_EQ(result.header("www-authenticate"), "Basic realm=\"codepayload\"");
  }

  static void expectRateLimited(const HttpResult& result) {
    EXPECT_EQ(result.status, 429);
    EXPECT_EQ(result.reason, "Too Many Requests");
    EXPECT_EQ(result.body, kRateLimited);
    EXPECT_EQ(result.header("cache-control"), "no-store");
    ASSERT_TRUE(result.has("retry-after"));
    const int retryAfter = std::stoi(result.header("retry-after"));
    EXPECT_GE(retryAfter, 1);
    EXPECT_LE(retryAfter, kDefaults.windowSeconds);
  }

  std::unique_ptr<ServiceHarness> harness_;
  ServiceEndpoint endpoint_;
  ApiClient victim_;
};

TEST_F(TokenBruteForce, FailuresFromOneAddressAreThrottledAndOtherAddressesAreNot) {
  ASSERT_EQ(kDefaults.failuresPerAddress, 20u);
  for (std::uint32_t attempt = 0; attempt < kDefaults.failuresPerAddress; ++attempt) {
    SCOPED_TRACE(attempt);
    expectInvalidClient(
        exchange(endpoint_, tokenCall(victim_.clientId, "guess-" + std::to_string(attempt)), "127.0.0.2"));
  }
  // The budget is spent: every token request from there is refused before
  // any credential check, the right secret and unknown ids included.
  expectRateLimited(exchange(endpoint_, tokenCall(victim_.clientId, "guess-20"), "127.0.0.2"));
  expectRateLimited(exchange(endpoint_, tokenCall(victim_.clientId, victim_.secret), "127.0.0.2"));
  expectRateLimited(exchange(endpoint_, tokenCall("svc_client_000000000000000000000000", "anything"), "127.0.0.2"));
  // The real client elsewhere is not affected.
  expectRealClientServed(victim_);
  // Nor is a client on a neighbouring address.
  expectInvalidClient(exchange(endpoint_, tokenCall(victim_.clientId, "typo"), "127.0.0.3"));
  EXPECT_EQ(exchange(endpoint_, tokenCall(victim_.clientId, victim_.secret), "127.0.0.3").status, 200);
}

TEST_F(TokenBruteForce, FailuresForOneClientIdFromManyAddressesAreThrottledButTheRightSecretStillWorks) {
  ASSERT_EQ(kDefaults.failuresPerClient, 100u);
  // 100 failures for the victim's id, spread over five addresses so that no
  // address reaches its own budget.
  for (std::uint32_t attempt = 0; attempt < kDefaults.failuresPerClient; ++attempt) {
    SCOPED_TRACE(attempt);
    const std::string address = "127.0.1." + std::to_string(10 + attempt / 20);
    expectInvalidClient(exchange(endpoint_, tokenCall(victim_.clientId, "guess-" + std::to_string(attempt)), address));
  }
  // Now a wrong secret for that id is 429 from any address ...
  expectRateLimited(exchange(endpoint_, tokenCall(victim_.clientId, "guess-100"), "127.0.1.30"));
  expectRateLimited(exchange(endpoint_, tokenCall(victim_.clientId, "guess-101"), "127.0.0.1"));
  // ... but the right secret still gets a token, and codes.
  expectRealClientServed(victim_);
  // Another client of the same service is not throttled.
  const ApiClient other = harness_->createClient({"write:codes"});
  expectInvalidClient(exchange(endpoint_, tokenCall(other.clientId, "typo"), "127.0.1.31"));
  expectRealClientServed(other);
}

TEST_F(TokenBruteForce, ConcurrentGuessingGetsAtMostItsBudgetPlusWhatIsInFlight) {
  // Eight attackers on one address, 25 guesses each, all at once. The check
  // of the budget and the count of a failure are not one step, so requests
  // already past the check when the budget runs out still get their 401: at
  // most one per concurrent attacker beyond the budget.
  constexpr int kAttackers = 8;
  constexpr int kGuesses = 25;
  std::atomic<int> invalidClient{0};
  std::atomic<int> rateLimited{0};
  std::atomic<int> other{0};
  std::vector<std::thread> attackers;
  for (int attacker = 0; attacker < kAttackers; ++attacker) {
    attackers.emplace_back([&, attacker] {
      for (int guess = 0; guess < kGuesses; ++guess) {
        const HttpResult result = exchange(
            endpoint_, tokenCall(victim_.clientId, "guess-" + std::to_string(attacker) + "-" + std::to_string(guess)),
            "127.0.0.4");
        if (result.status == 401 && result.body == kInvalidClient) {
          ++invalidClient;
        } else if (result.status == 429 && result.body == kRateLimited) {
          ++rateLimited;
        } else {
          ++other;
        }
      }
    });
  }
  // Meanwhile the real client works.
  for (int round = 0; round < 5; ++round) expectRealClientServed(victim_);
  for (std::thread& attacker : attackers) attacker.join();
  EXPECT_EQ(other.load(), 0);
  EXPECT_GE(invalidClient.load(), static_cast<int>(kDefaults.failuresPerAddress));
  EXPECT_LE(invalidClient.load(), static_cast<int>(kDefaults.failuresPerAddress) + kAttackers - 1);
  EXPECT_EQ(invalidClient.load() + rateLimited.load(), kAttackers * kGuesses);
  expectRealClientServed(victim_);
  std::printf("concurrent guessing: %d guesses from one address, %d answered 401, %d answered 429\n",
              kAttackers * kGuesses, invalidClient.load(), rateLimited.load());
}

}  // namespace
}  // namespace codepayload::robustness
