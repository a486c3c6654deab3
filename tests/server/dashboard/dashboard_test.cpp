// The dashboard's HTTP side against the real service: pages and
// their headers, the access token refusal, sign-in and the session cookie,
// the CSRF token and the cross-site checks, roles, and the API clients'
// lifecycle as the token endpoint sees it.
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/Net/HTTPSClientSession.h>
#include <Poco/StreamCopier.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "accounts/base32.h"
#include "accounts/password_hasher.h"
#include "accounts/sql_account_store.h"
#include "accounts/totp.h"
#include "app/registry.h"
#include "app/sqlite_registry.h"
#include "auth/auth_service.h"
#include "common/json_escape.h"
#include "common/utc_time.h"
#include "server/dashboard/dashboard_accounts.h"
#include "server/dashboard/dashboard_security.h"
#include "server/symbols/symbol_svg.h"
#include "tests/server/support/sample_requests.h"
#include "tests/server/support/service_harness.h"
#include "tests/support/decoding.h"
#include "tests/support/scratch_registry.h"
#include "tests/support/temp_dir.h"

namespace codepayload::server::testing {
namespace {

constexpr const char* kPassword = "correct horse battery staple";
constexpr const char* kCsp =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

// Sends `request` every 50 ms until it is answered `status` or a second has passed (a registry
// change reaches the token endpoint and the bearer check within a second); the last answer.
HttpResult answerWithinASecond(int status, const std::function<HttpResult()>& request) {
  const auto started = std::chrono::steady_clock::now();
  HttpResult result;
  while ((result = request()).status != status &&
         std::chrono::steady_clock::now() - started < std::chrono::seconds(1)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return result;
}

Poco::JSON::Object::Ptr parseObject(const std::string& text) {
  return Poco::JSON::Parser().parse(text).extract<Poco::JSON::Object::Ptr>();
}

std::string envelope(const std::string& code, const std::string& path, const std::string& message) {
  return R"({"errors":[{"code":")" + code + R"(","path":)" + (path.empty() ? "null" : "\"" + path + "\"") +
         R"(,"message":")" + message + R"("}]})";
}

// A signed-in browser: its session cookie and the page's CSRF token.
struct Browser {
  std::string sessionId;
  std::string csrfToken;
};

class DashboardTest : public ::testing::Test {
 protected:
  DashboardTest()
      : store_(auth::RegistryDatabase::sqlite(harness_.dataDir() / app::kRegistryDatabaseFile),
               auth::registryMigrationsDir(harness_.service().config().schemaDir)) {
    auth::ClientRegistry& registry = harness_.service().auth().registry();
    organizationId_ = registry.createOrganization("Acme", auth::Plan::Starter).id;
    freeOrganizationId_ = registry.createOrganization("Thrifty", auth::Plan::Free).id;
    const accounts::AuditContext setup{"test", "local"};
    const std::string hash = accounts::PasswordHasher().hash(kPassword);
    owner_ = store_.createUser(organizationId_, "owner@acme.example", accounts::Role::Owner, hash, setup);
    developer_ = store_.createUser(organizationId_, "dev@acme.example", accounts::Role::Developer, hash, setup);
    viewer_ = store_.createUser(organizationId_, "viewer@acme.example", accounts::Role::Viewer, hash, setup);
    freeOwner_ = store_.createUser(freeOrganizationId_, "owner@thrifty.example", accounts::Role::Owner, hash, setup);
    operator_ = store_.createOperator("ops@installation.example", hash, setup);
  }

  std::string host() const { return "127.0.0.1:" + std::to_string(harness_.port()); }

  HttpResult get(const std::string& target, const Browser* browser = nullptr) {
    HttpCall call{"GET", target, {}, ""};
    if (browser) call.headers.emplace_back("Cookie", std::string(kSessionCookieName) + "=" + browser->sessionId);
    return harness_.request(call);
  }

  // A POST as the dashboard's own page sends it.
  HttpResult post(const std::string& target, const std::string& body, const Browser* browser,
                  std::vector<std::pair<std::string, std::string>> extra = {}) {
    HttpCall call{
        "POST",
        target,
        {{"Content-Type", "application/json"}, {"Sec-Fetch-Site", "same-origin"}, {"Origin", "https://" + host()}},
        body};
    if (browser) {
      call.headers.emplace_back("Cookie", std::string(kSessionCookieName) + "=" + browser->sessionId);
      call.headers.emplace_back("X-CSRF-Token", browser->csrfToken);
    }
    for (auto& header : extra) {
      std::erase_if(call.headers, [&](const auto& present) { return present.first == header.first; });
      call.headers.push_back(std::move(header));
    }
    return harness_.request(call);
  }

  // A sign-in attempt's answer.
  HttpResult signInWith(const std::string& email, const std::string& password) {
    return post("/dashboard/data/sign-in", R"({"email":")" + email + R"(","password":")" + password + "\"}", nullptr);
  }

  Browser signIn(const std::string& email) {
    const HttpResult signedIn =
        post("/dashboard/data/sign-in", R"({"email":")" + email + R"(","password":")" + kPassword + R"("})", nullptr);
    EXPECT_EQ(signedIn.status, 200) << signedIn.body;
    const std::string cookie = signedIn.header("set-cookie");
    const std::smatch match = [&] {
      std::smatch found;
      std::regex_match(cookie, found,
                       std::regex("__Host-codepayload-session=([A-Za-z0-9_-]{43}); Secure; HttpOnly; "
                                  "SameSite=Strict; Path=/"));
      return found;
    }();
    EXPECT_FALSE(match.empty()) << cookie;
    Browser browser{match.empty() ? "" : match[1].str(), ""};
    const HttpResult session = get("/dashboard/data/session", &browser);
    EXPECT_EQ(session.status, 200) << session.body;
    browser.csrfToken = parseObject(session.body)->getValue<std::string>("csrfToken");
    return browser;
  }

  // Turns TOTP on for the browser's account as the Account page does.
  struct Enrolment {
    std::string secret;  // raw bytes
    std::string code;    // the code that confirmed it
    std::vector<std::string> recoveryCodes;
  };
  Enrolment enrolTotp(const Browser& browser) {
    const HttpResult started = post("/dashboard/data/account/totp/start", "", &browser);
    EXPECT_EQ(started.status, 200) << started.body;
    const std::string secret = *accounts::decodeBase32(parseObject(started.body)->getValue<std::string>("secret"));
    const std::string code = accounts::totpCode(secret, std::time(nullptr));
    const HttpResult confirmed = post("/dashboard/data/account/totp/confirm", R"({"code":")" + code + "\"}", &browser);
    EXPECT_EQ(confirmed.status, 200) << confirmed.body;
    return {secret, code, recoveryCodesOf(confirmed)};
  }

  // The codes of an answer {"recoveryCodes":[...]}, each checked for its shape.
  static std::vector<std::string> recoveryCodesOf(const HttpResult& answer) {
    std::vector<std::string> codes;
    if (answer.status != 200) return codes;
    const Poco::JSON::Array::Ptr list = parseObject(answer.body)->getArray("recoveryCodes");
    for (std::size_t i = 0; i < list->size(); ++i) {
      codes.push_back(list->getElement<std::string>(static_cast<unsigned>(i)));
      EXPECT_TRUE(std::regex_match(codes.back(), std::regex("[a-z2-7]{4}(-[a-z2-7]{4}){3}"))) << codes.back();
    }
    return codes;
  }

  HttpResult signInWithCode(const std::string& email, const std::string& code) {
    return post("/dashboard/data/sign-in",
                R"({"email":")" + email + R"(","password":")" + kPassword + R"(","code":")" + code + "\"}", nullptr);
  }

  HttpResult tokenRequest(const std::string& clientId, const std::string& secret) {
    return harness_.request(HttpCall{"POST",
                                     "/oauth/token",
                                     {{"Authorization", basicAuthorization(clientId, secret)},
                                      {"Content-Type", "application/x-www-form-urlencoded"}},
                                     "grant_type=client_credentials"});
  }

  ServiceHarness harness_;
  accounts::SqlAccountStore store_;
  std::string organizationId_;
  std::string freeOrganizationId_;
  accounts::UserRecord owner_;
  accounts::UserRecord developer_;
  accounts::UserRecord viewer_;
  accounts::UserRecord freeOwner_;
  accounts::OperatorRecord operator_;
};

void expectDashboardHeaders(const HttpResult& result) {
  EXPECT_EQ(result.header("content-security-policy"), kCsp);
  EXPECT_EQ(result.header("x-content-type-options"), "nosniff");
  EXPECT_EQ(result.header("referrer-policy"), "no-referrer");
  EXPECT_EQ(result.header("x-frame-options"), "DENY");
  EXPECT_EQ(result.header("cache-control"), "no-store");
  EXPECT_EQ(result.header("vary"), "Cookie, Origin, Sec-Fetch-Site");
}

TEST(DashboardSecurity, CookiesAndOrigins) {
  EXPECT_EQ(sessionCookie("abc"), "__Host-codepayload-session=abc; Secure; HttpOnly; SameSite=Strict; Path=/");
  EXPECT_EQ(expiredSessionCookie(),
            "__Host-codepayload-session=; Secure; HttpOnly; SameSite=Strict; Path=/; Max-Age=0");
  const std::vector<std::string_view> cookies{"a=1; __Host-codepayload-session=first",
                                              "__Host-codepayload-session=second"};
  EXPECT_EQ(sessionIdFromCookies(cookies), "first");
  const std::vector<std::string_view> none{"a=1;b", "__Host-codepayload-sessionx=2"};
  EXPECT_EQ(sessionIdFromCookies(none), "");

  EXPECT_EQ(crossSiteRefusal(std::nullopt, std::nullopt, "h:1"), std::nullopt);
  EXPECT_EQ(crossSiteRefusal("https://H:1", "same-origin", "h:1"), std::nullopt);
  EXPECT_EQ(crossSiteRefusal(std::nullopt, "same-site", "h:1"),
            "This request came from another site (Sec-Fetch-Site: same-site); the dashboard only accepts changes from "
            "its own pages.");
  EXPECT_EQ(crossSiteRefusal("http://h:1", std::nullopt, "h:1"),
            "This request came from another origin; the dashboard only accepts changes from its own pages.");
  EXPECT_EQ(crossSiteRefusal("https://h:2", std::nullopt, "h:1"),
            "This request came from another origin; the dashboard only accepts changes from its own pages.");
  EXPECT_EQ(crossSiteRefusal("null", std::nullopt, "h:1"),
            "This request came from another origin; the dashboard only accepts changes from its own pages.");
  // A form posted from a no-referrer page: Origin null, the browser's Sec-Fetch-Site decides.
  EXPECT_EQ(crossSiteRefusal("null", "same-origin", "h:1"), std::nullopt);
  EXPECT_EQ(crossSiteRefusal("null", "cross-site", "h:1"),
            "This request came from another site (Sec-Fetch-Site: cross-site); the dashboard only accepts changes "
            "from its own pages.");
}

TEST_F(DashboardTest, SignInPageIsServedWithTheSecurityHeaders) {
  const HttpResult page = get("/dashboard/sign-in");
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.header("content-type"), "text/html; charset=utf-8");
  EXPECT_NE(page.body.find("<label for=\"email\">Email</label>"), std::string::npos) << page.body;
  expectDashboardHeaders(page);

  const HttpResult missing = get("/dashboard/nothing-here");
  EXPECT_EQ(missing.status, 404);
  EXPECT_EQ(missing.body, envelope("NotFound", "", "There is no dashboard page at this path."));
  expectDashboardHeaders(missing);

  for (const std::string target : {"/dashboard/assets/../sign-in.html", "/dashboard/assets/", "/dashboard/assets/x.css",
                                   "/dashboard/assets/a/b.css"}) {
    const HttpResult asset = get(target);
    EXPECT_EQ(asset.status, 404) << target;
    EXPECT_EQ(asset.body, envelope("NotFound", "", "There is no dashboard asset with this name.")) << target;
  }
  // The page takes its own form (without JavaScript); JSON goes to /dashboard/data/sign-in.
  const HttpResult posted = post("/dashboard/sign-in", "{}", nullptr);
  EXPECT_EQ(posted.status, 415);
  EXPECT_EQ(posted.body,
            envelope("UnsupportedMediaType", "", "Send the form as application/x-www-form-urlencoded."));
  const HttpResult put = harness_.request(HttpCall{"PUT", "/dashboard/sign-in", {}, ""});
  EXPECT_EQ(put.status, 405);
  EXPECT_EQ(put.header("allow"), "GET, HEAD, POST");
  EXPECT_EQ(put.body, envelope("MethodNotAllowed", "", "This resource only allows GET, HEAD, POST."));
  const HttpResult otherPage = post("/dashboard/api", "{}", nullptr);
  EXPECT_EQ(otherPage.status, 405);
  EXPECT_EQ(otherPage.header("allow"), "GET, HEAD");
}

// Without JavaScript the sign-in page's form posts to the page itself: a
// redirect home on success, else the page again with the refusal in its
// alert, the email kept and the code's field shown when it is asked for.
TEST_F(DashboardTest, TheSignInFormWorksWithoutJavaScript) {
  const auto postForm = [this](const std::string& body, std::vector<std::pair<std::string, std::string>> extra = {}) {
    extra.emplace_back("Content-Type", "application/x-www-form-urlencoded");
    return post("/dashboard/sign-in", body, nullptr, std::move(extra));
  };
  const HttpResult signedIn = postForm("email=owner%40acme.example&password=" + std::string(kPassword) + "&code=");
  EXPECT_EQ(signedIn.status, 303);
  EXPECT_EQ(signedIn.header("location"), "/dashboard/api");
  EXPECT_TRUE(std::regex_match(signedIn.header("set-cookie"),
                               std::regex("__Host-codepayload-session=[A-Za-z0-9_-]{43}; Secure; HttpOnly; "
                                          "SameSite=Strict; Path=/")))
      << signedIn.header("set-cookie");
  const HttpResult operatorIn = postForm("email=ops%40installation.example&password=" + std::string(kPassword));
  EXPECT_EQ(operatorIn.status, 303);
  EXPECT_EQ(operatorIn.header("location"), "/dashboard/organizations");

  const HttpResult refused = postForm("email=%22%3Cb%3Eowner%40acme.example&password=wrong+one");
  EXPECT_EQ(refused.status, 200);
  EXPECT_EQ(refused.header("content-type"), "text/html; charset=utf-8");
  EXPECT_EQ(refused.header("set-cookie"), "<absent>");
  expectDashboardHeaders(refused);
  // The refusal in GOV.UK's error summary, focused, and the title says so.
  EXPECT_NE(refused.body.find(R"(<div id="page-alert" class="alert" role="alert" tabindex="-1" autofocus>)"
                              R"(<h2>There is a problem</h2><ul><li>The email, password or authentication code is )"
                              R"(not right.</li></ul></div>)"),
            std::string::npos)
      << refused.body;
  EXPECT_NE(refused.body.find("<title>Error: Sign in - Code-Payload dashboard</title>"), std::string::npos);
  EXPECT_NE(refused.body.find(R"(<input id="email" name="email" type="email" value="&quot;&lt;b&gt;owner@acme.)"
                              R"(example" autocomplete="username" required>)"),
            std::string::npos)
      << refused.body;
  EXPECT_NE(refused.body.find(R"(<p id="code-field" hidden>)"), std::string::npos);

  const Browser browser = signIn("dev@acme.example");
  enrolTotp(browser);
  const HttpResult codeAsked = postForm("email=dev%40acme.example&password=" + std::string(kPassword));
  EXPECT_EQ(codeAsked.status, 200);
  // Asking for the code is no error: a plain message, the title as it was.
  EXPECT_NE(codeAsked.body.find(R"(<div id="page-alert" class="alert" role="alert" tabindex="-1"><p>Enter the )"
                                R"(authentication code from your app, or one of your recovery codes.</p></div>)"),
            std::string::npos)
      << codeAsked.body;
  EXPECT_NE(codeAsked.body.find("<title>Sign in - Code-Payload dashboard</title>"), std::string::npos);
  EXPECT_NE(codeAsked.body.find(R"(<p id="code-field"><label for="code">)"), std::string::npos) << codeAsked.body;
  EXPECT_NE(codeAsked.body.find(R"(<input id="code" name="code" required autofocus autocomplete="one-time-code")"),
            std::string::npos)
      << codeAsked.body;

  // The checks of every change hold: its own origin, a readable body.
  const HttpResult crossSite = postForm("email=a&password=b", {{"Sec-Fetch-Site", "cross-site"}});
  EXPECT_EQ(crossSite.status, 403);
  const HttpResult malformed = postForm("email=%zz");
  EXPECT_EQ(malformed.status, 400);
  EXPECT_EQ(malformed.body, envelope("BadRequest", "", "The form's body is malformed."));

  const std::vector<accounts::AuditRecord> records =
      store_.readAudit(accounts::AuditQuery{organizationId_, std::string("account.sign-in"), 10});
  ASSERT_GE(records.size(), 2u);
  // The password was right and the code is asked: a step that went right, not a refusal.
  EXPECT_EQ(records[0].result, accounts::AuditResult::Success);
  EXPECT_EQ(records[0].detail, "password accepted, code asked");
}

