#include "server/dashboard/dashboard_handler.h"

#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>
#include <openssl/crypto.h>

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "auth/form_urlencoded.h"
#include "common/ascii.h"
#include "common/error_codes.h"
#include "server/dashboard/dashboard_files.h"
#include "server/dashboard/dashboard_security.h"
#include "server/dashboard/endpoints/dashboard_endpoints.h"
#include "server/handlers/unread_body.h"
#include "server/http/media_type.h"

namespace codepayload::server {

namespace dashboard {

namespace {

constexpr std::size_t kMaxBodyBytes = 64 * 1024;
constexpr std::string_view kDataPrefix = "/dashboard/data/";
// Try it takes one definition or one payload: a GS1 symbol holds a few
// thousand characters at most.
constexpr std::size_t kMaxTryItBodyBytes = 8 * 1024;
constexpr std::string_view kTryItPrefix = "/dashboard/data/try-it/";
constexpr std::string_view kSignInPage = "/dashboard/sign-in";

// The body bytes a POST to `path` may carry.
std::size_t bodyLimit(std::string_view path) {
  return path.starts_with(kTryItPrefix) ? kMaxTryItBodyBytes : kMaxBodyBytes;
}

// A change must come from the dashboard's own pages.
void refuseCrossSite(const Call& call) {
  if (const std::optional<std::string> refusal = crossSiteRefusal(
          call.exchange.field("Origin"), call.exchange.field("Sec-Fetch-Site"), call.exchange.field("Host"))) {
    throw forbidden(*refusal);
  }
}

// A POST's whole body, moved out of the exchange (so that the caller holds
// the one copy of what may be a password, and cleanses it).
std::string takeBody(Call& call) {
  std::string text = std::move(call.exchange.body());
  if (const BodyRead read = call.exchange.bodyRead(); read != BodyRead::Complete) {
    UnreadBodyAnswer answer = unreadBodyAnswer(read, bodyLimit(call.exchange.path()));
    throw Refusal{answer.status, std::string(answer.code), std::nullopt, std::move(answer.message)};
  }
  return text;
}

// Resumes the session the request's cookie names; fills call.session/who.
void resumeSession(Call& call) {
  std::array<std::string_view, 8> cookies{};
  const std::size_t count = call.exchange.fieldValues("Cookie", cookies);
  const std::string_view id = sessionIdFromCookies(std::span(cookies.data(), count));
  if (id.empty()) return;
  std::optional<accounts::ActiveSession> session = call.accounts.sessions().resume(id);
  if (!session) return;
  std::optional<Principal> who = principalOf(call.accounts, session->principalId);
  if (!who) return;
  call.sessionId = std::string(id);
  call.session = std::move(session);
  call.who = std::move(who);
}

// Paths a user whose organization requires TOTP may use before enrolling.
bool allowedBeforeTotp(std::span<const std::string_view> segments) {
  const std::string_view first = segments.empty() ? std::string_view() : segments[0];
  return first == "session" || first == "sign-out" || first == "sign-out-everywhere" || first == "account";
}

struct Endpoint {
  std::string_view method;
  // The path after /dashboard/data/, "/"-separated; "*" matches one segment.
  std::string_view pattern;
  Audience audience;
  Permission permission;
  std::function<void(Call&)> answer;
};

bool matches(std::string_view pattern, std::span<const std::string_view> segments) {
  std::size_t index = 0;
  while (true) {
    const std::size_t slash = pattern.find('/');
    const std::string_view part = pattern.substr(0, slash);
    if (index >= segments.size()) return false;
    if (part != "*" ? part != segments[index] : segments[index].empty()) return false;
    ++index;
    if (slash == std::string_view::npos) break;
    pattern.remove_prefix(slash + 1);
  }
  return index == segments.size();
}

const std::vector<Endpoint>& endpoints() {
  static const std::vector<Endpoint> table = {
      {"POST", "sign-in", Audience::Anyone, Permission::Read, signIn},
      {"POST", "sign-out", Audience::Signed, Permission::Read, signOut},
      {"POST", "sign-out-everywhere", Audience::Signed, Permission::Read, signOutEverywhere},
      {"GET", "session", Audience::Signed, Permission::Read, session},
      {"GET", "clients", Audience::User, Permission::Read, listClients},
      {"POST", "clients", Audience::User, Permission::Clients, createClient},
      {"POST", "clients/*/block", Audience::User, Permission::Clients,
       [](Call& call) { setClientState(call, auth::ClientState::Blocked); }},
      {"POST", "clients/*/unblock", Audience::User, Permission::Clients,
       [](Call& call) { setClientState(call, auth::ClientState::Active); }},
      {"POST", "clients/*/delete", Audience::User, Permission::Clients, deleteClient},
      {"POST", "clients/*/replacement", Audience::User, Permission::Clients, replaceClient},
      {"GET", "usage", Audience::User, Permission::Read, usage},
      {"GET", "organization", Audience::User, Permission::Read, [](Call& call) { organization(call); }},
      {"POST", "organization/users", Audience::User, Permission::Owner, createUser},
      {"POST", "organization/users/*/delete", Audience::User, Permission::Owner, deleteUser},
      {"POST", "organization/users/*/reset-password", Audience::User, Permission::Owner, resetUserPassword},
      {"POST", "organization/require-totp", Audience::User, Permission::Owner, requireTotp},
      {"GET", "audit", Audience::Signed, Permission::Read, audit},
      {"GET", "audit.csv", Audience::Signed, Permission::Read, auditCsv},
      {"GET", "organizations", Audience::Operator, Permission::Read, listOrganizations},
      {"POST", "organizations", Audience::Operator, Permission::Read, createOrganization},
      {"POST", "organizations/*/plan", Audience::Operator, Permission::Read, setOrganizationPlan},
      {"POST", "organizations/*/subscription", Audience::Operator, Permission::Read, setOrganizationSubscription},
      {"POST", "organizations/*/owners", Audience::Operator, Permission::Read, addOrganizationOwner},
      {"POST", "account/password", Audience::Signed, Permission::Read, changePassword},
      {"POST", "password-reset", Audience::Anyone, Permission::Read, completePasswordReset},
      {"GET", "account/totp", Audience::Signed, Permission::Read, totpState},
      {"POST", "account/totp/start", Audience::Signed, Permission::Read, startTotp},
      {"POST", "account/totp/confirm", Audience::Signed, Permission::Read, confirmTotp},
      {"POST", "account/totp/disable", Audience::Signed, Permission::Read, disableTotp},
      {"POST", "account/recovery-codes", Audience::Signed, Permission::Read, replaceRecoveryCodes},
      {"POST", "try-it/generate", Audience::Signed, Permission::Read, tryItGenerate},
      {"POST", "try-it/parse", Audience::Signed, Permission::Read, tryItParse},
  };
  return table;
}

std::vector<std::string_view> splitPath(std::string_view rest) {
  std::vector<std::string_view> segments;
  while (true) {
    const std::size_t slash = rest.find('/');
    segments.push_back(rest.substr(0, slash));
    if (slash == std::string_view::npos) return segments;
    rest.remove_prefix(slash + 1);
  }
}

// Checks a POST's origin, session, CSRF token, role and body; then answers.
void answerData(Call& call) {
  const std::string_view method = call.exchange.method();
  const Endpoint* endpoint = nullptr;
  std::string allow;
  for (const Endpoint& candidate : endpoints()) {
    if (!matches(candidate.pattern, call.segments)) continue;
    if (routeTakes(candidate.method, method)) endpoint = &candidate;
    allow += allow.empty() ? std::string(allowedMethods(candidate.method))
                           : ", " + std::string(allowedMethods(candidate.method));
  }
  if (endpoint == nullptr) {
    if (allow.empty()) throw notFound("There is no dashboard resource at this path.");
    call.exchange.addHeader("Allow", allow);
    throw Refusal{405, error_code::kMethodNotAllowed, std::nullopt, "This resource only allows " + allow + "."};
  }
  const bool changes = method == "POST";
  if (changes) refuseCrossSite(call);
  if (endpoint->audience != Audience::Anyone) {
    resumeSession(call);
    if (!call.who)
      throw Refusal{401, error_code::kUnauthenticated, std::nullopt, "Sign in first; there is no active session."};
    if (changes &&
        !accounts::SessionManager::csrfTokenMatches(call.sessionId, call.exchange.field("X-CSRF-Token").value_or(""))) {
      throw forbidden("This change lacks the page's CSRF token (header X-CSRF-Token); reload the page and try again.");
    }
    if (endpoint->audience == Audience::User && call.who->isOperator) {
      throw forbidden("This part of the dashboard belongs to an organization's users; operators have no organization.");
    }
    if (endpoint->audience == Audience::Operator && !call.who->isOperator) {
      throw forbidden("Only an operator of the installation may do this.");
    }
    if (call.who->user && !call.who->totpEnabled && !allowedBeforeTotp(call.segments) &&
        call.accounts.accounts().requiresTotp(call.organizationId())) {
      throw Refusal{403, error_code::kTotpRequired, std::nullopt,
                    "Your organization requires a second factor: turn on TOTP on the Account page first."};
    }
    if (call.who->user && !roleAllows(call.who->user->role, endpoint->permission)) {
      throw forbidden(std::string(permissionSentence(endpoint->permission)) + " Your role is " +
                      std::string(accounts::roleName(call.who->user->role)) + ".");
    }
  }
  if (changes) {
    // Moved out, so the one copy of what may hold a password is cleansed below.
    std::string text = takeBody(call);
    if (text.empty()) {
      call.body = new Poco::JSON::Object;
    } else {
      const std::optional<std::string_view> type = call.exchange.field("Content-Type");
      if (!type || !common::equalsIgnoringAsciiCase(bareMediaType(*type), "application/json")) {
        throw Refusal{415, error_code::kUnsupportedMediaType, std::nullopt, "Send the body as application/json."};
      }
      try {
        const Poco::Dynamic::Var parsed = Poco::JSON::Parser().parse(text);
        if (parsed.type() == typeid(Poco::JSON::Object::Ptr)) call.body = parsed.extract<Poco::JSON::Object::Ptr>();
      } catch (const Poco::Exception&) {
        call.body = nullptr;
      }
      OPENSSL_cleanse(text.data(), text.size());
      if (!call.body)
        throw Refusal{400, "Validation.Invalid.body", std::string("body"), "The body must be a JSON object."};
    }
  }
  endpoint->answer(call);
}

// Pages: (path under /dashboard/, file, who may see it).
struct Page {
  std::string_view path;
  std::string_view file;
  Audience audience;
};

constexpr std::array<Page, 8> kPages{{
    {"sign-in", "sign-in.html", Audience::Anyone},
    {"reset-password", "reset-password.html", Audience::Anyone},
    {"organization", "organization.html", Audience::User},
    {"api", "api.html", Audience::User},
    {"try-it", "try-it.html", Audience::Signed},
    {"audit", "audit.html", Audience::Signed},
    {"organizations", "organizations.html", Audience::Operator},
    {"account", "account.html", Audience::Signed},
}};

void sendFile(HttpExchange& exchange, const DashboardFile& file, RequestTrace& trace) {
  const std::optional<std::string_view> type = dashboardContentType(file.name);
  sendBody(exchange, 200, *type, file.bytes, trace);
}

// The sign-in form posted by a browser without JavaScript.
void answerSignInForm(Call& call) {
  refuseCrossSite(call);
  const std::optional<std::string_view> type = call.exchange.field("Content-Type");
  if (!type || !common::equalsIgnoringAsciiCase(bareMediaType(*type), "application/x-www-form-urlencoded")) {
    throw Refusal{415, error_code::kUnsupportedMediaType, std::nullopt,
                  "Send the form as application/x-www-form-urlencoded."};
  }
  std::string text = takeBody(call);
  signInWithForm(call, text);
  OPENSSL_cleanse(text.data(), text.size());
}

void answerPage(Call& call) {
  HttpExchange& exchange = call.exchange;
  if (exchange.path() == kSignInPage && exchange.method() == "POST") {
    answerSignInForm(call);
    return;
  }
  if (!routeTakes("GET", exchange.method())) {
    const std::string allow =
        std::string(allowedMethods("GET")) + (exchange.path() == kSignInPage ? ", POST" : "");
    exchange.addHeader("Allow", allow);
    throw Refusal{405, error_code::kMethodNotAllowed, std::nullopt, "This resource only allows " + allow + "."};
  }
  const std::string_view rest = exchange.path().substr(std::string_view("/dashboard/").size());
  if (rest.starts_with("assets/")) {
    const std::string_view name = rest.substr(std::string_view("assets/").size());
    const bool plain =
        !name.empty() && name.find('/') == std::string_view::npos && name.find("..") == std::string_view::npos;
    const std::optional<DashboardFile> file =
        plain ? findDashboardFile("assets/" + std::string(name)) : std::optional<DashboardFile>();
    if (!file || !dashboardContentType(file->name)) throw notFound("There is no dashboard asset with this name.");
    sendFile(exchange, *file, call.trace);
    return;
  }
  if (rest.empty()) {
    resumeSession(call);
    sendSeeOther(call, call.who ? homeOf(*call.who) : std::string(kSignInPage));
    return;
  }
  for (const Page& page : kPages) {
    if (page.path != rest) continue;
    if (page.audience != Audience::Anyone) {
      resumeSession(call);
      if (!call.who) {
        sendSeeOther(call, kSignInPage);
        return;
      }
      const bool wrongKind = (page.audience == Audience::User && call.who->isOperator) ||
                             (page.audience == Audience::Operator && !call.who->isOperator);
      if (wrongKind) {
        sendSeeOther(call, homeOf(*call.who));
        return;
      }
      if (page.path != "account" && call.who->user && !call.who->totpEnabled &&
          call.accounts.accounts().requiresTotp(call.who->user->organizationId)) {
        sendSeeOther(call, "/dashboard/account");
        return;
      }
    }
    const std::optional<DashboardFile> file = findDashboardFile(page.file);
    if (!file) throw notFound("This dashboard page is not part of this build.");
    sendFile(exchange, *file, call.trace);
    return;
  }
  throw notFound("There is no dashboard page at this path.");
}

}  // namespace

}  // namespace dashboard

DashboardHandler::DashboardHandler(const ServiceContext& context, DashboardAccounts& accounts)
    : ServiceHandler(context, FaultBody::Envelope), accounts_(accounts) {}

std::size_t DashboardHandler::admitRequest(HttpExchange& exchange, RequestTrace& /*trace*/) const {
  // A POST's JSON body (a change, or what Try it judges); pages and reads take none.
  return exchange.method() == "POST" ? dashboard::bodyLimit(exchange.path()) : 0;
}

void DashboardHandler::handle(HttpExchange& exchange, RequestTrace& trace) const {
  for (const auto& [name, value] : dashboardHeaders()) exchange.addHeader(name, value);
  dashboard::Call call{exchange,     trace,   accounts_, context_.usage, context_.engine, {}, {}, std::nullopt,
                       std::nullopt, nullptr, {}};
  try {
    if (exchange.field("Authorization")) {
      throw dashboard::forbidden(
          "An access token opens the API, not the dashboard; the dashboard takes no Authorization header. Sign in "
          "with an email and a password instead.");
    }
    const std::string_view path = exchange.path();
    if (path.starts_with(dashboard::kDataPrefix)) {
      call.segments = dashboard::splitPath(path.substr(dashboard::kDataPrefix.size()));
      const std::string_view target = exchange.target();
      const std::size_t question = target.find('?');
      if (question != std::string_view::npos &&
          auth::parseForm(target.substr(question + 1), 16, call.query) != auth::FormError::None) {
        throw dashboard::Refusal{400, error_code::kBadRequest, std::nullopt, "The query string is malformed."};
      }
      dashboard::answerData(call);
    } else {
      dashboard::answerPage(call);
    }
  } catch (const dashboard::Refusal& refusal) {
    sendErrorEnvelope(exchange, refusal.status, refusal.code,
                      refusal.path ? std::optional<std::string_view>(*refusal.path) : std::nullopt, refusal.message,
                      trace);
  }
}

}  // namespace codepayload::server
