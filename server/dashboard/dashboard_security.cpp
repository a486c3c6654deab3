#include "server/dashboard/dashboard_security.h"

#include <array>

#include "common/ascii.h"

namespace codepayload::server {

namespace {

constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kHeaders{{
    {"Content-Security-Policy", kDashboardContentSecurityPolicy},
    {"X-Frame-Options", "DENY"},
    {"Referrer-Policy", "no-referrer"},
    {"Cache-Control", "no-store"},
    {"Vary", "Cookie, Origin, Sec-Fetch-Site"},
}};

using common::equalsIgnoringAsciiCase;

}  // namespace

std::span<const std::pair<std::string_view, std::string_view>> dashboardHeaders() { return kHeaders; }

std::string sessionCookie(std::string_view id) {
  return std::string(kSessionCookieName) + "=" + std::string(id) + "; Secure; HttpOnly; SameSite=Strict; Path=/";
}

std::string expiredSessionCookie() {
  return std::string(kSessionCookieName) + "=; Secure; HttpOnly; SameSite=Strict; Path=/; Max-Age=0";
}

std::string_view sessionIdFromCookies(std::span<const std::string_view> cookieHeaders) {
  for (std::string_view header : cookieHeaders) {
    while (!header.empty()) {
      const std::size_t end = header.find(';');
      const std::string_view pair = common::trimSpaceAndTab(header.substr(0, end));
      header = end == std::string_view::npos ? std::string_view() : header.substr(end + 1);
      const std::size_t equals = pair.find('=');
      if (equals == std::string_view::npos) continue;
      if (common::trimSpaceAndTab(pair.substr(0, equals)) == kSessionCookieName)
        return common::trimSpaceAndTab(pair.substr(equals + 1));
    }
  }
  return {};
}

std::optional<std::string> crossSiteRefusal(std::optional<std::string_view> origin,
                                            std::optional<std::string_view> secFetchSite,
                                            std::optional<std::string_view> host) {
  if (secFetchSite && *secFetchSite != "same-origin") {
    return "This request came from another site (Sec-Fetch-Site: " + std::string(*secFetchSite).substr(0, 32) +
           "); the dashboard only accepts changes from its own pages.";
  }
  // A form's navigation from a page whose referrer policy is no-referrer (the
  // dashboard's) carries "Origin: null"; the browser's own Sec-Fetch-Site,
  // which no page can set, then says whether it came from this origin.
  if (origin && *origin == "null" && secFetchSite) return std::nullopt;
  if (origin) {
    const std::string own = "https://" + std::string(host.value_or(""));
    if (!host || host->empty() || !equalsIgnoringAsciiCase(*origin, own)) {
      return "This request came from another origin; the dashboard only accepts changes from its own pages.";
    }
  }
  return std::nullopt;
}

}  // namespace codepayload::server