TEST_F(DashboardTest, SigningOutIsRecorded) {
  const Browser browser = signIn("owner@acme.example");
  EXPECT_EQ(post("/dashboard/data/sign-out", "", &browser).status, 204);
  const Browser again = signIn("owner@acme.example");
  EXPECT_EQ(post("/dashboard/data/sign-out-everywhere", "", &again).status, 204);
  const std::vector<accounts::AuditRecord> records =
      store_.readAudit(accounts::AuditQuery{organizationId_, std::string("account.sign-out"), 10});
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].actor, "owner@acme.example");
  EXPECT_EQ(records[0].detail, "every session");
  EXPECT_EQ(records[0].target, owner_.id);
  EXPECT_EQ(records[1].detail, "");
  EXPECT_EQ(records[1].result, accounts::AuditResult::Success);
}

// RFC 9110 §9.3.2: every GET of the dashboard answers HEAD with the GET's
// status and headers, Content-Length included, and no body.
TEST_F(DashboardTest, HeadAnswersEveryGet) {
  const Browser browser = signIn("owner@acme.example");
  for (const std::string target : {"/dashboard/sign-in", "/dashboard/api", "/dashboard/assets/dashboard.css",
                                   "/dashboard/data/session", "/dashboard/data/clients", "/dashboard/"}) {
    const HttpResult got = get(target, &browser);
    HttpCall head{"HEAD", target, {{"Cookie", std::string(kSessionCookieName) + "=" + browser.sessionId}}, ""};
    const HttpResult headed = harness_.request(head);
    EXPECT_EQ(headed.status, got.status) << target;
    EXPECT_EQ(headed.reason, got.reason) << target;
    EXPECT_EQ(headed.body, "") << target;
    EXPECT_EQ(headed.header("content-length"), std::to_string(got.body.size())) << target;
    EXPECT_EQ(headed.header("content-type"), got.header("content-type")) << target;
    EXPECT_EQ(headed.header("location"), got.header("location")) << target;
    expectDashboardHeaders(headed);
  }
  EXPECT_EQ(harness_.request(HttpCall{"HEAD", "/dashboard/api", {}, ""}).header("location"), "/dashboard/sign-in");

  const HttpResult headChange = harness_.request(HttpCall{"HEAD", "/dashboard/data/clients/x/block", {}, ""});
  EXPECT_EQ(headChange.status, 405);
  EXPECT_EQ(headChange.header("allow"), "POST");
  const HttpResult put = harness_.request(HttpCall{"PUT", "/dashboard/data/clients", {}, ""});
  EXPECT_EQ(put.status, 405);
  EXPECT_EQ(put.header("allow"), "GET, HEAD, POST");
  EXPECT_EQ(put.body, envelope("MethodNotAllowed", "", "This resource only allows GET, HEAD, POST."));
}

TEST_F(DashboardTest, AnAccessTokenIsRefusedEverywhere) {
  const ApiClient client = harness_.createClient({"write:codes"});
  const std::string token = harness_.token(client);
  const std::string message =
      "An access token opens the API, not the dashboard; the dashboard takes no Authorization header. Sign in with an "
      "email and a password instead.";
  for (const std::string target : {"/dashboard/", "/dashboard/sign-in", "/dashboard/data/session",
                                   "/dashboard/data/clients", "/dashboard/assets/x.css"}) {
    const HttpResult result = harness_.request(HttpCall{"GET", target, {{"Authorization", "Bearer " + token}}, ""});
    EXPECT_EQ(result.status, 403) << target;
    EXPECT_EQ(result.body, envelope("Forbidden", "", message)) << target;
    expectDashboardHeaders(result);
  }
  const HttpResult posted = post("/dashboard/data/sign-in", "{}", nullptr, {{"Authorization", "Bearer " + token}});
  EXPECT_EQ(posted.status, 403);
  EXPECT_EQ(posted.body, envelope("Forbidden", "", message));
}

TEST_F(DashboardTest, PagesNeedASessionAndSendEachKindHome) {
  for (const std::string target : {"/dashboard/", "/dashboard/api", "/dashboard/organization", "/dashboard/audit",
                                   "/dashboard/organizations", "/dashboard/account", "/dashboard/try-it"}) {
    const HttpResult result = get(target);
    EXPECT_EQ(result.status, 303) << target;
    EXPECT_EQ(result.reason, "See Other") << target;
    EXPECT_EQ(result.header("location"), "/dashboard/sign-in") << target;
    expectDashboardHeaders(result);
  }
  const Browser user = signIn("owner@acme.example");
  EXPECT_EQ(get("/dashboard/", &user).header("location"), "/dashboard/api");
  EXPECT_EQ(get("/dashboard/organizations", &user).header("location"), "/dashboard/api");
  const Browser operatorBrowser = signIn("ops@installation.example");
  EXPECT_EQ(get("/dashboard/", &operatorBrowser).header("location"), "/dashboard/organizations");
  EXPECT_EQ(get("/dashboard/api", &operatorBrowser).header("location"), "/dashboard/organizations");
}

TEST_F(DashboardTest, SignInAnswersOneWayForUnknownEmailsAndWrongPasswords) {
  const std::string refused = envelope("SignInRefused", "", "The email, password or authentication code is not right.");
  const HttpResult unknown =
      post("/dashboard/data/sign-in", R"({"email":"nobody@acme.example","password":"whatever it is"})", nullptr);
  EXPECT_EQ(unknown.status, 401);
  EXPECT_EQ(unknown.body, refused);
  EXPECT_FALSE(unknown.has("set-cookie"));
  const HttpResult wrong =
      post("/dashboard/data/sign-in", R"({"email":"owner@acme.example","password":"not the password"})", nullptr);
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(wrong.body, refused);
  const HttpResult noPassword = post("/dashboard/data/sign-in", R"({"email":"owner@acme.example"})", nullptr);
  EXPECT_EQ(noPassword.status, 400);
  EXPECT_EQ(noPassword.body, envelope("Validation.Invalid.password", "password", "\\\"password\\\" is required."));
  const HttpResult notJson = post("/dashboard/data/sign-in", "[1]", nullptr);
  EXPECT_EQ(notJson.status, 400);
  EXPECT_EQ(notJson.body, envelope("Validation.Invalid.body", "body", "The body must be a JSON object."));
  const HttpResult form =
      post("/dashboard/data/sign-in", "email=a", nullptr, {{"Content-Type", "application/x-www-form-urlencoded"}});
  EXPECT_EQ(form.status, 415);

  const HttpResult signedIn =
      post("/dashboard/data/sign-in", R"({"email":"OWNER@acme.example","password":")" + std::string(kPassword) + "\"}",
           nullptr);
  EXPECT_EQ(signedIn.status, 200);
  EXPECT_EQ(signedIn.body, R"({"home":"/dashboard/api"})");
  expectDashboardHeaders(signedIn);

  const std::vector<accounts::AuditRecord> records =
      store_.readAudit(accounts::AuditQuery{organizationId_, std::string("account.sign-in"), 10});
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].actor, "owner@acme.example");
  EXPECT_EQ(records[0].address, "127.0.0.1");
  EXPECT_EQ(records[0].result, accounts::AuditResult::Success);
  EXPECT_EQ(records[1].result, accounts::AuditResult::Refused);
  EXPECT_EQ(records[1].detail, "wrong password or code");
}

TEST_F(DashboardTest, SessionDescribesTheUserAndSignOutEndsIt) {
  const Browser browser = signIn("dev@acme.example");
  const HttpResult session = get("/dashboard/data/session", &browser);
  ASSERT_EQ(session.status, 200);
  const auth::Organization organization = *harness_.service().auth().registry().findOrganization(organizationId_);
  char created[32];
  const std::time_t createdAt = organization.createdAt;
  std::tm utc{};
  ::gmtime_r(&createdAt, &utc);
  std::strftime(created, sizeof created, "%Y-%m-%dT%H:%M:%SZ", &utc);
  EXPECT_EQ(session.body, R"({"kind":"user","id":")" + developer_.id +
                              R"(","email":"dev@acme.example","role":"developer","totpEnabled":false,"csrfToken":")" +
                              browser.csrfToken + R"(","organization":{"id":")" + organizationId_ +
                              R"(","name":"Acme","plan":"starter","subscription":"active","coversApiClients":true,)"
                              R"("createdAt":")" +
                              created + R"(","requireTotp":false,"clientsSuspended":null}})");

  const Browser operatorBrowser = signIn("ops@installation.example");
  EXPECT_EQ(get("/dashboard/data/session", &operatorBrowser).body,
            R"({"kind":"operator","id":")" + operator_.id +
                R"(","email":"ops@installation.example","totpEnabled":false,"csrfToken":")" +
                operatorBrowser.csrfToken + R"("})");

  const HttpResult signedOut = post("/dashboard/data/sign-out", "", &browser);
  EXPECT_EQ(signedOut.status, 204);
  EXPECT_EQ(signedOut.reason, "No Content");
  EXPECT_EQ(signedOut.body, "");
  EXPECT_FALSE(signedOut.has("content-length"));
  EXPECT_EQ(signedOut.header("set-cookie"), expiredSessionCookie());
  const HttpResult after = get("/dashboard/data/session", &browser);
  EXPECT_EQ(after.status, 401);
  EXPECT_EQ(after.body, envelope("Unauthenticated", "", "Sign in first; there is no active session."));
}

TEST_F(DashboardTest, SignOutEverywhereEndsEverySessionOfTheAccount) {
  const Browser first = signIn("owner@acme.example");
  const Browser second = signIn("owner@acme.example");
  const Browser other = signIn("dev@acme.example");
  EXPECT_EQ(post("/dashboard/data/sign-out-everywhere", "", &second).status, 204);
  EXPECT_EQ(get("/dashboard/data/session", &first).status, 401);
  EXPECT_EQ(get("/dashboard/data/session", &second).status, 401);
  EXPECT_EQ(get("/dashboard/data/session", &other).status, 200);
}

TEST_F(DashboardTest, ChangesNeedTheCsrfTokenAndTheOwnOrigin) {
  const Browser browser = signIn("owner@acme.example");
  const std::string body = R"({"name":"line 1","scopes":["write:codes"]})";
  const HttpResult noToken = post("/dashboard/data/clients", body, &browser, {{"X-CSRF-Token", ""}});
  EXPECT_EQ(noToken.status, 403);
  EXPECT_EQ(noToken.body, envelope("Forbidden", "",
                                   "This change lacks the page's CSRF token (header X-CSRF-Token); reload the page "
                                   "and try again."));
  const Browser other = signIn("dev@acme.example");
  EXPECT_EQ(post("/dashboard/data/clients", body, &browser, {{"X-CSRF-Token", other.csrfToken}}).status, 403);
  const HttpResult crossSite = post("/dashboard/data/clients", body, &browser, {{"Sec-Fetch-Site", "cross-site"}});
  EXPECT_EQ(crossSite.status, 403);
  EXPECT_EQ(crossSite.body, envelope("Forbidden", "",
                                     "This request came from another site (Sec-Fetch-Site: cross-site); the dashboard "
                                     "only accepts changes from its own pages."));
  const HttpResult foreign = post("/dashboard/data/clients", body, &browser, {{"Origin", "https://evil.example"}});
  EXPECT_EQ(foreign.status, 403);
  EXPECT_EQ(foreign.body, envelope("Forbidden", "",
                                   "This request came from another origin; the dashboard only accepts changes from "
                                   "its own pages."));
  const HttpResult crossSiteSignIn = post("/dashboard/data/sign-in", "{}", nullptr, {{"Sec-Fetch-Site", "cross-site"}});
  EXPECT_EQ(crossSiteSignIn.status, 403);
  EXPECT_TRUE(harness_.service().auth().registry().listClients(organizationId_).empty());
  // A GET changes nothing and is not a route for a change.
  const HttpResult getBlock = get("/dashboard/data/clients/x/block", &browser);
  EXPECT_EQ(getBlock.status, 405);
  EXPECT_EQ(getBlock.header("allow"), "POST");
}

