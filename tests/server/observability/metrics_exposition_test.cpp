// The Prometheus text of the metrics listener (server/observability/metrics_exposition.h)
// from counters set by hand, line for line; label values escaped as the format
// says; and /healthz/ready's verdict (server/handlers/health_handler.h) for each state
// of the rules and the registry.
#include "server/observability/metrics_exposition.h"

#include <gtest/gtest.h>

#include <string>

#include "server/handlers/health_handler.h"

namespace codepayload::server {
namespace {

ScrapeValues sampleValues() {
  ScrapeValues values;
  values.version = "1.0.0";
  values.commit = "abc";
  values.dictionaryRelease = "2026-01-27";
  values.rulesRelease = "2025-01-30";
  values.rulesReloads = 2;
  values.rulesReloadFailures = 1;
  values.registryRefreshAgeSeconds = 0.25;
  values.registryRefreshFailures = 4;
  values.usageWrites = 9;
  values.usageWriteFailures = 10;
  values.connections.refusedOverAddressLimit = 5;
  values.connections.refusedQueueFull = 6;
  values.connections.closedOverdue = 7;
  values.connections.refusedOverConnectionLimit = 11;
  values.connections.closedSlowReader = 12;
  values.openConnections = 8;
  return values;
}

TEST(MetricsExposition, WritesEveryFamilyWithHelpTypeAndTheExactValues) {
  ServiceMetrics service;
  RouteMetrics& codes = service.route("/codes");
  RouteMetrics& unmatched = service.route("");
  EXPECT_EQ(&service.route("/codes"), &codes);
  codes.record(200, 300);        // <= 0.0005 s
  codes.record(200, 1'000);      // <= 0.001 s: a bound belongs to its bucket
  codes.record(400, 2'000'000);  // <= 2.5 s
  unmatched.record(404, 50);
  service.countTokenOutcome("issued");
  service.countTokenOutcome("badCredentials");
  service.countTokenOutcome("badCredentials");
  service.countTokenOutcome("addressThrottled");
  service.countLargeRequestThrottle(LargeRequestSlots::Refusal::Client);
  service.countLargeRequestThrottle(LargeRequestSlots::Refusal::Server);
  service.countLargeRequestThrottle(LargeRequestSlots::Refusal::Server);
  service.countUndeliveredAnswer();
  EngineMetrics engine;
  engine.codesAccepted.add(3);
  engine.codesRejected.add(1);
  engine.codesParsed.add(2);
  engine.parseRejected.add(1);
  engine.countError("Validation.Invalid.ais.2");
  engine.countError("Validation.Invalid.data");
  engine.countError("Validation.Invalid.custom");
  engine.luaModuleFailures.add();

  std::string text;
  writePrometheusText(sampleValues(), service, engine, text);
  EXPECT_EQ(
      text,
      R"T(# HELP codepayload_http_requests_total Requests answered by the handlers of the service listeners, by route (the matched path, or unmatched) and status; heads the HTTP layer refuses are not counted.
)T"
      R"T(# TYPE codepayload_http_requests_total counter
)T"
      R"T(codepayload_http_requests_total{route="/codes",status="200"} 2
)T"
      R"T(codepayload_http_requests_total{route="/codes",status="400"} 1
)T"
      R"T(codepayload_http_requests_total{route="unmatched",status="404"} 1
)T"
      R"T(# HELP codepayload_http_request_duration_seconds Time from a request's head being read to its answer being sent, by route.
)T"
      R"T(# TYPE codepayload_http_request_duration_seconds histogram
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="0.0001"} 0
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="0.00025"} 0
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="0.0005"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="0.001"} 2
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="0.0025"} 2
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="0.005"} 2
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="0.01"} 2
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="0.025"} 2
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="0.05"} 2
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="0.1"} 2
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="0.25"} 2
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="0.5"} 2
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="1"} 2
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="2.5"} 3
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="5"} 3
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="10"} 3
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="/codes",le="+Inf"} 3
)T"
      R"T(codepayload_http_request_duration_seconds_sum{route="/codes"} 2.001300
)T"
      R"T(codepayload_http_request_duration_seconds_count{route="/codes"} 3
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="0.0001"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="0.00025"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="0.0005"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="0.001"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="0.0025"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="0.005"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="0.01"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="0.025"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="0.05"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="0.1"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="0.25"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="0.5"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="1"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="2.5"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="5"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="10"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_bucket{route="unmatched",le="+Inf"} 1
)T"
      R"T(codepayload_http_request_duration_seconds_sum{route="unmatched"} 0.000050
)T"
      R"T(codepayload_http_request_duration_seconds_count{route="unmatched"} 1
)T"
      R"T(# HELP codepayload_codes_accepted_total Code definitions generated.
)T"
      R"T(# TYPE codepayload_codes_accepted_total counter
)T"
      R"T(codepayload_codes_accepted_total 3
)T"
      R"T(# HELP codepayload_codes_rejected_total Code definitions refused (each once, however many errors it had).
)T"
      R"T(# TYPE codepayload_codes_rejected_total counter
)T"
      R"T(codepayload_codes_rejected_total 1
)T"
      R"T(# HELP codepayload_payloads_parsed_total Payloads read back and accepted (/codes/parse).
)T"
      R"T(# TYPE codepayload_payloads_parsed_total counter
)T"
      R"T(codepayload_payloads_parsed_total 2
)T"
      R"T(# HELP codepayload_payloads_rejected_total Payloads read back and refused (each once, however many errors it had).
)T"
      R"T(# TYPE codepayload_payloads_rejected_total counter
)T"
      R"T(codepayload_payloads_rejected_total 1
)T"
      R"T(# HELP codepayload_code_errors_total Errors of refused code definitions, by the form of their code (<n> an index, <ai> an AI key; other: a Lua module's own code).
)T"
      R"T(# TYPE codepayload_code_errors_total counter
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.primaryKey"} 0
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.ais.<n>"} 1
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.ais"} 0
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.ais.<n>.digitalLink"} 0
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.ais.qualifiers"} 0
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.relations.<ai>.requires"} 0
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.relations.<ai>.excludes.<ai>"} 0
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.extensionParameters"} 0
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.extensionParameters.<n>"} 0
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.digitalLinkStem"} 0
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.context"} 0
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.linkType"} 0
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.rule.<module>"} 0
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.data"} 1
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.data.compressedDigitalLink"} 0
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.ais.<n>.placement"} 0
)T"
      R"T(codepayload_code_errors_total{code="Validation.Invalid.ais.qualifiers.order"} 0
)T"
      R"T(codepayload_code_errors_total{code="other"} 1
)T"
      R"T(# HELP codepayload_lua_failures_total Lua linters and rule modules that failed (error, instruction budget, memory cap, malformed answer); each fails its item.
)T"
      R"T(# TYPE codepayload_lua_failures_total counter
)T"
      R"T(codepayload_lua_failures_total{kind="linter"} 0
)T"
      R"T(codepayload_lua_failures_total{kind="module"} 1
)T"
      R"T(# HELP codepayload_tokens_issued_total Access tokens issued by /oauth/token.
)T"
      R"T(# TYPE codepayload_tokens_issued_total counter
)T"
      R"T(codepayload_tokens_issued_total 1
)T"
      R"T(# HELP codepayload_token_refusals_total Token requests refused by /oauth/token, by cause.
)T"
      R"T(# TYPE codepayload_token_refusals_total counter
)T"
      R"T(codepayload_token_refusals_total{cause="methodNotAllowed"} 0
)T"
      R"T(codepayload_token_refusals_total{cause="addressThrottled"} 1
)T"
      R"T(codepayload_token_refusals_total{cause="badContentType"} 0
)T"
      R"T(codepayload_token_refusals_total{cause="badForm"} 0
)T"
      R"T(codepayload_token_refusals_total{cause="missingGrantType"} 0
)T"
      R"T(codepayload_token_refusals_total{cause="duplicateGrantType"} 0
)T"
      R"T(codepayload_token_refusals_total{cause="multipleAuthMethods"} 0
)T"
      R"T(codepayload_token_refusals_total{cause="badScope"} 0
)T"
      R"T(codepayload_token_refusals_total{cause="unsupportedGrantType"} 0
)T"
      R"T(codepayload_token_refusals_total{cause="badCredentials"} 2
)T"
      R"T(codepayload_token_refusals_total{cause="clientThrottled"} 0
)T"
      R"T(codepayload_token_refusals_total{cause="unauthorizedClient"} 0
)T"
      R"T(codepayload_token_refusals_total{cause="issuanceThrottled"} 0
)T"
      R"T(codepayload_token_refusals_total{cause="serverError"} 0
)T"
      R"T(# HELP codepayload_throttled_requests_total Requests refused by a throttle: the token endpoint's per address, per client and issuance budgets, and the /codes large requests per client and per organization (429) and per server (503).
)T"
      R"T(# TYPE codepayload_throttled_requests_total counter
)T"
      R"T(codepayload_throttled_requests_total{throttle="token_address"} 1
)T"
      R"T(codepayload_throttled_requests_total{throttle="token_client"} 0
)T"
      R"T(codepayload_throttled_requests_total{throttle="token_issuance"} 0
)T"
      R"T(codepayload_throttled_requests_total{throttle="codes_large_requests"} 1
)T"
      R"T(codepayload_throttled_requests_total{throttle="codes_large_requests_organization"} 0
)T"
      R"T(codepayload_throttled_requests_total{throttle="codes_large_requests_server"} 2
)T"
      R"T(# HELP codepayload_rules_release_info The dictionary release of the rules served (always 1).
)T"
      R"T(# TYPE codepayload_rules_release_info gauge
)T"
      R"T(codepayload_rules_release_info{release="2025-01-30"} 1
)T"
      R"T(# HELP codepayload_rules_reloads_total Hot reloads of rules.db: swapped in (success), or not loadable and the running rules kept (failure).
)T"
      R"T(# TYPE codepayload_rules_reloads_total counter
)T"
      R"T(codepayload_rules_reloads_total{result="success"} 2
)T"
      R"T(codepayload_rules_reloads_total{result="failure"} 1
)T"
      R"T(# HELP codepayload_registry_refresh_age_seconds Seconds since the client registry was last read by the view's refresh.
)T"
      R"T(# TYPE codepayload_registry_refresh_age_seconds gauge
)T"
      R"T(codepayload_registry_refresh_age_seconds 0.250
)T"
      R"T(# HELP codepayload_registry_refresh_failures_total Refreshes of the client registry view that could not read the registry.
)T"
      R"T(# TYPE codepayload_registry_refresh_failures_total counter
)T"
      R"T(codepayload_registry_refresh_failures_total 4
)T"
      R"T(# HELP codepayload_usage_writes_total Background writes of the API clients' usage to the registry: done, or failed and kept for the next.
)T"
      R"T(# TYPE codepayload_usage_writes_total counter
)T"
      R"T(codepayload_usage_writes_total{result="success"} 9
)T"
      R"T(codepayload_usage_writes_total{result="failure"} 10
)T"
      R"T(# HELP codepayload_connections_refused_total Connections refused at accept: the address held its limit of connections, the server held its limit, or every worker was busy and the queue full.
)T"
      R"T(# TYPE codepayload_connections_refused_total counter
)T"
      R"T(codepayload_connections_refused_total{reason="address_limit"} 5
)T"
      R"T(codepayload_connections_refused_total{reason="connection_limit"} 11
)T"
      R"T(codepayload_connections_refused_total{reason="queue_full"} 6
)T"
      R"T(# HELP codepayload_connections_closed_overdue_total Connections closed because a request did not arrive whole within http.requestTimeout.
)T"
      R"T(# TYPE codepayload_connections_closed_overdue_total counter
)T"
      R"T(codepayload_connections_closed_overdue_total 7
)T"
      R"T(# HELP codepayload_connections_closed_slow_reader_total Connections closed because the client read its answers slower than http.minSendRate allows.
)T"
      R"T(# TYPE codepayload_connections_closed_slow_reader_total counter
)T"
      R"T(codepayload_connections_closed_slow_reader_total 12
)T"
      R"T(# HELP codepayload_answers_undelivered_total Answers whose connection ended (the client went away or read too slowly) before all of them went out.
)T"
      R"T(# TYPE codepayload_answers_undelivered_total counter
)T"
      R"T(codepayload_answers_undelivered_total 1
)T"
      R"T(# HELP codepayload_connections_open Connections open on the HTTPS and plain listeners.
)T"
      R"T(# TYPE codepayload_connections_open gauge
)T"
      R"T(codepayload_connections_open 8
)T"
      R"T(# HELP codepayload_build_info The build: project version, git commit, baseline release (always 1).
)T"
      R"T(# TYPE codepayload_build_info gauge
)T"
      R"T(codepayload_build_info{version="1.0.0",commit="abc",dictionary_release="2026-01-27"} 1
)T");
}

