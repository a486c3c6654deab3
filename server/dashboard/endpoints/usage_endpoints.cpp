// Usage counts (/dashboard/data/usage): a client's or the organization's last 30 days.
#include "server/dashboard/endpoints/dashboard_endpoints.h"

namespace codepayload::server::dashboard {

namespace {

constexpr int kUsageDays = 30;

}  // namespace

void usage(Call& call) {
  const std::optional<std::string> client = call.parameter("client");
  const std::optional<std::string> organization = call.parameter("organization");
  std::vector<auth::DailyUsage> days;
  if (client && !organization) {
    std::optional<auth::ClientRecord> found =
        auth::isWellFormedClientId(*client) ? call.accounts.registry().findClient(*client) : std::nullopt;
    if (!found || found->organizationId != call.organizationId() || found->state == auth::ClientState::Deleted) {
      throw notFound("Your organization has no API client with this id.");
    }
    days = call.usage.clientUsage(found->id, kUsageDays);
  } else if (organization && !client && *organization == "current") {
    days = call.usage.organizationUsage(call.organizationId(), kUsageDays);
  } else {
    throw invalid("client", "Ask for ?client=<client id> or ?organization=current.");
  }
  std::string out = "{\"days\":[";
  for (std::size_t i = 0; i < days.size(); ++i) {
    if (i > 0) out.push_back(',');
    out += "{";
    stringMember(out, "day", days[i].day);
    member(out, "tokensIssued");
    out += std::to_string(days[i].tokensIssued);
    member(out, "codesAccepted");
    out += std::to_string(days[i].codesAccepted);
    member(out, "codesRejected");
    out += std::to_string(days[i].codesRejected);
    out.push_back('}');
  }
  out += "]}";
  sendJson(call, 200, out);
}

}  // namespace codepayload::server::dashboard