TEST_F(DashboardTest, ClientLifecycleReachesTheTokenEndpoint) {
  const Browser browser = signIn("dev@acme.example");
  const HttpResult created = post("/dashboard/data/clients", R"({"name":"line 1","scopes":["write:codes"]})", &browser);
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.reason, "Created");
  const Poco::JSON::Object::Ptr answer = parseObject(created.body);
  const Poco::JSON::Object::Ptr client = answer->getObject("client");
  const std::string clientId = client->getValue<std::string>("id");
  const std::string secret = answer->getValue<std::string>("secret");
  EXPECT_EQ(client->getValue<std::string>("name"), "line 1");
  EXPECT_EQ(client->getValue<std::string>("state"), "active");
  EXPECT_EQ(client->getValue<std::string>("createdBy"), "dev@acme.example");
  EXPECT_TRUE(client->isNull("lastUsedAt"));
  EXPECT_EQ(created.header("cache-control"), "no-store");

  const auto waitForToken = [&](int status) {
    return answerWithinASecond(status, [&] { return tokenRequest(clientId, secret); }).status;
  };
  EXPECT_EQ(waitForToken(200), 200);
  const HttpResult issued = tokenRequest(clientId, secret);
  const std::string accessToken = parseObject(issued.body)->getValue<std::string>("access_token");
  const auto waitForCodes = [&](int status) {
    return answerWithinASecond(status, [&] { return harness_.codes(accessToken, kOneItem); }).status;
  };
  EXPECT_EQ(waitForCodes(200), 200);

  const HttpResult blocked = post("/dashboard/data/clients/" + clientId + "/block", "", &browser);
  EXPECT_EQ(blocked.status, 200);
  EXPECT_EQ(parseObject(blocked.body)->getValue<std::string>("state"), "blocked");
  // The server's registry view saw the change before the answer (D-T6): the
  // very next requests are refused, with no wait.
  EXPECT_EQ(tokenRequest(clientId, secret).status, 401);
  EXPECT_EQ(harness_.codes(accessToken, kOneItem).status, 401);
  const HttpResult unblocked = post("/dashboard/data/clients/" + clientId + "/unblock", "", &browser);
  EXPECT_EQ(parseObject(unblocked.body)->getValue<std::string>("state"), "active");
  EXPECT_EQ(tokenRequest(clientId, secret).status, 200);
  EXPECT_EQ(harness_.codes(accessToken, kOneItem).status, 401);  // revoked by the block for good (D-S6)

  const HttpResult replacement = post("/dashboard/data/clients/" + clientId + "/replacement", "", &browser);
  ASSERT_EQ(replacement.status, 201) << replacement.body;
  const Poco::JSON::Object::Ptr replaced = parseObject(replacement.body)->getObject("client");
  const std::string replacementId = replaced->getValue<std::string>("id");
  EXPECT_NE(replacementId, clientId);
  EXPECT_EQ(replaced->getValue<std::string>("name"), "line 1");
  EXPECT_EQ(replaced->getValue<std::string>("replaces"), clientId);
  EXPECT_TRUE(replaced->isNull("replacedBy"));
  // The listing links the two, each way; a second replacement is refused while the first exists.
  const auto listedClient = [&](const std::string& id) {
    const Poco::JSON::Array::Ptr clients =
        parseObject(get("/dashboard/data/clients", &browser).body)->getArray("clients");
    for (std::size_t index = 0; index < clients->size(); ++index) {
      if (clients->getObject(index)->getValue<std::string>("id") == id) return clients->getObject(index);
    }
    return Poco::JSON::Object::Ptr();
  };
  ASSERT_TRUE(listedClient(clientId));
  EXPECT_EQ(listedClient(clientId)->getValue<std::string>("replacedBy"), replacementId);
  EXPECT_TRUE(listedClient(clientId)->isNull("replaces"));
  const HttpResult twice = post("/dashboard/data/clients/" + clientId + "/replacement", "", &browser);
  EXPECT_EQ(twice.status, 409);
  EXPECT_EQ(twice.body, envelope("Conflict", "",
                                 "This client is already replaced by " + replacementId +
                                     "; delete one of the two before creating another replacement."));
  EXPECT_EQ(tokenRequest(replacementId, parseObject(replacement.body)->getValue<std::string>("secret")).status, 200);

  // Deleting asks for the end of the client ID, which tells the two apart; the name does not.
  const std::string idEnd = clientId.substr(clientId.size() - 6);
  const std::string refusedDelete =
      envelope("Validation.Invalid.idEnd", "idEnd",
               "Type the last 6 characters of the client ID exactly to confirm that it should be deleted.");
  for (const std::string& body :
       {R"({"idEnd":")" + replacementId.substr(replacementId.size() - 6) + R"("})",
        R"({"idEnd":")" + clientId.substr(clientId.size() - 5) + R"("})", R"({"idEnd":")" + clientId + R"("})"}) {
    const HttpResult wrong = post("/dashboard/data/clients/" + clientId + "/delete", body, &browser);
    EXPECT_EQ(wrong.status, 400) << body;
    EXPECT_EQ(wrong.body, refusedDelete) << body;
  }
  EXPECT_EQ(post("/dashboard/data/clients/" + clientId + "/delete", R"({"idEnd":")" + idEnd + R"("})", &browser).status,
            204);
  EXPECT_EQ(tokenRequest(clientId, secret).status, 401);
  ASSERT_TRUE(listedClient(replacementId));
  EXPECT_TRUE(listedClient(replacementId)->isNull("replaces"));
  const HttpResult again = post("/dashboard/data/clients/" + clientId + "/block", "", &browser);
  EXPECT_EQ(again.status, 404);
  EXPECT_EQ(again.body, envelope("NotFound", "", "Your organization has no API client with this id."));

  const HttpResult list = get("/dashboard/data/clients", &browser);
  ASSERT_EQ(list.status, 200);
  const Poco::JSON::Object::Ptr listed = parseObject(list.body);
  EXPECT_TRUE(listed->getValue<bool>("canCreate"));
  EXPECT_TRUE(listed->isNull("cannotCreateReason"));
  ASSERT_EQ(listed->getArray("clients")->size(), 1u);
  EXPECT_EQ(listed->getArray("clients")->getObject(0)->getValue<std::string>("id"), replacementId);
  EXPECT_EQ(list.body.substr(0, 61), R"({"knownScopes":["read:codes","write:codes"],"canCreate":true,)");

  // Every change is in the audit log, by the user, from the client's address.
  // A replacement is recorded as one, with both ids; a refused second one too.
  std::vector<std::string> actions;
  for (const accounts::AuditRecord& record :
       store_.readAudit(accounts::AuditQuery{organizationId_, std::nullopt, 20})) {
    if (record.action.starts_with("client.")) {
      actions.push_back(record.action + " " + record.actor + " " + record.address + " " +
                        std::string(accounts::auditResultName(record.result)) + " " + record.target + " " +
                        record.detail);
    }
  }
  const std::string by = " dev@acme.example 127.0.0.1 ";
  EXPECT_EQ(actions,
            (std::vector<std::string>{
                "client.delete" + by + "success " + clientId + " ",
                "client.replace" + by + "refused " + clientId + " This client is already replaced by " + replacementId +
                    "; delete one of the two before creating another replacement.",
                "client.replace" + by + "success " + replacementId + " replaces=" + clientId + " scopes=write:codes",
                "client.unblock" + by + "success " + clientId + " ", "client.block" + by + "success " + clientId + " ",
                "client.create" + by + "success " + clientId + " scopes=write:codes"}));
}

TEST_F(DashboardTest, AClientOfAnotherOrganizationIsNotFound) {
  const ApiClient foreign = harness_.createClient({"write:codes"});
  const Browser browser = signIn("owner@acme.example");
  const HttpResult result = post("/dashboard/data/clients/" + foreign.clientId + "/block", "", &browser);
  EXPECT_EQ(result.status, 404);
  EXPECT_EQ(harness_.service().auth().registry().findClient(foreign.clientId)->state, auth::ClientState::Active);
}

TEST_F(DashboardTest, AViewerCannotChangeAnything) {
  const Browser owner = signIn("owner@acme.example");
  const HttpResult created = post("/dashboard/data/clients", R"({"name":"kept","scopes":["write:codes"]})", &owner);
  ASSERT_EQ(created.status, 201);
  const std::string clientId = parseObject(created.body)->getObject("client")->getValue<std::string>("id");

  const Browser viewer = signIn("viewer@acme.example");
  const std::string refusal =
      envelope("Forbidden", "", "Only an owner or a developer of the organization may do this. Your role is viewer.");
  for (const std::string& target :
       {std::string("/dashboard/data/clients"), "/dashboard/data/clients/" + clientId + "/block",
        "/dashboard/data/clients/" + clientId + "/unblock", "/dashboard/data/clients/" + clientId + "/delete",
        "/dashboard/data/clients/" + clientId + "/replacement"}) {
    const HttpResult result = post(target, R"({"name":"kept","scopes":["write:codes"]})", &viewer);
    EXPECT_EQ(result.status, 403) << target;
    EXPECT_EQ(result.body, refusal) << target;
  }
  const std::vector<auth::ClientRecord> clients = harness_.service().auth().registry().listClients(organizationId_);
  ASSERT_EQ(clients.size(), 1u);
  EXPECT_EQ(clients[0].state, auth::ClientState::Active);
  const HttpResult list = get("/dashboard/data/clients", &viewer);
  EXPECT_EQ(list.status, 200);
  EXPECT_FALSE(parseObject(list.body)->getValue<bool>("canCreate"));
  EXPECT_EQ(parseObject(list.body)->getValue<std::string>("cannotCreateReason"),
            "Only an owner or a developer of the organization may do this.");
}

TEST_F(DashboardTest, ThePlanGateRefusesClients) {
  const Browser browser = signIn("owner@thrifty.example");
  const HttpResult list = get("/dashboard/data/clients", &browser);
  EXPECT_EQ(list.body, R"({"knownScopes":["read:codes","write:codes"],"canCreate":false,"cannotCreateReason":"The )"
                       R"(organization's plan (free) does not include API clients; they need the Starter plan or )"
                       R"(higher.","clients":[]})");
  const HttpResult created = post("/dashboard/data/clients", R"({"name":"x","scopes":["write:codes"]})", &browser);
  EXPECT_EQ(created.status, 409);
  EXPECT_EQ(created.reason, "Conflict");
  EXPECT_EQ(created.body,
            envelope("PlanExcludesClients", "",
                     "The organization's plan (free) does not include API clients; they need the Starter plan or "
                     "higher."));
  harness_.service().auth().registry().setPlan(freeOrganizationId_, auth::Plan::Pro);
  harness_.service().auth().registry().setSubscription(freeOrganizationId_, auth::Subscription::Inactive);
  const HttpResult inactive = post("/dashboard/data/clients", R"({"name":"x","scopes":["write:codes"]})", &browser);
  EXPECT_EQ(inactive.status, 409);
  EXPECT_EQ(inactive.body, envelope("PlanExcludesClients", "",
                                    "The organization's subscription is inactive; API clients need an active "
                                    "subscription on the Starter plan or higher."));
  const std::vector<accounts::AuditRecord> refused =
      store_.readAudit(accounts::AuditQuery{freeOrganizationId_, std::string("client.create"), 10});
  ASSERT_EQ(refused.size(), 2u);
  EXPECT_EQ(refused[1].result, accounts::AuditResult::Refused);
  EXPECT_EQ(refused[1].actor, "owner@thrifty.example");
  EXPECT_EQ(refused[1].detail,
            "The organization's plan (free) does not include API clients; they need the Starter plan or higher.");
}

TEST_F(DashboardTest, BadClientRequestsAreNamed) {
  const Browser browser = signIn("owner@acme.example");
  // The registry's clauses, as the pages show them: sentences, on the field they are about.
  const HttpResult unknownScope = post("/dashboard/data/clients", R"({"name":"x","scopes":["write:code"]})", &browser);
  EXPECT_EQ(unknownScope.status, 400);
  EXPECT_EQ(unknownScope.body,
            envelope("Validation.Invalid.scopes", "scopes",
                     "Unknown scope \\\"write:code\\\" (did you mean \\\"write:codes\\\"? known scopes: read:codes, "
                     "write:codes)."));
  const HttpResult emptyScopes = post("/dashboard/data/clients", R"({"name":"x","scopes":[]})", &browser);
  EXPECT_EQ(emptyScopes.status, 400);
  EXPECT_EQ(emptyScopes.body, envelope("Validation.Invalid.scopes", "scopes",
                                       "A client needs at least one scope (known scopes: read:codes, write:codes)."));
  const HttpResult noScopes = post("/dashboard/data/clients", R"({"name":"x","scopes":"write:codes"})", &browser);
  EXPECT_EQ(noScopes.body,
            envelope("Validation.Invalid.scopes", "scopes", "\\\"scopes\\\" must be a list of strings."));
  const HttpResult badName =
      post("/dashboard/data/clients", R"({"name":"a\u0001b","scopes":["write:codes"]})", &browser);
  EXPECT_EQ(badName.status, 400);
  EXPECT_EQ(parseObject(badName.body)->getArray("errors")->getObject(0)->getValue<std::string>("code"),
            "Validation.Invalid.name");
  // A name that a bidirectional control would show as another ("invoice" + RLO + "fdp.exe" shows as
  // "invoiceexe.pdf"), as a JSON escape and as raw UTF-8.
  for (const std::string& name : {std::string(R"(invoice\u202Efdp.exe)"), std::string("invoice\xE2\x80\xAE"
                                                                                      "fdp.exe")}) {
    const HttpResult reordered =
        post("/dashboard/data/clients", R"({"name":")" + name + R"(","scopes":["write:codes"]})", &browser);
    EXPECT_EQ(reordered.status, 400) << name;
    EXPECT_EQ(reordered.body,
              envelope("Validation.Invalid.name", "name",
                       "A client name must not contain a bidirectional control character (U+202E at byte offset 7)."));
  }
  const HttpResult isolated =
      post("/dashboard/data/clients", R"({"name":"line \u2067A\u2069","scopes":["write:codes"]})", &browser);
  EXPECT_EQ(isolated.body,
            envelope("Validation.Invalid.name", "name",
                     "A client name must not contain a bidirectional control character (U+2067 at byte offset 5)."));
  EXPECT_TRUE(harness_.service().auth().registry().listClients(organizationId_).empty());
  const std::vector<accounts::AuditRecord> refused =
      store_.readAudit(accounts::AuditQuery{organizationId_, std::string("client.create"), 1});
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].result, accounts::AuditResult::Refused);
  // The audit keeps the registry's words, as codepayload-admin's refusals are recorded.
  EXPECT_EQ(refused[0].detail,
            "a client name must not contain a bidirectional control character (U+2067 at byte offset 5)");
}

// A body the connection could not take gets the answer every route gives
// (server/handlers/unread_body.h), with the dashboard's limit.
TEST_F(DashboardTest, ABodyOverTheLimitIsRefusedAsOnEveryRoute) {
  const Browser browser = signIn("owner@acme.example");
  const HttpResult large =
      post("/dashboard/data/clients", R"({"name":")" + std::string(70000, 'a') + R"(","scopes":[]})", &browser);
  EXPECT_EQ(large.status, 413);
  EXPECT_EQ(large.body,
            R"({"errors":[{"code":"BodyTooLarge","path":null,"message":"The body is larger than 65536 bytes."}]})");
  EXPECT_TRUE(harness_.service().auth().registry().listClients(organizationId_).empty());
}

TEST_F(DashboardTest, AnOperatorHasNoClientPage) {
  const Browser browser = signIn("ops@installation.example");
  const HttpResult result = get("/dashboard/data/clients", &browser);
  EXPECT_EQ(result.status, 403);
  EXPECT_EQ(result.body, envelope("Forbidden", "",
                                  "This part of the dashboard belongs to an organization's users; operators have no "
                                  "organization."));
}

