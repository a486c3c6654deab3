// Password guessing at the dashboard against the real server, a child process
// so that its CPU time can be read from /proc: a stranger's failures from one
// address do not lock the owner out from another, guesses from many addresses
// only delay those addresses, turning TOTP off is throttled like sign-in (a
// throttled attempt runs no Argon2 and adds no audit record), and the code that
// confirmed a TOTP enrolment is refused at the next sign-in. The server runs
// the default throttle (accounts::PasswordThrottleSettings): 10 failures per
// email and address, 50 per address, in 15-minute windows; beyond 10 failures
// of an email from anywhere, an address that failed for it waits 1 s, doubling
// with each further failure, at most 300 s.
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "accounts/base32.h"
#include "accounts/password_hasher.h"
#include "accounts/password_throttle.h"
#include "accounts/sql_account_store.h"
#include "accounts/totp.h"
#include "server/dashboard/dashboard_security.h"
#include "tests/robustness/fault_support.h"
#include "tests/robustness/server_process.h"
#include "tests/robustness/tls_connection.h"
#include "tests/server/support/admin_process.h"

namespace codepayload::robustness {
namespace {

using server::testing::AdminResult;
using server::testing::jsonMember;
using server::testing::runAdmin;

constexpr const char* kOwner = "owner@acme.example";
constexpr const char* kPassword = "correct horse battery staple";
constexpr const char* kTotpSecret = "12345678901234567890";
const accounts::PasswordThrottleSettings kDefaults{};

std::string envelope(const std::string& code, const std::string& message) {
  return R"({"errors":[{"code":")" + code + R"(","path":null,"message":")" + message + R"("}]})";
}

const std::string kRefused = envelope("SignInRefused", "The email, password or authentication code is not right.");

// The CPU time (user and system) the process has used so far, from /proc/<pid>/stat.
std::chrono::milliseconds cpuTime(pid_t pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  std::getline(file, text);
  // The command name, in parentheses, may hold spaces: the fields counted
  // from the state (field 3) follow its closing parenthesis.
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::vector<std::string> values;
  for (std::string value; fields >> value;) values.push_back(value);
  const long long ticks = std::stoll(values.at(14 - 3)) + std::stoll(values.at(15 - 3));
  return std::chrono::milliseconds(ticks * 1000 / sysconf(_SC_CLK_TCK));
}

// A signed-in browser: its session cookie and the page's CSRF token.
struct Browser {
  std::string cookie;
  std::string csrfToken;
};

class DashboardGuessing : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = std::make_unique<ServerProcess>(dataDir());
    const AdminResult organization = runAdmin(dataDir(), {"org", "create", "--name", "Acme", "--plan", "starter"});
    ASSERT_EQ(organization.exitCode, 0) << organization.err;
    organizationId_ = jsonMember(organization.out, "id");
    store_ = std::make_unique<accounts::SqlAccountStore>(auth::RegistryDatabase::sqlite(dataDir() / "registry.db"),
                                                         CODEPAYLOAD_REGISTRY_MIGRATIONS_DIR);
    owner_ = store_->createUser(organizationId_, kOwner, accounts::Role::Owner,
                                accounts::PasswordHasher().hash(kPassword), accounts::AuditContext{"test", "local"});
  }

  std::filesystem::path dataDir() const { return folder_.path() / "data"; }

  HttpResult post(const std::string& path, const std::string& body, const std::string& address,
                  const Browser* browser = nullptr) {
    HttpCall call{"POST", "/dashboard/data/" + path, {{"Content-Type", "application/json"}}, body};
    if (browser) {
      call.headers.emplace_back("Cookie", browser->cookie);
      call.headers.emplace_back("X-CSRF-Token", browser->csrfToken);
    }
    return exchange(server_->endpoint(), call, address);
  }

