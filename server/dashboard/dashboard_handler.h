// Everything under /dashboard/: the pages (embedded files of
// dashboard/) and the JSON endpoints under /dashboard/data/ that the pages
// call. Thin: each endpoint parses, checks who asks (session, role, CSRF
// token, same origin), calls the registry, the accounts or the engine, and
// answers.
// Every answer carries the dashboard's security headers; any request with an
// Authorization header (an access token) is refused with 403.
// This unit holds the table of endpoints, the checks made before one
// answers, and the pages; the endpoints themselves are declared in
// dashboard_endpoints.h (one file per area), what they share in
// dashboard_call.h.
#pragma once

#include "server/dashboard/dashboard_accounts.h"
#include "server/handlers/service_handler.h"

namespace codepayload::server {

class DashboardHandler final : public ServiceHandler {
 public:
  // `accounts` must outlive the handler.
  DashboardHandler(const ServiceContext& context, DashboardAccounts& accounts);

 private:
  std::size_t admitRequest(HttpExchange& exchange, RequestTrace& trace) const override;
  void handle(HttpExchange& exchange, RequestTrace& trace) const override;

  DashboardAccounts& accounts_;
};

}  // namespace codepayload::server