TEST_F(DashboardTest, OwnersManageTheOrganizationsUsers) {
  const Browser owner = signIn("owner@acme.example");
  const HttpResult organization = get("/dashboard/data/organization", &owner);
  ASSERT_EQ(organization.status, 200);
  const Poco::JSON::Object::Ptr shown = parseObject(organization.body);
  EXPECT_EQ(shown->getValue<std::string>("name"), "Acme");
  EXPECT_FALSE(shown->getValue<bool>("requireTotp"));
  ASSERT_EQ(shown->getArray("users")->size(), 3u);
  std::vector<std::string> users;
  for (std::size_t i = 0; i < 3; ++i) {
    const Poco::JSON::Object::Ptr user = shown->getArray("users")->getObject(static_cast<unsigned>(i));
    users.push_back(user->getValue<std::string>("email") + " " + user->getValue<std::string>("role"));
  }
  std::sort(users.begin(), users.end());
  EXPECT_EQ(users, (std::vector<std::string>{"dev@acme.example developer", "owner@acme.example owner",
                                             "viewer@acme.example viewer"}));

  const HttpResult created =
      post("/dashboard/data/organization/users",
           R"({"email":"new@acme.example","role":"developer","password":")" + std::string(kPassword) + "\"}", &owner);
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string newId = parseObject(created.body)->getValue<std::string>("id");
  EXPECT_EQ(created.body.substr(0, 7 + newId.size() + 3), R"({"id":")" + newId + R"(",")");
  EXPECT_NE(created.body.find(R"("email":"new@acme.example","role":"developer","totpEnabled":false,"createdAt":")"),
            std::string::npos);
  const HttpResult taken =
      post("/dashboard/data/organization/users",
           R"({"email":"NEW@acme.example","role":"viewer","password":")" + std::string(kPassword) + "\"}", &owner);
  EXPECT_EQ(taken.status, 409);
  EXPECT_EQ(taken.body, envelope("Conflict", "email",
                                 "The email address NEW@acme.example is already a user of this organization."));
  const HttpResult reordered =
      post("/dashboard/data/organization/users",
           R"({"email":"moc.elpmaxe@\u202Eana","role":"viewer","password":")" + std::string(kPassword) + "\"}", &owner);
  EXPECT_EQ(reordered.status, 400);
  EXPECT_EQ(reordered.body, envelope("Validation.Invalid.email", "email",
                                     "The email address must not contain a bidirectional control character (U+202E "
                                     "at byte offset 12)."));
  const HttpResult weak = post("/dashboard/data/organization/users",
                               R"({"email":"w@acme.example","role":"viewer","password":"short"})", &owner);
  EXPECT_EQ(weak.status, 400);
  EXPECT_EQ(parseObject(weak.body)->getArray("errors")->getObject(0)->getValue<std::string>("code"),
            "Validation.Invalid.password");
  EXPECT_EQ(weak.body.find("short"), std::string::npos);
  const HttpResult badRole =
      post("/dashboard/data/organization/users",
           R"({"email":"r@acme.example","role":"admin","password":")" + std::string(kPassword) + "\"}", &owner);
  EXPECT_EQ(badRole.body, envelope("Validation.Invalid.role", "role", "The role must be owner, developer or viewer."));

  const HttpResult self = post("/dashboard/data/organization/users/" + owner_.id + "/delete", "", &owner);
  EXPECT_EQ(self.status, 409);
  EXPECT_EQ(self.body, envelope("Conflict", "", "You cannot remove yourself; ask another owner."));
  const HttpResult foreign = post("/dashboard/data/organization/users/" + freeOwner_.id + "/delete", "", &owner);
  EXPECT_EQ(foreign.status, 404);
  const Browser removed = signIn("new@acme.example");
  EXPECT_EQ(post("/dashboard/data/organization/users/" + newId + "/delete", "", &owner).status, 204);
  EXPECT_EQ(get("/dashboard/data/session", &removed).status, 401);
  EXPECT_FALSE(store_.findUser(newId).has_value());

  const std::vector<accounts::AuditRecord> records =
      store_.readAudit(accounts::AuditQuery{organizationId_, std::string("user.delete"), 10});
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].result, accounts::AuditResult::Success);
  EXPECT_EQ(records[0].detail, "email=new@acme.example role=developer");
  EXPECT_EQ(records[1].result, accounts::AuditResult::Refused);
}

TEST_F(DashboardTest, AddingAUserDoesNotTellWhetherTheEmailHasAnAccountElsewhere) {
  const Browser owner = signIn("owner@acme.example");
  const auto add = [&](const std::string& email) {
    return post("/dashboard/data/organization/users",
                R"({"email":")" + email + R"(","role":"developer","password":"an owner's chosen password"})", &owner);
  };
  // A new email, another organization's user and an operator: one answer's shape for all three.
  std::vector<std::string> ids;
  for (const std::string email : {"fresh@acme.example", "owner@thrifty.example", "ops@installation.example"}) {
    const HttpResult added = add(email);
    ASSERT_EQ(added.status, 201) << email << ": " << added.body;
    const Poco::JSON::Object::Ptr user = parseObject(added.body);
    const std::string id = user->getValue<std::string>("id");
    EXPECT_TRUE(std::regex_match(id, std::regex("usr_[A-Za-z0-9]{16}"))) << id;
    EXPECT_EQ(added.body, R"({"id":")" + id + R"(","email":")" + email +
                              R"(","role":"developer","totpEnabled":false,"createdAt":")" +
                              user->getValue<std::string>("createdAt") + R"("})");
    ids.push_back(id);
  }
  // The organization lists them alike, and refuses each a second time in the same words.
  const Poco::JSON::Array::Ptr users = parseObject(get("/dashboard/data/organization", &owner).body)->getArray("users");
  ASSERT_EQ(users->size(), 6u);
  std::vector<std::string> listed;
  for (unsigned i = 0; i < users->size(); ++i) {
    const Poco::JSON::Object::Ptr user = users->getObject(i);
    if (user->getValue<std::string>("role") != "developer" ||
        user->getValue<std::string>("email") == "dev@acme.example")
      continue;
    EXPECT_FALSE(user->getValue<bool>("totpEnabled"));
    listed.push_back(user->getValue<std::string>("id"));
  }
  std::sort(listed.begin(), listed.end());
  std::vector<std::string> expected = ids;
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(listed, expected);
  for (const std::string email : {"FRESH@acme.example", "Owner@Thrifty.example"}) {
    EXPECT_EQ(add(email).body,
              envelope("Conflict", "email", "The email address " + email + " is already a user of this organization."));
  }
  // The other organization's account is untouched: its own password still signs it in, to its own organization.
  const Browser thrifty = signIn("owner@thrifty.example");
  EXPECT_EQ(parseObject(get("/dashboard/data/session", &thrifty).body)
                ->getObject("organization")
                ->getValue<std::string>("id"),
            freeOrganizationId_);
  // Each is removed alike.
  for (const std::string& id : ids) {
    EXPECT_EQ(post("/dashboard/data/organization/users/" + id + "/delete", "", &owner).status, 204) << id;
  }
  EXPECT_EQ(parseObject(get("/dashboard/data/organization", &owner).body)->getArray("users")->size(), 3u);
  std::vector<std::string> details;
  for (const accounts::AuditRecord& record : store_.readAudit(accounts::AuditQuery{organizationId_, std::nullopt, 6})) {
    details.push_back(record.action + " " + std::string(accounts::auditResultName(record.result)) + " " +
                      record.detail);
  }
  EXPECT_EQ(details, (std::vector<std::string>{
                         "user.delete success email=ops@installation.example role=developer",
                         "user.delete success email=owner@thrifty.example role=developer",
                         "user.delete success email=fresh@acme.example role=developer",
                         "user.create refused the email address Owner@Thrifty.example is already a user of this "
                         "organization",
                         "user.create refused the email address FRESH@acme.example is already a user of this "
                         "organization",
                         "user.create success email=ops@installation.example role=developer"}));
}

TEST_F(DashboardTest, OnlyOwnersChangeUsersAndSettings) {
  for (const std::string email : {"dev@acme.example", "viewer@acme.example"}) {
    const Browser browser = signIn(email);
    const std::string role = email == "dev@acme.example" ? "developer" : "viewer";
    const std::string refusal =
        envelope("Forbidden", "", "Only an owner of the organization may do this. Your role is " + role + ".");
    for (const std::string& target : {std::string("/dashboard/data/organization/users"),
                                      "/dashboard/data/organization/users/" + owner_.id + "/delete",
                                      "/dashboard/data/organization/users/" + owner_.id + "/reset-password",
                                      std::string("/dashboard/data/organization/require-totp")}) {
      const HttpResult result = post(target, R"({"required":true})", &browser);
      EXPECT_EQ(result.status, 403) << target;
      EXPECT_EQ(result.body, refusal) << target;
    }
    EXPECT_EQ(get("/dashboard/data/organization", &browser).status, 200);
  }
  EXPECT_TRUE(store_.findUser(owner_.id).has_value());
  EXPECT_FALSE(store_.requiresTotp(organizationId_));
  // Users are not operators.
  const Browser owner = signIn("owner@acme.example");
  const HttpResult organizations = get("/dashboard/data/organizations", &owner);
  EXPECT_EQ(organizations.status, 403);
  EXPECT_EQ(organizations.body, envelope("Forbidden", "", "Only an operator of the installation may do this."));
  EXPECT_EQ(post("/dashboard/data/organizations", R"({"name":"X","plan":"pro"})", &owner).status, 403);
}

TEST_F(DashboardTest, RequiredTotpLimitsAUserToTheAccountPageUntilEnrolled) {
  const Browser owner = signIn("owner@acme.example");
  EXPECT_EQ(post("/dashboard/data/organization/require-totp", R"({"required":"yes"})", &owner).body,
            envelope("Validation.Invalid.required", "required", "\\\"required\\\" must be true or false."));
  // An owner without TOTP would shut themself out of the organization's pages: refused.
  const HttpResult withoutTotp = post("/dashboard/data/organization/require-totp", R"({"required":true})", &owner);
  EXPECT_EQ(withoutTotp.status, 409);
  EXPECT_EQ(withoutTotp.body, envelope("Conflict", "",
                                       "Turn on TOTP for your own account first (on the Account page); requiring it "
                                       "without it would lock you out of the organization's pages."));
  EXPECT_FALSE(store_.requiresTotp(organizationId_));
  const std::vector<accounts::AuditRecord> refused =
      store_.readAudit(accounts::AuditQuery{organizationId_, std::string("org.require-totp"), 10});
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_EQ(refused[0].result, accounts::AuditResult::Refused);
  EXPECT_EQ(refused[0].detail, "the owner has no TOTP");
  // Not requiring it locks no one out.
  EXPECT_EQ(post("/dashboard/data/organization/require-totp", R"({"required":false})", &owner).status, 200);
  enrolTotp(owner);
  const HttpResult required = post("/dashboard/data/organization/require-totp", R"({"required":true})", &owner);
  ASSERT_EQ(required.status, 200) << required.body;
  EXPECT_TRUE(parseObject(required.body)->getValue<bool>("requireTotp"));
  const Browser developer = signIn("dev@acme.example");
  const HttpResult clients = get("/dashboard/data/clients", &developer);
  EXPECT_EQ(clients.status, 403);
  EXPECT_EQ(clients.body, envelope("TotpRequired", "",
                                   "Your organization requires a second factor: turn on TOTP on the Account page "
                                   "first."));
  EXPECT_EQ(get("/dashboard/api", &developer).header("location"), "/dashboard/account");
  EXPECT_EQ(get("/dashboard/data/session", &developer).status, 200);

  EXPECT_EQ(post("/dashboard/data/account/totp/confirm", R"({"code":"123456"})", &developer).body,
            envelope("Conflict", "", "Start the TOTP enrolment first."));
  const HttpResult started = post("/dashboard/data/account/totp/start", "", &developer);
  ASSERT_EQ(started.status, 200) << started.body;
  const std::string secretText = parseObject(started.body)->getValue<std::string>("secret");
  EXPECT_EQ(parseObject(started.body)->getValue<std::string>("otpauthUri"),
            "otpauth://totp/Code-Payload%20Service:dev%40acme.example?secret=" + secretText +
                "&issuer=Code-Payload%20Service&algorithm=SHA1&digits=6&period=30");
  const std::string secret = *accounts::decodeBase32(secretText);
  const HttpResult wrong = post("/dashboard/data/account/totp/confirm", R"({"code":"000000x"})", &developer);
  EXPECT_EQ(wrong.status, 400);
  const HttpResult confirmed =
      post("/dashboard/data/account/totp/confirm",
           R"({"code":")" + accounts::totpCode(secret, std::time(nullptr)) + "\"}", &developer);
  ASSERT_EQ(confirmed.status, 200) << confirmed.body;
  EXPECT_EQ(parseObject(confirmed.body)->getArray("recoveryCodes")->size(), 10u);
  EXPECT_EQ(store_.recoveryCodesLeft(developer_.id), 10u);
  EXPECT_EQ(get("/dashboard/data/clients", &developer).status, 200);

  const HttpResult disable =
      post("/dashboard/data/account/totp/disable", R"({"password":")" + std::string(kPassword) + "\"}", &developer);
  EXPECT_EQ(disable.status, 409);
  EXPECT_EQ(disable.body, envelope("Conflict", "", "Your organization requires TOTP; it cannot be turned off."));
  // The owner, enrolled, still reaches the organization's pages and lifts the rule.
  const HttpResult lifted = post("/dashboard/data/organization/require-totp", R"({"required":false})", &owner);
  EXPECT_EQ(lifted.status, 200) << lifted.body;
  EXPECT_FALSE(parseObject(lifted.body)->getValue<bool>("requireTotp"));
}

TEST_F(DashboardTest, TotpCanBeTurnedOffWithThePassword) {
  const Browser developer = signIn("dev@acme.example");
  enrolTotp(developer);
  EXPECT_EQ(post("/dashboard/data/account/totp/start", "", &developer).status, 409);
  // Signing in now asks for the code.
  const HttpResult asked =
      post("/dashboard/data/sign-in", R"({"email":"dev@acme.example","password":")" + std::string(kPassword) + "\"}",
           nullptr);
  EXPECT_EQ(asked.status, 401);
  EXPECT_EQ(asked.body, envelope("SecondFactorNeeded", "",
                                 "Enter the authentication code from your app, or one of your recovery codes."));
  EXPECT_EQ(post("/dashboard/data/account/totp/disable", R"({"password":"not the password"})", &developer).body,
            envelope("Validation.Invalid.password", "password", "The password is not right."));
  EXPECT_EQ(
      post("/dashboard/data/account/totp/disable", R"({"password":")" + std::string(kPassword) + "\"}", &developer)
          .status,
      204);
  EXPECT_FALSE(store_.findUser(developer_.id)->totpEnabled);
}

TEST_F(DashboardTest, TheCodeThatTurnedTotpOnIsNotAcceptedAgainAtSignIn) {
  const Browser developer = signIn("dev@acme.example");
  const Enrolment enrolment = enrolTotp(developer);
  const auto signInWith = [&](const std::string& code) { return signInWithCode("dev@acme.example", code); };
  const HttpResult replayed = signInWith(enrolment.code);
  EXPECT_EQ(replayed.status, 401);
  EXPECT_EQ(replayed.body, envelope("SignInRefused", "", "The email, password or authentication code is not right."));
  EXPECT_FALSE(replayed.has("set-cookie"));
  // The app's next code (one step ahead is inside the window) is taken at once.
  const HttpResult next = signInWith(accounts::totpCode(enrolment.secret, std::time(nullptr) + 30));
  EXPECT_EQ(next.status, 200) << next.body;
  const std::vector<accounts::AuditRecord> records =
      store_.readAudit(accounts::AuditQuery{organizationId_, std::string("account.sign-in"), 2});
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].result, accounts::AuditResult::Success);
  EXPECT_EQ(records[1].result, accounts::AuditResult::Refused);
  EXPECT_EQ(records[1].detail, "wrong password or code");
}

TEST_F(DashboardTest, TotpSetUpShowsTheOtpauthUriAsAQrCode) {
  const Browser developer = signIn("dev@acme.example");
  const HttpResult started = post("/dashboard/data/account/totp/start", "", &developer);
  ASSERT_EQ(started.status, 200) << started.body;
  const Poco::JSON::Object::Ptr answer = parseObject(started.body);
  const std::string secret = answer->getValue<std::string>("secret");
  const std::string uri = answer->getValue<std::string>("otpauthUri");
  EXPECT_EQ(uri, "otpauth://totp/Code-Payload%20Service:dev%40acme.example?secret=" + secret +
                     "&issuer=Code-Payload%20Service&algorithm=SHA1&digits=6&period=30");
  const Poco::JSON::Object::Ptr qrCode = answer->getObject("qrCode");
  EXPECT_EQ(qrCode->size(), 3u);
  EXPECT_EQ(qrCode->getValue<std::string>("symbology"), "QR Code");
  EXPECT_EQ(qrCode->getValue<std::string>("label"), "QR Code of the key, for your authenticator app");
  const std::string svg = qrCode->getValue<std::string>("svg");
  EXPECT_TRUE(svg.starts_with(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="244" height="244" viewBox="0 0 61 61" role="img" )"
      R"(aria-label="QR Code of the key, for your authenticator app" shape-rendering="crispEdges">)"
      R"(<title>QR Code of the key, for your authenticator app</title>)"))
      << svg;
  // The secret is in the symbol's modules only, never in its text.
  EXPECT_EQ(svg.find(secret), std::string::npos);
  // What a phone's camera reads in it: the URI, byte for byte.
  const codepayload::testing::TempDir scratch;
  std::string failure;
  const std::optional<std::string> picture = codepayload::testing::rasteriseSvg(svg, 6, failure);
  ASSERT_TRUE(picture.has_value()) << failure;
  std::ofstream(scratch.path() / "qr.pgm", std::ios::binary) << *picture;
  EXPECT_EQ(codepayload::testing::zxingScan(scratch.path() / "qr.pgm", failure).value_or(failure), "]Q1" + uri);
}