TEST(MetricsExposition, EscapesLabelValuesAsTheFormatSays) {
  ScrapeValues values = sampleValues();
  values.rulesRelease = "a\\b\"c\nd";
  ServiceMetrics service;
  EngineMetrics engine;
  std::string text;
  writePrometheusText(values, service, engine, text);
  EXPECT_NE(text.find("codepayload_rules_release_info{release=\"a\\\\b\\\"c\\nd\"} 1\n"), std::string::npos) << text;
}

TEST(MetricsExposition, AStatusOutsideHttpsRangeIsNotCountedButItsDurationIs) {
  ServiceMetrics service;
  RouteMetrics& route = service.route("/healthz");
  route.record(99, 10);
  route.record(600, 10);
  route.record(599, 10);
  EXPECT_EQ(route.requests(99), 0u);
  EXPECT_EQ(route.requests(600), 0u);
  EXPECT_EQ(route.requests(599), 1u);
  EXPECT_EQ(route.duration().count(), 3u);
}

TEST(MetricsExposition, AnUnlistedTokenCauseCountsNothing) {
  ServiceMetrics service;
  service.countTokenOutcome("");
  service.countTokenOutcome("nonsense");
  for (std::size_t index = 0; index < auth::kTokenOutcomeCauses.size(); ++index) {
    EXPECT_EQ(service.tokenOutcomes(index), 0u) << auth::kTokenOutcomeCauses[index];
  }
}