  HttpResult signIn(const std::string& password, const std::string& address, const std::string& code = "") {
    std::string body = R"({"email":")" + std::string(kOwner) + R"(","password":")" + password + "\"";
    if (!code.empty()) body += R"(,"code":")" + code + "\"";
    return post("sign-in", body + "}", address);
  }

  // Signs the owner in from `address`; the browser it makes.
  Browser signedIn(const std::string& address, const std::string& code = "") {
    const HttpResult answer = signIn(kPassword, address, code);
    EXPECT_EQ(answer.status, 200) << answer.body;
    const std::string setCookie = answer.header("set-cookie");
    Browser browser{setCookie.substr(0, setCookie.find(';')), ""};
    EXPECT_EQ(browser.cookie.rfind(std::string(server::kSessionCookieName) + "=", 0), 0u) << setCookie;
    HttpCall session{"GET", "/dashboard/data/session", {{"Cookie", browser.cookie}}, ""};
    const HttpResult described = exchange(server_->endpoint(), session, address);
    EXPECT_EQ(described.status, 200) << described.body;
    browser.csrfToken = Poco::JSON::Parser()
                            .parse(described.body)
                            .extract<Poco::JSON::Object::Ptr>()
                            ->getValue<std::string>("csrfToken");
    return browser;
  }

  // The records of `action`, newest first: "<actor> <address> <result> <detail>".
  std::vector<std::string> audit(const std::string& action) {
    std::vector<std::string> lines;
    for (const accounts::AuditRecord& record : store_->readAudit(accounts::AuditQuery{std::nullopt, action, 1000})) {
      lines.push_back(record.actor + " " + record.address + " " +
                      std::string(accounts::auditResultName(record.result)) + " " + record.detail);
    }
    return lines;
  }

  static void expectThrottled(const HttpResult& answer, const std::string& sentence, std::int64_t atMost) {
    EXPECT_EQ(answer.status, 429) << answer.body;
    ASSERT_TRUE(answer.has("retry-after")) << answer.body;
    const std::string retryAfter = answer.header("retry-after");
    EXPECT_GE(std::stoll(retryAfter), 1);
    EXPECT_LE(std::stoll(retryAfter), atMost);
    EXPECT_EQ(answer.body, envelope("TooManyAttempts", sentence + retryAfter + " seconds."));
  }

  TemporaryFolder folder_{"dashboard-guessing"};
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<accounts::SqlAccountStore> store_;
  std::string organizationId_;
  accounts::UserRecord owner_;
};

TEST_F(DashboardGuessing, AStrangerOnOneAddressCannotLockTheOwnerOutFromAnother) {
  ASSERT_EQ(kDefaults.failuresPerAccountAndAddress, 10u);
  for (int attempt = 0; attempt < 10; ++attempt) {
    const HttpResult answer = signIn("guess " + std::to_string(attempt), "127.0.0.2");
    EXPECT_EQ(answer.status, 401) << attempt;
    EXPECT_EQ(answer.body, kRefused) << attempt;
  }
  // The stranger's address is refused for this email, the right password included.
  for (int attempt = 10; attempt < 40; ++attempt) {
    expectThrottled(signIn(attempt == 20 ? kPassword : "guess " + std::to_string(attempt), "127.0.0.2"),
                    "Too many failed sign-ins; try again in ", kDefaults.windowSeconds);
  }
  // The owner, from another address, signs in at once: no wait is imposed on it.
  const auto started = std::chrono::steady_clock::now();
  const HttpResult owner = signIn(kPassword, "127.0.0.3");
  const auto took = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(owner.status, 200) << owner.body;
  EXPECT_EQ(owner.body, R"({"home":"/dashboard/api"})");
  EXPECT_LT(took, std::chrono::seconds(5));
  std::printf("the owner's sign-in from another address after 10 failures from 127.0.0.2: %lld ms\n",
              static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(took).count()));

  // Ten more addresses guess once each: twenty failures of this email now, so
  // each of those addresses waits before its next guess ...
  for (int address = 10; address < 20; ++address) {
    EXPECT_EQ(signIn("spread guess", "127.0.0." + std::to_string(address)).body, kRefused) << address;
  }
  for (int address = 10; address < 20; ++address) {
    expectThrottled(signIn(kPassword, "127.0.0." + std::to_string(address)), "Too many failed sign-ins; try again in ",
                    kDefaults.maxDelaySeconds);
  }
  // ... and the owner, from an address that has not failed, still gets in at once.
  EXPECT_EQ(signIn(kPassword, "127.0.0.3").status, 200);
  EXPECT_EQ(signIn(kPassword, "127.0.0.4").status, 200);

  // Recorded: each failure, the first throttled answer of each lock or delay
  // (never one per throttled attempt) and the sign-ins.
  const std::vector<std::string> records = audit("account.sign-in");
  ASSERT_EQ(records.size(), 3u + 10u + 10u + 1u + 10u);
  EXPECT_EQ(records[0], std::string(kOwner) + " 127.0.0.4 success ");
  EXPECT_EQ(records[1], std::string(kOwner) + " 127.0.0.3 success ");
  for (int address = 19; address >= 10; --address) {
    EXPECT_EQ(records[static_cast<std::size_t>(21 - address)],
              "anonymous 127.0.0." + std::to_string(address) + " refused throttled");
  }
  for (int address = 19; address >= 10; --address) {
    EXPECT_EQ(records[static_cast<std::size_t>(31 - address)],
              std::string(kOwner) + " 127.0.0." + std::to_string(address) + " refused wrong password or code");
  }
  EXPECT_EQ(records[22], std::string(kOwner) + " 127.0.0.3 success ");
  EXPECT_EQ(records[23], "anonymous 127.0.0.2 refused throttled");
  for (std::size_t index = 24; index < records.size(); ++index) {
    EXPECT_EQ(records[index], std::string(kOwner) + " 127.0.0.2 refused wrong password or code") << index;
  }
}