TEST_F(DashboardTest, TheAccountSaysHowManyRecoveryCodesAreLeft) {
  const Browser developer = signIn("dev@acme.example");
  const auto state = [&] { return get("/dashboard/data/account/totp", &developer); };
  EXPECT_EQ(state().body, R"({"enabled":false,"recoveryCodesLeft":0})");
  const Enrolment enrolment = enrolTotp(developer);
  ASSERT_EQ(enrolment.recoveryCodes.size(), 10u);
  const HttpResult enabled = state();
  EXPECT_EQ(enabled.status, 200);
  EXPECT_EQ(enabled.header("content-type"), "application/json");
  EXPECT_EQ(enabled.body, R"({"enabled":true,"recoveryCodesLeft":10})");
  // A code signs in once, typed in capitals and without dashes too, then is used up.
  std::string typed = enrolment.recoveryCodes[3];
  std::erase(typed, '-');
  std::transform(typed.begin(), typed.end(), typed.begin(), [](char c) { return static_cast<char>(std::toupper(c)); });
  EXPECT_EQ(signInWithCode("dev@acme.example", typed).status, 200);
  EXPECT_EQ(state().body, R"({"enabled":true,"recoveryCodesLeft":9})");
  EXPECT_EQ(signInWithCode("dev@acme.example", enrolment.recoveryCodes[3]).status, 401);
  EXPECT_EQ(state().body, R"({"enabled":true,"recoveryCodesLeft":9})");
  // Turned off, the codes go with it.
  EXPECT_EQ(
      post("/dashboard/data/account/totp/disable", R"({"password":")" + std::string(kPassword) + "\"}", &developer)
          .status,
      204);
  EXPECT_EQ(state().body, R"({"enabled":false,"recoveryCodesLeft":0})");
  EXPECT_EQ(store_.recoveryCodesLeft(developer_.id), 0u);
  // An operator's account has the same page.
  const Browser operatorBrowser = signIn("ops@installation.example");
  EXPECT_EQ(get("/dashboard/data/account/totp", &operatorBrowser).body, R"({"enabled":false,"recoveryCodesLeft":0})");
  EXPECT_EQ(get("/dashboard/data/account/totp").status, 401);
}

TEST_F(DashboardTest, NewRecoveryCodesNeedThePasswordAndReplaceTheOldOnes) {
  const Browser developer = signIn("dev@acme.example");
  const auto replace = [&](const std::string& body) {
    return post("/dashboard/data/account/recovery-codes", body, &developer);
  };
  const std::string rightPassword = R"({"password":")" + std::string(kPassword) + "\"}";
  const HttpResult withoutTotp = replace(rightPassword);
  EXPECT_EQ(withoutTotp.status, 409);
  EXPECT_EQ(withoutTotp.body, envelope("Conflict", "", "TOTP is off for your account; recovery codes come with it."));

  const Enrolment enrolment = enrolTotp(developer);
  const HttpResult withoutPassword = replace("{}");
  EXPECT_EQ(withoutPassword.status, 400);
  EXPECT_EQ(withoutPassword.body, envelope("Validation.Invalid.password", "password", "\\\"password\\\" is required."));
  // A TOTP code is no password: new codes need what turning TOTP off needs.
  const HttpResult withCode =
      replace(R"({"code":")" + accounts::totpCode(enrolment.secret, std::time(nullptr) + 30) + "\"}");
  EXPECT_EQ(withCode.status, 400);
  EXPECT_EQ(withCode.body, envelope("Validation.Invalid.password", "password", "\\\"password\\\" is required."));
  const HttpResult wrong = replace(R"({"password":"not the password"})");
  EXPECT_EQ(wrong.status, 400);
  EXPECT_EQ(wrong.body, envelope("Validation.Invalid.password", "password", "The password is not right."));
  const HttpResult withoutCsrf =
      post("/dashboard/data/account/recovery-codes", rightPassword, &developer, {{"X-CSRF-Token", "not the token"}});
  EXPECT_EQ(withoutCsrf.status, 403);
  EXPECT_EQ(withoutCsrf.body, envelope("Forbidden", "",
                                       "This change lacks the page's CSRF token (header X-CSRF-Token); reload the page "
                                       "and try again."));
  EXPECT_EQ(signInWithCode("dev@acme.example", enrolment.recoveryCodes[0]).status, 200);
  EXPECT_EQ(get("/dashboard/data/account/totp", &developer).body, R"({"enabled":true,"recoveryCodesLeft":9})");

  const HttpResult replaced = replace(rightPassword);
  ASSERT_EQ(replaced.status, 200) << replaced.body;
  const std::vector<std::string> codes = recoveryCodesOf(replaced);
  ASSERT_EQ(codes.size(), 10u);
  EXPECT_EQ(parseObject(replaced.body)->size(), 1u);
  for (const std::string& code : codes) {
    EXPECT_EQ(std::count(enrolment.recoveryCodes.begin(), enrolment.recoveryCodes.end(), code), 0) << code;
  }
  EXPECT_EQ(get("/dashboard/data/account/totp", &developer).body, R"({"enabled":true,"recoveryCodesLeft":10})");
  // The old codes sign in no more; the new ones do.
  const HttpResult old = signInWithCode("dev@acme.example", enrolment.recoveryCodes[1]);
  EXPECT_EQ(old.status, 401);
  EXPECT_EQ(old.body, envelope("SignInRefused", "", "The email, password or authentication code is not right."));
  EXPECT_EQ(signInWithCode("dev@acme.example", codes[9]).status, 200);
  EXPECT_EQ(get("/dashboard/data/account/totp", &developer).body, R"({"enabled":true,"recoveryCodesLeft":9})");

  // Audited: the enrolment's codes, the wrong password, the new codes; never a code itself.
  std::vector<std::string> records;
  for (const accounts::AuditRecord& record :
       store_.readAudit(accounts::AuditQuery{organizationId_, std::string("account.recovery-codes"), 10})) {
    EXPECT_EQ(record.actor, "dev@acme.example");
    EXPECT_EQ(record.target, developer_.id);
    EXPECT_EQ(record.address, "127.0.0.1");
    records.push_back((record.result == accounts::AuditResult::Success ? "success " : "refused ") + record.detail);
  }
  EXPECT_EQ(records, (std::vector<std::string>{"success count=10", "refused wrong password", "success count=10"}));
}

TEST_F(DashboardTest, TurningTotpOffIsThrottledLikeSignIn) {
  const Browser developer = signIn("dev@acme.example");
  enrolTotp(developer);
  const auto disable = [&](const std::string& password) {
    return post("/dashboard/data/account/totp/disable", R"({"password":")" + password + "\"}", &developer);
  };
  const auto firstFailure = std::chrono::steady_clock::now();
  for (int attempt = 0; attempt < 10; ++attempt) {
    EXPECT_EQ(disable("guess " + std::to_string(attempt)).body,
              envelope("Validation.Invalid.password", "password", "The password is not right."))
        << attempt;
  }
  // Then every attempt, the right password included, is refused before any check.
  for (int attempt = 0; attempt < 3; ++attempt) {
    const HttpResult throttled = disable(kPassword);
    EXPECT_EQ(throttled.status, 429);
    const std::string retryAfter = throttled.header("retry-after");
    EXPECT_EQ(throttled.body,
              envelope("TooManyAttempts", "", "Too many wrong passwords; try again in " + retryAfter + " seconds."));
    const auto spent = std::chrono::ceil<std::chrono::seconds>(std::chrono::steady_clock::now() - firstFailure);
    EXPECT_GE(std::stoi(retryAfter), 900 - spent.count() - 1);
    EXPECT_LE(std::stoi(retryAfter), 900);
  }
  EXPECT_TRUE(store_.findUser(developer_.id)->totpEnabled);
  // Ten records of wrong passwords and one of the throttling, not one per throttled attempt.
  std::vector<std::string> details;
  for (const accounts::AuditRecord& record :
       store_.readAudit(accounts::AuditQuery{organizationId_, std::string("account.totp-disable"), 100})) {
    EXPECT_EQ(record.result, accounts::AuditResult::Refused);
    EXPECT_EQ(record.actor, "dev@acme.example");
    details.push_back(record.detail);
  }
  std::vector<std::string> expected{"throttled"};
  expected.insert(expected.end(), 10, "wrong password");
  EXPECT_EQ(details, expected);
  // The counts are the sign-in's: this address is throttled there for this account too.
  const HttpResult signInThrottled =
      post("/dashboard/data/sign-in", R"({"email":"dev@acme.example","password":")" + std::string(kPassword) + "\"}",
           nullptr);
  EXPECT_EQ(signInThrottled.status, 429);
  // Another account from the same address is not.
  EXPECT_EQ(post("/dashboard/data/sign-in",
                 R"({"email":"viewer@acme.example","password":")" + std::string(kPassword) + "\"}", nullptr)
                .status,
            200);
}

TEST_F(DashboardTest, AuditShowsTheOwnOrganizationToUsersAndEveryOneToOperators) {
  const Browser owner = signIn("owner@acme.example");
  signIn("owner@thrifty.example");
  const HttpResult own = get("/dashboard/data/audit?action=account.sign-in&limit=10", &owner);
  ASSERT_EQ(own.status, 200);
  const Poco::JSON::Array::Ptr records = parseObject(own.body)->getArray("records");
  ASSERT_EQ(records->size(), 1u);
  const Poco::JSON::Object::Ptr record = records->getObject(0);
  EXPECT_EQ(record->getValue<std::string>("actor"), "owner@acme.example");
  EXPECT_EQ(record->getValue<std::string>("organization"), organizationId_);
  EXPECT_EQ(record->getValue<std::string>("address"), "127.0.0.1");
  EXPECT_EQ(record->getValue<std::string>("result"), "success");
  EXPECT_EQ(get("/dashboard/data/audit?limit=0", &owner).body,
            envelope("Validation.Invalid.limit", "limit", "The limit must be a whole number from 1 to 1000."));
  EXPECT_EQ(get("/dashboard/data/audit?organization=" + freeOrganizationId_ + "&action=account.sign-in", &owner).body,
            own.body);

  const Browser operatorBrowser = signIn("ops@installation.example");
  const HttpResult every = get("/dashboard/data/audit?action=account.sign-in", &operatorBrowser);
  EXPECT_EQ(parseObject(every.body)->getArray("records")->size(), 3u);
  const HttpResult one =
      get("/dashboard/data/audit?action=account.sign-in&organization=" + freeOrganizationId_, &operatorBrowser);
  ASSERT_EQ(parseObject(one.body)->getArray("records")->size(), 1u);
  EXPECT_EQ(parseObject(one.body)->getArray("records")->getObject(0)->getValue<std::string>("actor"),
            "owner@thrifty.example");
}

// Records with known times, targets that exist and targets that are gone.
TEST_F(DashboardTest, AuditNamesTargetsFiltersByPrefixAndDownloadsAsCsv) {
  constexpr std::int64_t kAt = 1795832199;  // 2026-11-28T02:16:39Z
  const std::string clientId = harness_.service()
                                   .auth()
                                   .registry()
                                   .createClient(organizationId_, "=1+2 printer", {"write:codes"}, "test")
                                   .client.id;
  const std::string goneClient = "svc_client_000000000000000000000000";
  const std::string goneUser = "usr_0000000000000000";
  store_.appendAudit({0, kAt, "owner@acme.example", "client.create", clientId, organizationId_, "192.0.2.7",
                      accounts::AuditResult::Success, "scopes=write:codes"});
  store_.appendAudit({0, kAt + 1, "dev@acme.example", "client.block", goneClient, organizationId_, "192.0.2.8",
                      accounts::AuditResult::Refused, "-reason, \"quoted\""});
  store_.appendAudit({0, kAt + 2, "owner@acme.example", "user.set-role", developer_.id, organizationId_, "192.0.2.7",
                      accounts::AuditResult::Success, "role=developer->viewer"});
  store_.appendAudit({0, kAt + 3, "owner@acme.example", "user.delete", goneUser, organizationId_, "192.0.2.7",
                      accounts::AuditResult::Success, ""});
  const Browser owner = signIn("owner@acme.example");

  const std::string blocked = R"({"at":"2026-11-28T02:16:40Z","actor":"dev@acme.example","action":"client.block",)"
                              R"("target":")" +
                              goneClient +
                              R"(","targetEmail":null,"targetName":null,)"
                              R"("organization":")" +
                              organizationId_ +
                              R"(","address":"192.0.2.8","result":"refused",)"
                              R"("detail":"-reason, \"quoted\""})";
  const std::string created = R"({"at":"2026-11-28T02:16:39Z","actor":"owner@acme.example","action":"client.create",)"
                              R"("target":")" +
                              clientId +
                              R"(","targetEmail":null,"targetName":"=1+2 printer",)"
                              R"("organization":")" +
                              organizationId_ +
                              R"(","address":"192.0.2.7","result":"success",)"
                              R"("detail":"scopes=write:codes"})";
  EXPECT_EQ(get("/dashboard/data/audit?action=client", &owner).body,
            R"({"records":[)" + blocked + "," + created + "]}");
  EXPECT_EQ(get("/dashboard/data/audit?action=CLIENT", &owner).body,
            R"({"records":[)" + blocked + "," + created + "]}");
  EXPECT_EQ(get("/dashboard/data/audit?action=client.create", &owner).body, R"({"records":[)" + created + "]}");
  // LIKE's own characters stand for themselves.
  EXPECT_EQ(get("/dashboard/data/audit?action=client_", &owner).body, R"({"records":[]})");
  EXPECT_EQ(get("/dashboard/data/audit?action=%25", &owner).body, R"({"records":[]})");
  EXPECT_EQ(get("/dashboard/data/audit?action=user.s", &owner).body,
            R"({"records":[{"at":"2026-11-28T02:16:41Z","actor":"owner@acme.example","action":"user.set-role",)"
            R"("target":")" +
                developer_.id +
                R"(","targetEmail":"dev@acme.example","targetName":null,)"
                R"("organization":")" +
                organizationId_ +
                R"(","address":"192.0.2.7","result":"success",)"
                R"("detail":"role=developer->viewer"}]})");
  EXPECT_EQ(get("/dashboard/data/audit?action=user.delete&limit=1", &owner).body,
            R"({"records":[{"at":"2026-11-28T02:16:42Z","actor":"owner@acme.example","action":"user.delete",)"
            R"("target":")" +
                goneUser +
                R"(","targetEmail":null,"targetName":null,)"
                R"("organization":")" +
                organizationId_ + R"(","address":"192.0.2.7","result":"success","detail":""}]})");

  // The download: what the filters select, whatever the page's limit; formulas defused, RFC 4180 quoting.
  const std::string header = "time,actor,action,target,target_name,organization,address,result,detail\r\n";
  const std::string csv = header + "2026-11-28T02:16:40Z,dev@acme.example,client.block," + goneClient + ",," +
                          organizationId_ + ",192.0.2.8,refused,\"'-reason, \"\"quoted\"\"\"\r\n" +
                          "2026-11-28T02:16:39Z,owner@acme.example,client.create," + clientId + ",'=1+2 printer," +
                          organizationId_ + ",192.0.2.7,success,scopes=write:codes\r\n";
  const HttpResult download = get("/dashboard/data/audit.csv?action=client&limit=1", &owner);
  EXPECT_EQ(download.status, 200);
  EXPECT_EQ(download.body, csv);
  EXPECT_EQ(download.header("content-type"), "text/csv; charset=utf-8");
  EXPECT_EQ(download.header("content-disposition"), R"(attachment; filename="audit-log.csv")");
  EXPECT_EQ(download.header("cache-control"), "no-store");
  EXPECT_EQ(get("/dashboard/data/audit.csv?action=user.s", &owner).body,
            header + "2026-11-28T02:16:41Z,owner@acme.example,user.set-role," + developer_.id + ",dev@acme.example," +
                organizationId_ + ",192.0.2.7,success,role=developer->viewer\r\n");

  // As the page: a user reads the own organization only, an operator any; no session, no file.
  const Browser stranger = signIn("owner@thrifty.example");
  EXPECT_EQ(get("/dashboard/data/audit.csv?action=client&organization=" + organizationId_, &stranger).body, header);
  const Browser operatorBrowser = signIn("ops@installation.example");
  EXPECT_EQ(get("/dashboard/data/audit.csv?action=client", &operatorBrowser).body, csv);
  EXPECT_EQ(get("/dashboard/data/audit.csv?action=client&organization=" + freeOrganizationId_, &operatorBrowser).body,
            header);
  const HttpResult anonymous = get("/dashboard/data/audit.csv?action=client");
  EXPECT_EQ(anonymous.status, 401);
  EXPECT_EQ(anonymous.body, envelope("Unauthenticated", "", "Sign in first; there is no active session."));
}