using std::chrono::milliseconds;
using std::chrono::seconds;

const std::chrono::steady_clock::time_point kNow{seconds(1000)};

auth::AuthService::RegistryRefresh refreshed(seconds ago, bool lastFailed = false) {
  return {kNow - ago, lastFailed, lastFailed ? 1u : 0u};
}

TEST(Readiness, ReadyWhenRulesAreLoadedAndTheRegistryWasReadRecently) {
  const std::string release = "2026-01-27";
  const Readiness readiness = assessReadiness(&release, refreshed(seconds(1)), milliseconds(250), kNow);
  EXPECT_TRUE(readiness.ready);
  EXPECT_EQ(readiness.body, R"({"status":"ready","release":"2026-01-27","checks":{"rules":"ok","registry":"ok"}})");
}

// Tokens verify from memory: /codes still answers, and says why it is degraded.
TEST(Readiness, ARegistryThatCannotBeReadIsDegraded) {
  const std::string release = "2026-01-27";
  const Readiness readiness = assessReadiness(&release, refreshed(seconds(3), true), milliseconds(250), kNow);
  EXPECT_TRUE(readiness.ready);
  EXPECT_EQ(readiness.body, R"({"status":"degraded","release":"2026-01-27","checks":{"rules":"ok",)"
                            R"J("registry":"the latest check could not read the registry (last read 3 s ago)"}})J");
}

