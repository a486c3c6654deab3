#include "auth/auth_service.h"

#include <Poco/Logger.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "auth/access_token_verifier.h"
#include "auth/registry_view.h"
#include "auth/signing_keys.h"
#include "auth/token_issuer.h"
#include "auth/verified_token_cache.h"

namespace codepayload::auth {

std::filesystem::path registryMigrationsDir(const std::filesystem::path& schemaDir) { return schemaDir / "registry"; }

namespace {

// How long after a second begins the refresher checks the view: past the
// second for certain, early enough that few token requests of that second
// find the view not yet checked and go to the registry.
constexpr std::chrono::milliseconds kPastTheSecond{2};

// How often the keys in force are read again, when they can change.
constexpr std::chrono::seconds kKeyReloadInterval{1};

}  // namespace

// Members in construction order: each part only refers to parts above it.
struct AuthService::Parts {
  Parts(const AuthSettings& settings, SigningKeySet signingKeys, std::function<SigningKeySet()> keySource,
        std::unique_ptr<ClientRegistry> clientRegistry, const SecretHasher& hasher, UnixClock clock)
      : registry(std::move(clientRegistry)),
        keys(std::move(signingKeys)),
        reloadKeys(std::move(keySource)),
        issuer(keys, settings.token, clock),
        verifier(keys, settings.token),
        throttle(settings.throttle, clock),
        view(*registry, clock),
        tokenEndpoint(view, *registry, hasher, issuer, throttle, settings.tokenEndpointLimits),
        cache(settings.tokenCacheCapacity),
        bearer(verifier, view, cache, clock),
        pollInterval(settings.registryPollInterval) {}

  std::unique_ptr<ClientRegistry> registry;
  SigningKeySet keys;
  std::function<SigningKeySet()> reloadKeys;
  std::chrono::steady_clock::time_point keysReadAt = std::chrono::steady_clock::now();
  TokenIssuer issuer;
  AccessTokenVerifier verifier;
  AuthThrottle throttle;
  RegistryView view;
  TokenEndpoint tokenEndpoint;
  VerifiedTokenCache cache;
  BearerAuthenticator bearer;

  std::chrono::milliseconds pollInterval;
  // RegistryRefresh, each part on its own (read without a lock by a scrape).
  std::atomic<std::chrono::steady_clock::rep> lastSuccess{std::chrono::steady_clock::now().time_since_epoch().count()};
  std::atomic<bool> lastFailed{false};
  std::atomic<std::uint64_t> failures{0};
  std::mutex refresherMutex;
  std::condition_variable refresherWake;
  bool stopping = false;
  std::thread refresher;

  // One check of the view, recorded for registryRefresh(); throws what
  // refreshIfChanged throws.
  void refresh() {
    try {
      view.refreshIfChanged();
    } catch (...) {
      failures.fetch_add(1, std::memory_order_relaxed);
      lastFailed.store(true, std::memory_order_relaxed);
      throw;
    }
    lastSuccess.store(std::chrono::steady_clock::now().time_since_epoch().count(), std::memory_order_relaxed);
    lastFailed.store(false, std::memory_order_relaxed);
  }

  // Until the next check: the poll interval, or less to check just after the
  // next second of the system clock begins, as the view vouches for a token
  // request only in the second it was checked in (D-T6).
  std::chrono::steady_clock::duration untilNextCheck() const {
    using namespace std::chrono;
    const system_clock::duration intoSecond = system_clock::now().time_since_epoch() % seconds(1);
    return std::min<steady_clock::duration>(pollInterval, seconds(1) - intoSecond + kPastTheSecond);
  }

  // Every second: the keys in force, taken when they changed (a key that
  // starts signing, one published or retired).
  void refreshKeys() {
    if (!reloadKeys || std::chrono::steady_clock::now() - keysReadAt < kKeyReloadInterval) return;
    keysReadAt = std::chrono::steady_clock::now();
    SigningKeySet fresh = reloadKeys();
    if (fresh.kids() == keys.kids()) return;
    keys.replace(fresh);
    Poco::Logger::get("codepayload.events").information("token signing key " + fresh.active().kid() + " in force");
  }

  void refreshLoop() {
    std::unique_lock lock(refresherMutex);
    while (!refresherWake.wait_for(lock, untilNextCheck(), [this] { return stopping; })) {
      lock.unlock();
      try {
        refresh();
      } catch (const std::exception& error) {
        // The previous view stays in force; the next poll tries again.
        // The events logger every binary configures (app/logging.h); auth sits below app/.
        Poco::Logger::get("codepayload.events")
            .error(std::string("cannot refresh the client registry view: ") + error.what());
      }
      try {
        refreshKeys();
      } catch (const std::exception& error) {
        // The keys in force stay; the next second tries again.
        Poco::Logger::get("codepayload.events").error(std::string("cannot read the token signing keys: ") + error.what());
      }
      lock.lock();
    }
  }
};

AuthService::AuthService(const AuthSettings& settings, SigningKeySet keys, std::function<SigningKeySet()> reloadKeys,
                         std::unique_ptr<ClientRegistry> registry, const SecretHasher& hasher, UnixClock clock)
    : parts_(std::make_unique<Parts>(settings, std::move(keys), std::move(reloadKeys), std::move(registry), hasher,
                                     std::move(clock))) {
  parts_->refresher = std::thread([parts = parts_.get()] { parts->refreshLoop(); });
}

AuthService::~AuthService() {
  {
    std::lock_guard lock(parts_->refresherMutex);
    parts_->stopping = true;
  }
  parts_->refresherWake.notify_all();
  parts_->refresher.join();
}

const TokenEndpoint& AuthService::tokenEndpoint() const { return parts_->tokenEndpoint; }

const BearerAuthenticator& AuthService::bearerAuthenticator() const { return parts_->bearer; }

std::string AuthService::jwksJson() const { return parts_->keys.jwksJson(); }

ClientRegistry& AuthService::registry() { return *parts_->registry; }

void AuthService::refreshRegistryView() { parts_->refresh(); }

AuthService::RegistryRefresh AuthService::registryRefresh() const {
  RegistryRefresh refresh;
  refresh.lastSuccess = std::chrono::steady_clock::time_point(
      std::chrono::steady_clock::duration(parts_->lastSuccess.load(std::memory_order_relaxed)));
  refresh.lastFailed = parts_->lastFailed.load(std::memory_order_relaxed);
  refresh.failures = parts_->failures.load(std::memory_order_relaxed);
  return refresh;
}

std::chrono::milliseconds AuthService::registryPollInterval() const { return parts_->pollInterval; }

}  // namespace codepayload::auth