TEST_F(DashboardTest, OperatorsManageOrganizations) {
  const Browser browser = signIn("ops@installation.example");
  const HttpResult created = post("/dashboard/data/organizations", R"({"name":"Newco","plan":"pro"})", &browser);
  ASSERT_EQ(created.status, 201) << created.body;
  const Poco::JSON::Object::Ptr organization = parseObject(created.body);
  const std::string id = organization->getValue<std::string>("id");
  EXPECT_EQ(created.body, R"({"id":")" + id +
                              R"(","name":"Newco","plan":"pro","subscription":"active",)"
                              R"("coversApiClients":true,"createdAt":")" +
                              organization->getValue<std::string>("createdAt") + R"("})");
  const auth::CreatedClient client =
      harness_.service().auth().registry().createClient(id, "line", {"write:codes"}, "tester");
  EXPECT_EQ(tokenRequest(client.client.id, client.secret).status, 200);
  const HttpResult plan = post("/dashboard/data/organizations/" + id + "/plan", R"({"plan":"free"})", &browser);
  EXPECT_EQ(plan.status, 200);
  EXPECT_EQ(parseObject(plan.body)->getValue<std::string>("plan"), "free");
  EXPECT_FALSE(parseObject(plan.body)->getValue<bool>("coversApiClients"));
  // Seen by the token endpoint before the answer (D-T6).
  const HttpResult downgraded = tokenRequest(client.client.id, client.secret);
  EXPECT_EQ(downgraded.status, 400);
  EXPECT_EQ(parseObject(downgraded.body)->getValue<std::string>("error"), "unauthorized_client");
  const HttpResult lapsed =
      post("/dashboard/data/organizations/" + id + "/subscription", R"({"subscription":"inactive"})", &browser);
  EXPECT_EQ(parseObject(lapsed.body)->getValue<std::string>("subscription"), "inactive");
  EXPECT_EQ(post("/dashboard/data/organizations/" + id + "/plan", R"({"plan":"gold"})", &browser).body,
            envelope("Validation.Invalid.plan", "plan", "The plan must be free, starter, pro or enterprise."));
  EXPECT_EQ(post("/dashboard/data/organizations/org_0000000000000000/plan", R"({"plan":"pro"})", &browser).body,
            envelope("NotFound", "", "There is no organization with this id."));
  const HttpResult reordered = post("/dashboard/data/organizations", R"({"name":"\u200FAcme","plan":"pro"})", &browser);
  EXPECT_EQ(reordered.status, 400);
  EXPECT_EQ(reordered.body, envelope("Validation.Invalid.name", "name",
                                     "An organization name must not contain a bidirectional control character "
                                     "(U+200F at byte offset 0)."));
  const HttpResult list = get("/dashboard/data/organizations", &browser);
  EXPECT_EQ(parseObject(list.body)->getArray("organizations")->size(), 3u);

  std::vector<std::string> actions;
  for (const accounts::AuditRecord& record : store_.readAudit(accounts::AuditQuery{id, std::nullopt, 10})) {
    actions.push_back(record.action + " " + record.actor + " " + std::string(accounts::auditResultName(record.result)));
  }
  EXPECT_EQ(actions, (std::vector<std::string>{"org.set-subscription ops@installation.example success",
                                               "org.set-plan ops@installation.example success",
                                               "org.create ops@installation.example success"}));
}

// The session's organization as the pages read it for the banner: its last members.
std::string suspensionOf(const std::string& sessionBody) {
  const std::size_t at = sessionBody.find(R"("requireTotp")");
  return at == std::string::npos ? sessionBody : sessionBody.substr(at);
}

TEST_F(DashboardTest, ClientsAreSuspendedWhileTheOrganizationCannotGetTokens) {
  auth::ClientRegistry& registry = harness_.service().auth().registry();
  const auth::CreatedClient line = registry.createClient(organizationId_, "line", {"write:codes"}, "tester");
  const auth::CreatedClient spare = registry.createClient(organizationId_, "spare", {"write:codes"}, "tester");
  registry.setClientState(spare.client.id, auth::ClientState::Blocked);
  const auto clientsJson = [&](std::string_view lineStanding, std::string_view lineReason) {
    const auto one = [](const auth::ClientRecord& client, std::string_view state, std::string_view standing,
                        std::string_view reason) {
      return R"({"id":")" + client.id + R"(","name":")" + client.name + R"(","scopes":["write:codes"],"state":")" +
             std::string(state) + R"(","standing":")" + std::string(standing) + R"(","standingReason":)" +
             std::string(reason) + R"(,"createdAt":")" + common::utcSecondsText(client.createdAt) +
             R"(","createdBy":"tester","lastUsedAt":null,"replaces":null,"replacedBy":null})";
    };
    return "[" + one(line.client, "active", lineStanding, lineReason) + "," +
           one(spare.client, "blocked", "blocked", "null") + "]";
  };
  const Browser developer = signIn("dev@acme.example");
  const Browser operatorBrowser = signIn("ops@installation.example");
  const std::string subscriptionPath = "/dashboard/data/organizations/" + organizationId_ + "/subscription";
  const std::string planPath = "/dashboard/data/organizations/" + organizationId_ + "/plan";

  EXPECT_EQ(get("/dashboard/data/clients", &developer).body,
            R"({"knownScopes":["read:codes","write:codes"],"canCreate":true,"cannotCreateReason":null,"clients":)" +
                clientsJson("active", "null") + "}");
  EXPECT_EQ(suspensionOf(get("/dashboard/data/session", &developer).body),
            R"("requireTotp":false,"clientsSuspended":null}})");

  ASSERT_EQ(post(subscriptionPath, R"({"subscription":"inactive"})", &operatorBrowser).status, 200);
  EXPECT_EQ(tokenRequest(line.client.id, line.secret).status, 400);
  EXPECT_EQ(get("/dashboard/data/clients", &developer).body,
            R"({"knownScopes":["read:codes","write:codes"],"canCreate":false,"cannotCreateReason":"The )"
            R"(organization's subscription is inactive; API clients need an active subscription on the Starter )"
            R"(plan or higher.","clients":)" +
                clientsJson("suspended", R"("The organization's subscription is inactive.")") + "}");
  EXPECT_EQ(suspensionOf(get("/dashboard/data/session", &developer).body),
            R"("requireTotp":false,"clientsSuspended":{"code":"subscriptionInactive","message":"Your )"
            R"(organization's subscription is inactive: API clients cannot get tokens until an operator )"
            R"(reactivates it."}}})");
  const std::string organizationSuspended = R"("requireTotp":false,"clientsSuspended":{"code":"subscriptionInactive",)";
  EXPECT_EQ(suspensionOf(get("/dashboard/data/organization", &developer).body).substr(0, organizationSuspended.size()),
            organizationSuspended);
  // A client answered after a change carries its standing too.
  const HttpResult unblocked = post("/dashboard/data/clients/" + spare.client.id + "/unblock", "", &developer);
  EXPECT_NE(unblocked.body.find(R"("state":"active","standing":"suspended","standingReason":"The organization's )"
                                R"(subscription is inactive.",)"),
            std::string::npos)
      << unblocked.body;
  registry.setClientState(spare.client.id, auth::ClientState::Blocked);

  ASSERT_EQ(post(subscriptionPath, R"({"subscription":"active"})", &operatorBrowser).status, 200);
  ASSERT_EQ(post(planPath, R"({"plan":"free"})", &operatorBrowser).status, 200);
  EXPECT_EQ(tokenRequest(line.client.id, line.secret).status, 400);
  EXPECT_EQ(get("/dashboard/data/clients", &developer).body,
            R"({"knownScopes":["read:codes","write:codes"],"canCreate":false,"cannotCreateReason":"The )"
            R"(organization's plan (free) does not include API clients; they need the Starter plan or higher.",)"
            R"("clients":)" +
                clientsJson("suspended", R"("The organization's plan (free) does not include API clients.")") + "}");
  EXPECT_EQ(suspensionOf(get("/dashboard/data/session", &developer).body),
            R"("requireTotp":false,"clientsSuspended":{"code":"planExcludesClients","message":"Your )"
            R"(organization's plan (free) does not include API clients: they cannot get tokens until an operator )"
            R"(moves it to the Starter plan or higher."}}})");

  ASSERT_EQ(post(planPath, R"({"plan":"starter"})", &operatorBrowser).status, 200);
  EXPECT_EQ(tokenRequest(line.client.id, line.secret).status, 200);
  // The token just issued set lastUsedAt: the rest of the listing is as at first.
  const std::string reactivated = get("/dashboard/data/clients", &developer).body;
  EXPECT_EQ(reactivated.substr(0, reactivated.find(R"(,"createdAt")")),
            R"({"knownScopes":["read:codes","write:codes"],"canCreate":true,"cannotCreateReason":null,"clients":[)"
            R"({"id":")" +
                line.client.id +
                R"(","name":"line","scopes":["write:codes"],"state":"active","standing":"active",)"
                R"("standingReason":null)");
  EXPECT_EQ(suspensionOf(get("/dashboard/data/session", &developer).body),
            R"("requireTotp":false,"clientsSuspended":null}})");
}

TEST_F(DashboardTest, AnOperatorAddsAnOrganizationsOwner) {
  const std::string newco = harness_.service().auth().registry().createOrganization("Newco", auth::Plan::Pro).id;
  const std::string path = "/dashboard/data/organizations/" + newco + "/owners";
  const Browser browser = signIn("ops@installation.example");
  const auto body = [](const std::string& email, const std::string& password) {
    return R"({"email":")" + email + R"(","password":")" + password + "\"}";
  };

  const HttpResult added = post(path, body("first@newco.example", kPassword), &browser);
  ASSERT_EQ(added.status, 201) << added.body;
  const std::optional<accounts::UserRecord> owner = store_.findUserByEmail("first@newco.example");
  ASSERT_TRUE(owner.has_value());
  EXPECT_EQ(owner->organizationId, newco);
  EXPECT_EQ(owner->role, accounts::Role::Owner);
  EXPECT_EQ(added.body, R"({"id":")" + owner->id +
                            R"(","email":"first@newco.example","role":"owner","totpEnabled":false,"createdAt":")" +
                            common::utcSecondsText(owner->createdAt) + R"("})");
  const Browser first = signIn("first@newco.example");
  const Poco::JSON::Object::Ptr session = parseObject(get("/dashboard/data/session", &first).body);
  EXPECT_EQ(session->getValue<std::string>("role"), "owner");
  EXPECT_EQ(session->getObject("organization")->getValue<std::string>("id"), newco);

  const HttpResult taken = post(path, body("Owner@acme.example", kPassword), &browser);
  EXPECT_EQ(taken.status, 409);
  EXPECT_EQ(taken.body, envelope("Conflict", "email", "The email address Owner@acme.example already has an account."));
  const HttpResult weak = post(path, body("second@newco.example", "short"), &browser);
  EXPECT_EQ(weak.status, 400);
  EXPECT_EQ(weak.body, envelope("Validation.Invalid.password", "password",
                                "The password has 5 characters; it needs at least 12."));
  const HttpResult badEmail = post(path, body("second", kPassword), &browser);
  EXPECT_EQ(badEmail.status, 400);
  EXPECT_EQ(parseObject(badEmail.body)->getArray("errors")->getObject(0)->getValue<std::string>("path"), "email");
  const HttpResult unknown =
      post("/dashboard/data/organizations/org_0000000000000000/owners", body("x@newco.example", kPassword), &browser);
  EXPECT_EQ(unknown.status, 404);
  EXPECT_EQ(unknown.body, envelope("NotFound", "", "There is no organization with this id."));
  const Browser acmeOwner = signIn("owner@acme.example");
  const HttpResult notOperator = post(path, body("third@newco.example", kPassword), &acmeOwner);
  EXPECT_EQ(notOperator.status, 403);
  EXPECT_EQ(notOperator.body, envelope("Forbidden", "", "Only an operator of the installation may do this."));
  EXPECT_EQ(store_.listUsers(newco).size(), 1u);

  // Audited as the CLI's `user create` is: the change's own record, and each refusal.
  std::vector<std::string> records;
  for (const accounts::AuditRecord& record :
       store_.readAudit(accounts::AuditQuery{newco, std::string("user.create"), 10})) {
    EXPECT_EQ(record.address, "127.0.0.1");
    EXPECT_EQ(record.detail.find(kPassword), std::string::npos);
    records.push_back(record.actor + " " + std::string(accounts::auditResultName(record.result)) + " " + record.target +
                      " " + record.detail);
  }
  EXPECT_EQ(records, (std::vector<std::string>{
                         "ops@installation.example refused  the email address must contain exactly one '@'",
                         "ops@installation.example refused  the password has 5 characters; it needs at least 12",
                         "ops@installation.example refused  the email address Owner@acme.example already has an "
                         "account",
                         "ops@installation.example success " + owner->id + " email=first@newco.example role=owner"}));
}

TEST_F(DashboardTest, TheSweepRemovesEndedSessionsOnly) {
  const std::int64_t now = std::time(nullptr);
  store_.insertSession(accounts::StoredSession{std::string(64, 'a'), owner_.id, now - 100, now - 100, now + 1000});
  store_.insertSession(accounts::StoredSession{std::string(64, 'b'), owner_.id, now - 4000, now - 1801, now + 1000});
  store_.insertSession(accounts::StoredSession{std::string(64, 'c'), owner_.id, now - 9000, now - 10, now});
  EXPECT_EQ(store_.removeEndedSessions(now, 1800), 2u);
  EXPECT_TRUE(store_.findSession(std::string(64, 'a')).has_value());
  EXPECT_FALSE(store_.findSession(std::string(64, 'b')).has_value());
  EXPECT_FALSE(store_.findSession(std::string(64, 'c')).has_value());
}