TEST_F(DashboardGuessing, TurningTotpOffIsThrottledAndAThrottledAttemptCostsNoArgon2Run) {
  store_->enableTotp(owner_.id, kTotpSecret, accounts::totpStep(std::time(nullptr), 30) - 2,
                     accounts::AuditContext{"test", "local"});
  const Browser browser = signedIn("127.0.0.5", accounts::totpCode(kTotpSecret, std::time(nullptr)));
  const auto disable = [&](const std::string& password) {
    return post("account/totp/disable", R"({"password":")" + password + "\"}", "127.0.0.5", &browser);
  };

  const std::chrono::milliseconds beforeGuesses = cpuTime(server_->process().pid());
  for (int attempt = 0; attempt < 10; ++attempt) {
    const HttpResult answer = disable("guess " + std::to_string(attempt));
    EXPECT_EQ(answer.status, 400) << attempt;
    EXPECT_EQ(answer.body, R"({"errors":[{"code":"Validation.Invalid.password","path":"password",)"
                           R"("message":"The password is not right."}]})");
  }
  const std::chrono::milliseconds afterGuesses = cpuTime(server_->process().pid());
  constexpr int kThrottled = 20;
  for (int attempt = 0; attempt < kThrottled; ++attempt) {
    expectThrottled(disable(attempt % 2 == 0 ? kPassword : "guess"), "Too many wrong passwords; try again in ",
                    kDefaults.windowSeconds);
  }
  const std::chrono::milliseconds afterThrottled = cpuTime(server_->process().pid());
  const auto guessesCost = afterGuesses - beforeGuesses;
  const auto throttledCost = afterThrottled - afterGuesses;
  std::printf("turning TOTP off: 10 wrong passwords cost the server %lld ms of CPU, %d throttled attempts %lld ms\n",
              static_cast<long long>(guessesCost.count()), kThrottled, static_cast<long long>(throttledCost.count()));
  // Ten Argon2 runs of 19 MiB cost far more than twenty TLS handshakes and
  // answers: twenty throttled attempts cost less than two checked ones.
  EXPECT_LT(throttledCost * 5, guessesCost);

  EXPECT_TRUE(store_->findUser(owner_.id)->totpEnabled);
  std::vector<std::string> expected{std::string(kOwner) + " 127.0.0.5 refused throttled"};
  expected.insert(expected.end(), 10, std::string(kOwner) + " 127.0.0.5 refused wrong password");
  EXPECT_EQ(audit("account.totp-disable"), expected);
  // Sign-in shares the counts: the address is throttled there for this account too.
  expectThrottled(signIn(kPassword, "127.0.0.5", accounts::totpCode(kTotpSecret, std::time(nullptr))),
                  "Too many failed sign-ins; try again in ", kDefaults.windowSeconds);
}

TEST_F(DashboardGuessing, TheCodeThatConfirmedTheEnrolmentIsRefusedAtTheNextSignIn) {
  const Browser browser = signedIn("127.0.0.6");
  const HttpResult started = post("account/totp/start", "", "127.0.0.6", &browser);
  ASSERT_EQ(started.status, 200) << started.body;
  const std::string secret = *accounts::decodeBase32(
      Poco::JSON::Parser().parse(started.body).extract<Poco::JSON::Object::Ptr>()->getValue<std::string>("secret"));
  const std::string confirming = accounts::totpCode(secret, std::time(nullptr));
  const HttpResult confirmed = post("account/totp/confirm", R"({"code":")" + confirming + "\"}", "127.0.0.6", &browser);
  ASSERT_EQ(confirmed.status, 200) << confirmed.body;

  const HttpResult replayed = signIn(kPassword, "127.0.0.6", confirming);
  EXPECT_EQ(replayed.status, 401);
  EXPECT_EQ(replayed.body, kRefused);
  EXPECT_FALSE(replayed.has("set-cookie"));
  // The app's next code is accepted (one step ahead is inside the window).
  const HttpResult next = signIn(kPassword, "127.0.0.6", accounts::totpCode(secret, std::time(nullptr) + 30));
  EXPECT_EQ(next.status, 200) << next.body;
}

}  // namespace
}  // namespace codepayload::robustness
