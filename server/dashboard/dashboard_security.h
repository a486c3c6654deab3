// The dashboard's browser-facing safeguards as pure functions (the
// OWASP Session Management and CSRF cheat sheets): the response headers every
// /dashboard/ answer carries, the session cookie, and the cross-site checks a
// state-changing request must pass. The handler applies them; the tests
// call them directly too.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace codepayload::server {

inline constexpr std::string_view kSessionCookieName = "__Host-codepayload-session";

inline constexpr std::string_view kDashboardContentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

// The headers of every /dashboard/ answer, in order (name, value).
std::span<const std::pair<std::string_view, std::string_view>> dashboardHeaders();

// Set-Cookie value that stores session `id` for this browser session:
// "__Host-codepayload-session=<id>; Secure; HttpOnly; SameSite=Strict; Path=/".
std::string sessionCookie(std::string_view id);
// Set-Cookie value that removes it (Max-Age=0).
std::string expiredSessionCookie();

// The session id in the Cookie header values `cookieHeaders` (RFC 6265 §5.4:
// "name=value" pairs separated by "; "), or "" when absent. Several Cookie
// headers are read in order; the first pair with the name wins.
std::string_view sessionIdFromCookies(std::span<const std::string_view> cookieHeaders);

// Why a state-changing request is refused as cross-site, or nullopt when it
// passes: `Sec-Fetch-Site` present and not "same-origin", or `Origin` present
// and not "https://<host>" (the request's Host, port included, compared
// without regard to ASCII case). Always https: the session cookie is
// __Host- and Secure, so a browser uses the dashboard over TLS only (behind a
// TLS-terminating proxy too).
std::optional<std::string> crossSiteRefusal(std::optional<std::string_view> origin,
                                            std::optional<std::string_view> secFetchSite,
                                            std::optional<std::string_view> host);

}  // namespace codepayload::server