TEST_F(DashboardTest, UsageShowsThirtyDaysIncludingCountsNotYetWritten) {
  const Browser developer = signIn("dev@acme.example");
  const HttpResult created =
      post("/dashboard/data/clients", R"({"name":"line 2","scopes":["write:codes"]})", &developer);
  ASSERT_EQ(created.status, 201);
  const Poco::JSON::Object::Ptr answer = parseObject(created.body);
  const std::string clientId = answer->getObject("client")->getValue<std::string>("id");
  const std::string secret = answer->getValue<std::string>("secret");
  const HttpResult issued = answerWithinASecond(200, [&] { return tokenRequest(clientId, secret); });
  ASSERT_EQ(issued.status, 200);
  ASSERT_EQ(harness_.codes(parseObject(issued.body)->getValue<std::string>("access_token"), kOneItem).status, 200);

  char today[16];
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  std::strftime(today, sizeof today, "%Y-%m-%d", &utc);
  const Browser viewer = signIn("viewer@acme.example");
  for (const std::string& query : {"client=" + clientId, std::string("organization=current")}) {
    const HttpResult usage = get("/dashboard/data/usage?" + query, &viewer);
    ASSERT_EQ(usage.status, 200) << usage.body;
    const Poco::JSON::Array::Ptr days = parseObject(usage.body)->getArray("days");
    ASSERT_EQ(days->size(), 30u) << query;
    EXPECT_EQ(days->getObject(0)->getValue<std::uint64_t>("tokensIssued"), 0u);
    const std::string last =
        R"({"day":")" + std::string(today) + R"(","tokensIssued":1,"codesAccepted":1,"codesRejected":0}]})";
    EXPECT_EQ(usage.body.substr(usage.body.size() - last.size()), last) << query;
  }
  const HttpResult list = get("/dashboard/data/clients", &viewer);
  EXPECT_FALSE(parseObject(list.body)->getArray("clients")->getObject(0)->isNull("lastUsedAt"));
  EXPECT_EQ(get("/dashboard/data/usage", &viewer).body,
            envelope("Validation.Invalid.client", "client", "Ask for ?client=<client id> or ?organization=current."));
  const ApiClient foreign = harness_.createClient({"write:codes"});
  EXPECT_EQ(get("/dashboard/data/usage?client=" + foreign.clientId, &viewer).status, 404);
}

TEST_F(DashboardTest, PendingTotpSecretsAreCapped) {
  const std::unique_ptr<app::Registry> registry =
      app::openRegistry({harness_.dataDir(), auth::registryMigrationsDir(harness_.service().config().schemaDir),
                         std::nullopt, {}});
  DashboardAccounts accounts(*registry);
  for (std::size_t i = 0; i <= DashboardAccounts::kMaxPendingTotp; ++i) {
    accounts.keepPendingTotp("session " + std::to_string(i), "secret " + std::to_string(i));
  }
  EXPECT_EQ(accounts.pendingTotp("session 0"), std::nullopt);
  EXPECT_EQ(accounts.pendingTotp("session 1"), "secret 1");
  accounts.keepPendingTotp("session 1", "replaced");
  EXPECT_EQ(accounts.pendingTotp("session 1"), "replaced");
  accounts.forgetPendingTotp("session 1");
  EXPECT_EQ(accounts.pendingTotp("session 1"), std::nullopt);
  EXPECT_EQ(accounts.pendingTotp("session 4096"), "secret 4096");
}

TEST_F(DashboardTest, RepeatedFailuresAreThrottledWithRetryAfter) {
  const std::string wrong = R"({"email":"viewer@acme.example","password":"not the password"})";
  // The 15-minute window opens at the first failure: what is left of it when the 11th attempt
  // is answered depends on how long the ten took (seconds under the sanitizers).
  const auto firstFailure = std::chrono::steady_clock::now();
  for (int attempt = 0; attempt < 10; ++attempt) {
    EXPECT_EQ(post("/dashboard/data/sign-in", wrong, nullptr).status, 401) << attempt;
  }
  const HttpResult throttled =
      post("/dashboard/data/sign-in", R"({"email":"viewer@acme.example","password":")" + std::string(kPassword) + "\"}",
           nullptr);
  EXPECT_EQ(throttled.status, 429);
  const std::string retryAfter = throttled.header("retry-after");
  EXPECT_EQ(throttled.body,
            envelope("TooManyAttempts", "", "Too many failed sign-ins; try again in " + retryAfter + " seconds."));
  const auto spent = std::chrono::ceil<std::chrono::seconds>(std::chrono::steady_clock::now() - firstFailure);
  EXPECT_GE(std::stoi(retryAfter), 900 - spent.count() - 1);
  EXPECT_LE(std::stoi(retryAfter), 900);
  EXPECT_FALSE(throttled.has("set-cookie"));
  const std::vector<accounts::AuditRecord> records =
      store_.readAudit(accounts::AuditQuery{std::nullopt, std::string("account.sign-in"), 1});
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].detail, "throttled");
  // A throttled attempt is refused before the account is looked up.
  EXPECT_EQ(records[0].actor, "anonymous");
  // Further throttled attempts are answered alike and recorded no more: the lock's first refusal says it.
  const std::size_t recorded =
      store_.readAudit(accounts::AuditQuery{std::nullopt, std::string("account.sign-in"), 100}).size();
  EXPECT_EQ(recorded, 11u);
  for (int attempt = 0; attempt < 5; ++attempt) {
    EXPECT_EQ(post("/dashboard/data/sign-in", wrong, nullptr).status, 429);
  }
  EXPECT_EQ(store_.readAudit(accounts::AuditQuery{std::nullopt, std::string("account.sign-in"), 100}).size(), recorded);
  // That the viewer still signs in from another address needs a second client address:
  // tests/robustness/dashboard_guessing_test.cpp.
}

// Try it: the symbol of a definition or payload, as the symbols room draws it (its own tests
// pin its SVG and decode it), written into the answer as a JSON string.
std::string symbolMember(std::optional<symbols::Symbol> symbol) {
  EXPECT_TRUE(symbol.has_value());
  if (!symbol) return "";
  std::string out = R"("symbol":{"symbology":)";
  common::appendJsonString(out, symbols::symbologyName(symbol->symbology));
  out += R"(,"label":)";
  common::appendJsonString(out, symbol->label);
  out += R"(,"svg":)";
  common::appendJsonString(out, symbol->svg);
  out += R"(,"problem":null})";
  return out;
}

std::string dataMatrixMember(std::string_view elementString) {
  std::string fault;
  return symbolMember(symbols::drawGs1DataMatrix(elementString, fault));
}

std::string qrCodeMember(std::string_view uri) {
  std::string fault;
  return symbolMember(symbols::drawQrCode(uri, fault));
}

TEST_F(DashboardTest, TryItGeneratesOneDefinitionWithItsSymbolForEveryRole) {
  const std::string definition =
      R"json({"primaryKey":{"key":"01","value":"09506000134352"},"ais":[{"key":"10","value":"AB(C)"},)json"
      R"({"key":"17","value":"271231"}],"extensionParameters":[]})";
  const std::string generated = R"({"code":{"barcodeText":"(01)09506000134352(10)AB^040C^041(17)271231",)"
                                R"("hri":"(01)09506000134352(10)AB(C)(17)271231"},"failure":null,)" +
                                dataMatrixMember("(01)09506000134352(10)AB^040C^041(17)271231") + "}";
  for (const std::string email :
       {"owner@acme.example", "dev@acme.example", "viewer@acme.example", "ops@installation.example"}) {
    const Browser browser = signIn(email);
    const HttpResult result = post("/dashboard/data/try-it/generate", definition, &browser);
    EXPECT_EQ(result.status, 200) << email;
    EXPECT_EQ(result.header("content-type"), "application/json") << email;
    EXPECT_EQ(result.body, generated) << email;
    expectDashboardHeaders(result);
  }

  const Browser viewer = signIn("viewer@acme.example");
  const HttpResult link =
      post("/dashboard/data/try-it/generate",
           R"({"primaryKey":{"key":"01","value":"9506000134352"},"ais":[{"key":"10","value":"AB"}],)"
           R"("extensionParameters":[],"digitalLinkStem":"https://id.example.com/",)"
           R"("linkType":null,"context":null,"reference":"ignored"})",
           &viewer);
  EXPECT_EQ(link.status, 200);
  EXPECT_EQ(link.body, R"({"code":{"barcodeText":"https://id.example.com/01/09506000134352/10/AB",)"
                       R"("hri":"(01)09506000134352(10)AB"},"failure":null,)" +
                           qrCodeMember("https://id.example.com/01/09506000134352/10/AB") + "}");

  const HttpResult refused =
      post("/dashboard/data/try-it/generate",
           R"({"primaryKey":{"key":"01","value":"09506000134353"},"ais":[{"key":"17","value":"271331"}],)"
           R"("extensionParameters":[]})",
           &viewer);
  EXPECT_EQ(refused.status, 200);
  EXPECT_EQ(refused.body,
            R"({"code":null,"failure":{"errors":[{"code":"Validation.Invalid.primaryKey","path":"primaryKey",)"
            R"("args":["01","linter","csum","incorrectCheckDigit","13","1"],)"
            R"("message":"AI 01: the check digit '3' (character 14 of '09506000134353') is wrong; the right check )"
            R"(digit is 2."},{"code":"Validation.Invalid.ais.0","path":"ais.0",)"
            R"("args":["17","linter","yymmd0","illegalMonth","2","2"],)"
            R"("message":"AI 17: the month '13' (characters 3 to 4 of '271331') must be 01 to 12."}]},"symbol":null})");

  // What the engine refuses as a request, with the page's paths (no "codes.0.").
  const HttpResult wrongType =
      post("/dashboard/data/try-it/generate", R"({"primaryKey":{"key":1,"value":"1"}})", &viewer);
  EXPECT_EQ(wrongType.status, 400);
  EXPECT_EQ(wrongType.body, envelope("WrongType", "primaryKey.key", "primaryKey.key: must be a string"));
  const HttpResult missing = post("/dashboard/data/try-it/generate", "", &viewer);
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(missing.body, envelope("MissingField", "primaryKey", "primaryKey: required field is missing"));
}

TEST_F(DashboardTest, TryItReadsScannerDataAndPointsAtItsFaults) {
  const Browser viewer = signIn("viewer@acme.example");
  const HttpResult read =
      post("/dashboard/data/try-it/parse", R"({"data":"]d2010950600013435210ABC\u001d21XYZ"})", &viewer);
  EXPECT_EQ(read.status, 200);
  EXPECT_EQ(read.body, R"({"parsed":{"form":"scannerData","symbologyIdentifier":"]d2",)"
                       R"("definition":{"primaryKey":{"key":"01","value":"09506000134352"},)"
                       R"("ais":[{"key":"10","value":"ABC"},{"key":"21","value":"XYZ"}],"extensionParameters":[],)"
                       R"("digitalLinkStem":null,"linkType":null,"context":null},)"
                       R"("elementString":"(01)09506000134352(10)ABC(21)XYZ","hri":"(01)09506000134352(10)ABC(21)XYZ",)"
                       R"("digitalLink":null},"failure":null,)" +
                           dataMatrixMember("(01)09506000134352(10)ABC(21)XYZ") + "}");

  const HttpResult link =
      post("/dashboard/data/try-it/parse", R"({"data":"https://id.example.com/01/09506000134352?17=271231"})", &viewer);
  EXPECT_EQ(link.status, 200);
  EXPECT_NE(link.body.find(R"("digitalLink":"https://id.example.com/01/09506000134352?17=271231"},"failure":null,)" +
                           qrCodeMember("https://id.example.com/01/09506000134352?17=271231") + "}"),
            std::string::npos)
      << link.body;

  const HttpResult faulty = post("/dashboard/data/try-it/parse", R"({"data":"]d20109506000134353"})", &viewer);
  EXPECT_EQ(faulty.status, 200);
  EXPECT_EQ(faulty.body,
            R"({"parsed":null,"failure":{"form":"scannerData","symbologyIdentifier":"]d2",)"
            R"("definition":{"primaryKey":{"key":"01","value":"09506000134353"},"ais":[],"extensionParameters":[],)"
            R"("digitalLinkStem":null,"linkType":null,"context":null},)"
            R"("errors":[{"code":"Validation.Invalid.primaryKey","path":"primaryKey",)"
            R"("args":["01","linter","csum","incorrectCheckDigit","13","1"],)"
            R"("message":"AI 01: the check digit '3' (character 14 of '09506000134353') is wrong; the right check )"
            R"(digit is 2.","offset":5,"length":14}]},"symbol":null})");

  const HttpResult noData = post("/dashboard/data/try-it/parse", "{}", &viewer);
  EXPECT_EQ(noData.status, 400);
  EXPECT_EQ(noData.body, envelope("Validation.Invalid.data", "data", "\\\"data\\\" is required."));
}

TEST_F(DashboardTest, TryItNeedsASessionTheCsrfTokenAndTheOwnOrigin) {
  const std::string body = R"({"data":"]d20109506000134352"})";
  const HttpResult anonymous = post("/dashboard/data/try-it/parse", body, nullptr);
  EXPECT_EQ(anonymous.status, 401);
  EXPECT_EQ(anonymous.body, envelope("Unauthenticated", "", "Sign in first; there is no active session."));
  const Browser viewer = signIn("viewer@acme.example");
  for (const std::string target : {"/dashboard/data/try-it/generate", "/dashboard/data/try-it/parse"}) {
    const HttpResult noToken = post(target, body, &viewer, {{"X-CSRF-Token", ""}});
    EXPECT_EQ(noToken.status, 403) << target;
    EXPECT_EQ(noToken.body, envelope("Forbidden", "",
                                     "This change lacks the page's CSRF token (header X-CSRF-Token); reload the page "
                                     "and try again."))
        << target;
    EXPECT_EQ(post(target, body, &viewer, {{"Sec-Fetch-Site", "cross-site"}}).status, 403) << target;
    EXPECT_EQ(post(target, body, &viewer, {{"Origin", "https://evil.example"}}).status, 403) << target;
    const HttpResult got = get(target, &viewer);
    EXPECT_EQ(got.status, 405) << target;
    EXPECT_EQ(got.header("allow"), "POST") << target;
  }
  EXPECT_EQ(get("/dashboard/try-it").header("location"), "/dashboard/sign-in");
  const HttpResult page = get("/dashboard/try-it", &viewer);
  EXPECT_EQ(page.status, 200);
  EXPECT_EQ(page.header("content-type"), "text/html; charset=utf-8");
  EXPECT_NE(page.body.find("<h1>Try it</h1>"), std::string::npos);
  const Browser operatorBrowser = signIn("ops@installation.example");
  EXPECT_EQ(get("/dashboard/try-it", &operatorBrowser).status, 200);
}