TEST(Readiness, ARegistryNotCheckedForTenPollsAndFiveSecondsIsDegraded) {
  const std::string release = "2026-01-27";
  EXPECT_EQ(registryStaleAfter(milliseconds(250)), milliseconds(5000));
  EXPECT_EQ(registryStaleAfter(milliseconds(2000)), milliseconds(20000));
  EXPECT_TRUE(assessReadiness(&release, refreshed(seconds(5)), milliseconds(250), kNow).ready);
  const Readiness stale = assessReadiness(&release, refreshed(seconds(6)), milliseconds(250), kNow);
  EXPECT_TRUE(stale.ready);
  EXPECT_EQ(stale.body, R"({"status":"degraded","release":"2026-01-27","checks":{"rules":"ok",)"
                        R"("registry":"not checked for 6 s"}})");
  EXPECT_TRUE(assessReadiness(&release, refreshed(seconds(19)), milliseconds(2000), kNow).ready);
}

TEST(Readiness, NoRulesIsNotReadyAndSaysSo) {
  const Readiness readiness = assessReadiness(nullptr, refreshed(seconds(0)), milliseconds(250), kNow);
  EXPECT_FALSE(readiness.ready);
  EXPECT_EQ(readiness.body, R"({"status":"not ready","release":null,"checks":{"rules":"no rules are loaded",)"
                            R"("registry":"ok"}})");
}

}  // namespace
}  // namespace codepayload::server