// One definition or one payload: a body over 8 KiB is refused before it is read, as on every route.
TEST_F(DashboardTest, TryItTakesABodyOfOneDefinitionAtMost) {
  const Browser viewer = signIn("viewer@acme.example");
  const std::string largest = R"({"data":")" + std::string(8192 - 11, '0') + R"("})";
  ASSERT_EQ(largest.size(), 8192u);
  EXPECT_EQ(post("/dashboard/data/try-it/parse", largest, &viewer).status, 200);
  for (const std::string target : {"/dashboard/data/try-it/generate", "/dashboard/data/try-it/parse"}) {
    const HttpResult large = post(target, R"({"data":")" + std::string(8192 - 10, '0') + R"("})", &viewer);
    EXPECT_EQ(large.status, 413) << target;
    EXPECT_EQ(large.body,
              R"({"errors":[{"code":"BodyTooLarge","path":null,"message":"The body is larger than 8192 bytes."}]})")
        << target;
  }
}

TEST(DashboardSettings, OffMeansNotFound) {
  ServiceHarness harness([](ServerConfig& config) { config.dashboardEnabled = false; });
  const HttpResult page = harness.request(HttpCall{"GET", "/dashboard/sign-in", {}, ""});
  EXPECT_EQ(page.status, 404);
  EXPECT_EQ(page.body, envelope("NotFound", "", "There is no resource at this path."));
  EXPECT_FALSE(page.has("content-security-policy"));
}

TEST(DashboardSettings, ItsOwnListenerServesItAlone) {
  ServiceHarness harness([](ServerConfig& config) { config.dashboardListen = ListenAddress{"127.0.0.1", 0}; });
  ASSERT_TRUE(harness.service().dashboardPort().has_value());
  EXPECT_NE(*harness.service().dashboardPort(), harness.port());
  EXPECT_EQ(harness.request(HttpCall{"GET", "/dashboard/sign-in", {}, ""}).status, 404);
  EXPECT_EQ(harness.request(HttpCall{"GET", "/healthz/live", {}, ""}).status, 200);

  const auto fetch = [&](const std::string& target) {
    Poco::Net::HTTPSClientSession session("127.0.0.1", *harness.service().dashboardPort(), harness.clientContext());
    Poco::Net::HTTPRequest request("GET", target, Poco::Net::HTTPMessage::HTTP_1_1);
    session.sendRequest(request);
    Poco::Net::HTTPResponse response;
    std::istream& in = session.receiveResponse(response);
    std::ostringstream body;
    Poco::StreamCopier::copyStream(in, body);
    return std::make_pair(static_cast<int>(response.getStatus()), response.get("Content-Security-Policy", ""));
  };
  EXPECT_EQ(fetch("/dashboard/sign-in"), std::make_pair(200, std::string(kCsp)));
  EXPECT_EQ(fetch("/healthz/live").first, 404);
}

TEST_F(DashboardTest, ChangingThePasswordKeepsThisSessionAndEndsTheOthers) {
  const Browser here = signIn("dev@acme.example");
  const Browser elsewhere = signIn("dev@acme.example");
  const Browser viewer = signIn("viewer@acme.example");
  const std::string newPassword = "a new password, long enough";
  const auto change = [&](const std::string& current, const std::string& fresh, const std::string& confirmation) {
    return post("/dashboard/data/account/password",
                R"({"password":")" + current + R"(","newPassword":")" + fresh + R"(","confirmPassword":")" +
                    confirmation + "\"}",
                &here);
  };
  const HttpResult wrong = change("not the password", newPassword, newPassword);
  EXPECT_EQ(wrong.status, 400);
  EXPECT_EQ(wrong.body, envelope("Validation.Invalid.password", "password", "The password is not right."));
  const HttpResult weak = change(kPassword, "too short", "too short");
  EXPECT_EQ(weak.status, 400);
  EXPECT_EQ(weak.body,
            envelope("Validation.Invalid.newPassword", "newPassword",
                     "The new password is not allowed: the password has 9 characters; it needs at least 12."));
  const HttpResult differ = change(kPassword, newPassword, newPassword + "!");
  EXPECT_EQ(differ.status, 400);
  EXPECT_EQ(differ.body, envelope("Validation.Invalid.confirmPassword", "confirmPassword",
                                  "The two new passwords differ; type the same password in both fields."));
  EXPECT_EQ(
      post("/dashboard/data/account/password", R"({"password":"x","newPassword":")" + newPassword + "\"}", &here).body,
      envelope("Validation.Invalid.confirmPassword", "confirmPassword", "\\\"confirmPassword\\\" is required."));
  EXPECT_EQ(get("/dashboard/data/session", &elsewhere).status, 200) << "a refused change ends nothing";

  const HttpResult changed = change(kPassword, newPassword, newPassword);
  EXPECT_EQ(changed.status, 204) << changed.body;
  EXPECT_EQ(get("/dashboard/data/session", &here).status, 200);
  EXPECT_EQ(get("/dashboard/data/session", &elsewhere).status, 401);
  EXPECT_EQ(get("/dashboard/data/session", &viewer).status, 200) << "another account's session";
  EXPECT_EQ(signInWith("dev@acme.example", kPassword).body,
            envelope("SignInRefused", "", "The email, password or authentication code is not right."));
  EXPECT_EQ(signInWith("dev@acme.example", newPassword).status, 200);

  std::vector<std::string> records;
  for (const accounts::AuditRecord& record :
       store_.readAudit(accounts::AuditQuery{organizationId_, std::string("account.change-password"), 10})) {
    records.push_back(record.actor + " " + record.target + " " + record.detail);
  }
  EXPECT_EQ(records, (std::vector<std::string>{"dev@acme.example " + developer_.id + " sessions=1",
                                               "dev@acme.example " + developer_.id + " wrong password"}));
  // Operators change theirs alike.
  const Browser operatorBrowser = signIn("ops@installation.example");
  EXPECT_EQ(post("/dashboard/data/account/password",
                 R"({"password":")" + std::string(kPassword) + R"(","newPassword":")" + newPassword +
                     R"(","confirmPassword":")" + newPassword + "\"}",
                 &operatorBrowser)
                .status,
            204);
  EXPECT_EQ(signInWith("ops@installation.example", newPassword).status, 200);
}

TEST_F(DashboardTest, ChangingThePasswordIsThrottledLikeSignIn) {
  const Browser developer = signIn("dev@acme.example");
  const auto change = [&](const std::string& current) {
    return post("/dashboard/data/account/password",
                R"({"password":")" + current +
                    R"(","newPassword":"a new password, long enough","confirmPassword":"a new password, long enough"})",
                &developer);
  };
  for (int attempt = 0; attempt < 10; ++attempt) {
    EXPECT_EQ(change("guess " + std::to_string(attempt)).status, 400) << attempt;
  }
  const HttpResult throttled = change(kPassword);
  EXPECT_EQ(throttled.status, 429);
  EXPECT_EQ(throttled.body,
            envelope("TooManyAttempts", "",
                     "Too many wrong passwords; try again in " + throttled.header("retry-after") + " seconds."));
  EXPECT_EQ(signInWith("dev@acme.example", "a new password, long enough").status, 429);
  std::vector<std::string> details;
  for (const accounts::AuditRecord& record :
       store_.readAudit(accounts::AuditQuery{organizationId_, std::string("account.change-password"), 100})) {
    details.push_back(record.detail);
  }
  std::vector<std::string> expected{"throttled"};
  expected.insert(expected.end(), 10, "wrong password");
  EXPECT_EQ(details, expected);
}

TEST_F(DashboardTest, AnOwnerResetsAUsersPasswordWhichTheUserCompletesOnce) {
  const Browser owner = signIn("owner@acme.example");
  const Browser developer = signIn("dev@acme.example");
  const HttpResult reset = post("/dashboard/data/organization/users/" + developer_.id + "/reset-password", "", &owner);
  ASSERT_EQ(reset.status, 200) << reset.body;
  const std::regex answer(R"re(\{"resetCode":"([A-Za-z0-9_-]{43})","expiresAt":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"\})re");
  std::smatch shown;
  ASSERT_TRUE(std::regex_match(reset.body, shown, answer)) << reset.body;
  const std::string code = shown[1].str();
  EXPECT_EQ(get("/dashboard/data/session", &developer).status, 401);
  EXPECT_EQ(get("/dashboard/data/session", &owner).status, 200);
  const std::string pending =
      envelope("SignInRefused", "",
               "An owner of your organization reset your password, so it no longer signs in: open the reset link "
               "they gave you and choose a new password.");
  EXPECT_EQ(signInWith("dev@acme.example", kPassword).body, pending);
  // Only the right password learns of the reset.
  EXPECT_EQ(signInWith("dev@acme.example", "not the password").body,
            envelope("SignInRefused", "", "The email, password or authentication code is not right."));

  const std::string newPassword = "the developer's own password";
  const auto complete = [&](const std::string& withCode, const std::string& fresh, const std::string& confirmation) {
    return post(
        "/dashboard/data/password-reset",
        R"({"code":")" + withCode + R"(","newPassword":")" + fresh + R"(","confirmPassword":")" + confirmation + "\"}",
        nullptr);
  };
  const std::string notValid = envelope("Validation.Invalid.code", "code",
                                        "This reset link is not valid: it was used already, or a newer one replaced "
                                        "it. Ask an owner of your organization for a new reset link.");
  EXPECT_EQ(complete(std::string(43, 'A'), newPassword, newPassword).body, notValid);
  EXPECT_EQ(complete("short", newPassword, newPassword).body, notValid);
  EXPECT_EQ(complete(code, "too short", "too short").body,
            envelope("Validation.Invalid.newPassword", "newPassword",
                     "The new password is not allowed: the password has 9 characters; it needs at least 12."));
  EXPECT_EQ(complete(code, newPassword, "something else entirely").body,
            envelope("Validation.Invalid.confirmPassword", "confirmPassword",
                     "The two new passwords differ; type the same password in both fields."));
  const HttpResult crossSite =
      post("/dashboard/data/password-reset", R"({"code":")" + code + R"(","newPassword":"x","confirmPassword":"x"})",
           nullptr, {{"Sec-Fetch-Site", "cross-site"}});
  EXPECT_EQ(crossSite.status, 403);
  const HttpResult completed = complete(code, newPassword, newPassword);
  EXPECT_EQ(completed.status, 204) << completed.body;
  EXPECT_EQ(complete(code, newPassword, newPassword).body, notValid) << "once only";
  EXPECT_EQ(signInWith("dev@acme.example", kPassword).body,
            envelope("SignInRefused", "", "The email, password or authentication code is not right."));
  EXPECT_EQ(signInWith("dev@acme.example", newPassword).status, 200);

  const std::vector<accounts::AuditRecord> resets =
      store_.readAudit(accounts::AuditQuery{organizationId_, std::string("user.reset-password"), 10});
  ASSERT_EQ(resets.size(), 1u);
  EXPECT_EQ(resets[0].actor, "owner@acme.example");
  EXPECT_EQ(resets[0].target, developer_.id);
  EXPECT_EQ(resets[0].detail, "email=dev@acme.example sessions=1");
  const std::vector<accounts::AuditRecord> completions =
      store_.readAudit(accounts::AuditQuery{std::nullopt, std::string("account.complete-reset"), 10});
  std::vector<std::string> lines;
  for (const accounts::AuditRecord& record : completions) {
    lines.push_back(record.actor + " " + record.target + " " + record.organizationId + " " +
                    std::string(record.result == accounts::AuditResult::Success ? "success" : "refused") + " " +
                    record.detail);
  }
  // Unknown and used codes name no one and are not recorded.
  EXPECT_EQ(lines, (std::vector<std::string>{"dev@acme.example " + developer_.id + " " + organizationId_ +
                                             " success email=dev@acme.example"}));
  const auth::RegistryDatabase database =
      auth::RegistryDatabase::sqlite(harness_.dataDir() / app::kRegistryDatabaseFile);
  EXPECT_EQ(codepayload::testing::rawColumn(database, "SELECT count(*) FROM audit_log WHERE detail LIKE '%" + code +
                                                          "%' OR target LIKE '%" + code + "%'"),
            "0");
  EXPECT_EQ(codepayload::testing::rawColumn(database, "SELECT count(*) FROM users WHERE reset_code_digest IS NOT NULL"),
            "0");
}

TEST_F(DashboardTest, AnExpiredResetLinkIsRefusedAndTheOldPasswordStaysInvalid) {
  const Browser owner = signIn("owner@acme.example");
  const HttpResult reset = post("/dashboard/data/organization/users/" + viewer_.id + "/reset-password", "", &owner);
  ASSERT_EQ(reset.status, 200);
  const std::string code = parseObject(reset.body)->getValue<std::string>("resetCode");
  const auth::RegistryDatabase database =
      auth::RegistryDatabase::sqlite(harness_.dataDir() / app::kRegistryDatabaseFile);
  codepayload::testing::rawSql(database, "UPDATE users SET reset_expires_at = 1 WHERE id = '" + viewer_.id + "'");
  const HttpResult expired = post(
      "/dashboard/data/password-reset",
      R"({"code":")" + code + R"(","newPassword":"long enough password","confirmPassword":"long enough password"})",
      nullptr);
  EXPECT_EQ(expired.status, 400);
  EXPECT_EQ(expired.body,
            envelope("Validation.Invalid.code", "code",
                     "This reset link has expired. Ask an owner of your organization for a new reset link."));
  EXPECT_EQ(signInWith("viewer@acme.example", kPassword).status, 401);
  const std::vector<accounts::AuditRecord> refusals =
      store_.readAudit(accounts::AuditQuery{organizationId_, std::string("account.complete-reset"), 10});
  ASSERT_EQ(refusals.size(), 1u);
  EXPECT_EQ(refusals[0].target, viewer_.id);
  EXPECT_EQ(refusals[0].result, accounts::AuditResult::Refused);
  EXPECT_EQ(refusals[0].detail, "expired code");
  // A new reset replaces the old code.
  const HttpResult again = post("/dashboard/data/organization/users/" + viewer_.id + "/reset-password", "", &owner);
  const std::string newCode = parseObject(again.body)->getValue<std::string>("resetCode");
  EXPECT_NE(newCode, code);
  EXPECT_EQ(post("/dashboard/data/password-reset",
                 R"({"code":")" + newCode +
                     R"(","newPassword":"long enough password","confirmPassword":"long enough password"})",
                 nullptr)
                .status,
            204);
  EXPECT_EQ(signInWith("viewer@acme.example", "long enough password").status, 200);
}

TEST_F(DashboardTest, AnOwnerResetsNeitherThemselvesNorAnotherOrganizationsUser) {
  const Browser owner = signIn("owner@acme.example");
  const HttpResult self = post("/dashboard/data/organization/users/" + owner_.id + "/reset-password", "", &owner);
  EXPECT_EQ(self.status, 409);
  EXPECT_EQ(self.body, envelope("Conflict", "", "You cannot reset your own password; change it on your Account page."));
  const HttpResult foreign =
      post("/dashboard/data/organization/users/" + freeOwner_.id + "/reset-password", "", &owner);
  EXPECT_EQ(foreign.status, 404);
  EXPECT_EQ(foreign.body, envelope("NotFound", "", "Your organization has no user with this id."));
  const Browser operatorBrowser = signIn("ops@installation.example");
  EXPECT_EQ(
      post("/dashboard/data/organization/users/" + developer_.id + "/reset-password", "", &operatorBrowser).status,
      403);
  EXPECT_EQ(signInWith("owner@acme.example", kPassword).status, 200);
  EXPECT_EQ(signInWith("owner@thrifty.example", kPassword).status, 200);
  const std::vector<accounts::AuditRecord> records =
      store_.readAudit(accounts::AuditQuery{organizationId_, std::string("user.reset-password"), 10});
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].result, accounts::AuditResult::Refused);
  EXPECT_EQ(records[0].detail, "a user cannot reset their own password");
}

}  // namespace
}  // namespace codepayload::server::testing
