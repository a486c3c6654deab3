#include "server/observability/metrics_exposition.h"

#include <array>
#include <cstdio>

#include "engine/validation_codes.h"

namespace codepayload::server {

namespace {

// A label value: backslash, double quote and line feed escaped (the format's
// only escapes).
void appendLabelValue(std::string& out, std::string_view value) {
  out.push_back('"');
  for (const char c : value) {
    if (c == '\\') {
      out.append("\\\\");
    } else if (c == '"') {
      out.append("\\\"");
    } else if (c == '\n') {
      out.append("\\n");
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
}

void appendNumber(std::string& out, std::uint64_t value) { out.append(std::to_string(value)); }

void appendNumber(std::string& out, std::int64_t value) { out.append(std::to_string(value)); }

// Seconds from microseconds, exactly (six decimals).
void appendMicrosAsSeconds(std::string& out, std::uint64_t micros) {
  out.append(std::to_string(micros / 1'000'000));
  char fraction[8];
  std::snprintf(fraction, sizeof fraction, ".%06u", static_cast<unsigned>(micros % 1'000'000));
  out.append(fraction);
}

void appendSeconds(std::string& out, double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", seconds);
  out.append(text);
}

// A bucket bound as Prometheus writes it: "0.00025", "1", "2.5".
void appendBound(std::string& out, std::uint64_t micros) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(micros) / 1e6);
  out.append(text);
}

void header(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

struct Label {
  std::string_view name;
  std::string_view value;
};

// name{label="value",...} <value>
template <typename Number>
void sample(std::string& out, std::string_view name, std::initializer_list<Label> labels, Number value) {
  out.append(name);
  if (labels.size() != 0) {
    out.push_back('{');
    bool first = true;
    for (const Label& label : labels) {
      if (!first) out.push_back(',');
      first = false;
      out.append(label.name).push_back('=');
      appendLabelValue(out, label.value);
    }
    out.push_back('}');
  }
  out.push_back(' ');
  appendNumber(out, value);
  out.push_back('\n');
}

void writeRequests(std::string& out, const ServiceMetrics& service) {
  header(out, "codepayload_http_requests_total", "counter",
         "Requests answered by the handlers of the service listeners, by route (the matched path, or unmatched) and "
         "status; heads the HTTP layer refuses are not counted.");
  for (const RouteMetrics& route : service.routes()) {
    for (int status = RouteMetrics::kLowestStatus; status <= RouteMetrics::kHighestStatus; ++status) {
      const std::uint64_t count = route.requests(status);
      if (count == 0) continue;
      const std::string statusText = std::to_string(status);
      sample(out, "codepayload_http_requests_total", {{"route", routeLabel(route.route())}, {"status", statusText}},
             count);
    }
  }
  header(out, "codepayload_http_request_duration_seconds", "histogram",
         "Time from a request's head being read to its answer being sent, by route.");
  for (const RouteMetrics& route : service.routes()) {
    const metrics::LatencyHistogram::Reading reading = route.duration();
    const std::string_view label = routeLabel(route.route());
    for (std::size_t bucket = 0; bucket < metrics::kLatencyBoundsMicros.size(); ++bucket) {
      std::string bound;
      appendBound(bound, metrics::kLatencyBoundsMicros[bucket]);
      sample(out, "codepayload_http_request_duration_seconds_bucket", {{"route", label}, {"le", bound}},
             reading.cumulative[bucket]);
    }
    sample(out, "codepayload_http_request_duration_seconds_bucket", {{"route", label}, {"le", "+Inf"}},
           reading.count());
    out.append("codepayload_http_request_duration_seconds_sum{route=");
    appendLabelValue(out, label);
    out.append("} ");
    appendMicrosAsSeconds(out, reading.sumMicros);
    out.push_back('\n');
    sample(out, "codepayload_http_request_duration_seconds_count", {{"route", label}}, reading.count());
  }
}

void writeCodes(std::string& out, const EngineMetrics& engine) {
  header(out, "codepayload_codes_accepted_total", "counter", "Code definitions generated.");
  sample(out, "codepayload_codes_accepted_total", {}, engine.codesAccepted.value());
  header(out, "codepayload_codes_rejected_total", "counter",
         "Code definitions refused (each once, however many errors it had).");
  sample(out, "codepayload_codes_rejected_total", {}, engine.codesRejected.value());
  header(out, "codepayload_payloads_parsed_total", "counter", "Payloads read back and accepted (/codes/parse).");
  sample(out, "codepayload_payloads_parsed_total", {}, engine.codesParsed.value());
  header(out, "codepayload_payloads_rejected_total", "counter",
         "Payloads read back and refused (each once, however many errors it had).");
  sample(out, "codepayload_payloads_rejected_total", {}, engine.parseRejected.value());
  header(out, "codepayload_code_errors_total", "counter",
         "Errors of refused code definitions, by the form of their code (<n> an index, <ai> an AI key; other: a "
         "Lua module's own code).");
  const auto forms = codes::codeForms();
  for (std::size_t form = 0; form < engine.errorsByForm.size(); ++form) {
    sample(out, "codepayload_code_errors_total", {{"code", form < forms.size() ? forms[form].pattern : "other"}},
           engine.errorsByForm[form].value());
  }
  header(out, "codepayload_lua_failures_total", "counter",
         "Lua linters and rule modules that failed (error, instruction budget, memory cap, malformed answer); each "
         "fails its item.");
  sample(out, "codepayload_lua_failures_total", {{"kind", "linter"}}, engine.luaLinterFailures.value());
  sample(out, "codepayload_lua_failures_total", {{"kind", "module"}}, engine.luaModuleFailures.value());
}

// The token endpoint's throttles, by the cause that names them.
constexpr std::array<std::pair<std::string_view, std::string_view>, 3> kTokenThrottles{{
    {"addressThrottled", "token_address"},
    {"clientThrottled", "token_client"},
    {"issuanceThrottled", "token_issuance"},
}};

std::uint64_t tokenOutcomes(const ServiceMetrics& service, std::string_view cause) {
  for (std::size_t index = 0; index < auth::kTokenOutcomeCauses.size(); ++index) {
    if (auth::kTokenOutcomeCauses[index] == cause) return service.tokenOutcomes(index);
  }
  return 0;
}

void writeTokens(std::string& out, const ServiceMetrics& service) {
  header(out, "codepayload_tokens_issued_total", "counter", "Access tokens issued by /oauth/token.");
  sample(out, "codepayload_tokens_issued_total", {}, tokenOutcomes(service, "issued"));
  header(out, "codepayload_token_refusals_total", "counter", "Token requests refused by /oauth/token, by cause.");
  for (std::size_t index = 0; index < auth::kTokenOutcomeCauses.size(); ++index) {
    if (auth::kTokenOutcomeCauses[index] == "issued") continue;
    sample(out, "codepayload_token_refusals_total", {{"cause", auth::kTokenOutcomeCauses[index]}},
           service.tokenOutcomes(index));
  }
  header(out, "codepayload_throttled_requests_total", "counter",
         "Requests refused by a throttle: the token endpoint's per address, per client and issuance budgets, and "
         "the /codes large requests per client and per organization (429) and per server (503).");
  for (const auto& [cause, throttle] : kTokenThrottles) {
    sample(out, "codepayload_throttled_requests_total", {{"throttle", throttle}}, tokenOutcomes(service, cause));
  }
  sample(out, "codepayload_throttled_requests_total", {{"throttle", "codes_large_requests"}},
         service.largeRequestThrottles(LargeRequestSlots::Refusal::Client));
  sample(out, "codepayload_throttled_requests_total", {{"throttle", "codes_large_requests_organization"}},
         service.largeRequestThrottles(LargeRequestSlots::Refusal::Organization));
  sample(out, "codepayload_throttled_requests_total", {{"throttle", "codes_large_requests_server"}},
         service.largeRequestThrottles(LargeRequestSlots::Refusal::Server));
}

void writeState(std::string& out, const ScrapeValues& values, const ServiceMetrics& service) {
  header(out, "codepayload_rules_release_info", "gauge", "The dictionary release of the rules served (always 1).");
  sample(out, "codepayload_rules_release_info", {{"release", values.rulesRelease}}, std::uint64_t{1});
  header(out, "codepayload_rules_reloads_total", "counter",
         "Hot reloads of rules.db: swapped in (success), or not loadable and the running rules kept (failure).");
  sample(out, "codepayload_rules_reloads_total", {{"result", "success"}}, values.rulesReloads);
  sample(out, "codepayload_rules_reloads_total", {{"result", "failure"}}, values.rulesReloadFailures);
  header(out, "codepayload_registry_refresh_age_seconds", "gauge",
         "Seconds since the client registry was last read by the view's refresh.");
  out.append("codepayload_registry_refresh_age_seconds ");
  appendSeconds(out, values.registryRefreshAgeSeconds);
  out.push_back('\n');
  header(out, "codepayload_registry_refresh_failures_total", "counter",
         "Refreshes of the client registry view that could not read the registry.");
  sample(out, "codepayload_registry_refresh_failures_total", {}, values.registryRefreshFailures);
  header(out, "codepayload_usage_writes_total", "counter",
         "Background writes of the API clients' usage to the registry: done, or failed and kept for the next.");
  sample(out, "codepayload_usage_writes_total", {{"result", "success"}}, values.usageWrites);
  sample(out, "codepayload_usage_writes_total", {{"result", "failure"}}, values.usageWriteFailures);
  header(out, "codepayload_connections_refused_total", "counter",
         "Connections refused at accept: the address held its limit of connections, the server held its limit, or "
         "every worker was busy and the queue full.");
  sample(out, "codepayload_connections_refused_total", {{"reason", "address_limit"}},
         values.connections.refusedOverAddressLimit);
  sample(out, "codepayload_connections_refused_total", {{"reason", "connection_limit"}},
         values.connections.refusedOverConnectionLimit);
  sample(out, "codepayload_connections_refused_total", {{"reason", "queue_full"}}, values.connections.refusedQueueFull);
  header(out, "codepayload_connections_closed_overdue_total", "counter",
         "Connections closed because a request did not arrive whole within http.requestTimeout.");
  sample(out, "codepayload_connections_closed_overdue_total", {}, values.connections.closedOverdue);
  header(out, "codepayload_connections_closed_slow_reader_total", "counter",
         "Connections closed because the client read its answers slower than http.minSendRate allows.");
  sample(out, "codepayload_connections_closed_slow_reader_total", {}, values.connections.closedSlowReader);
  header(out, "codepayload_answers_undelivered_total", "counter",
         "Answers whose connection ended (the client went away or read too slowly) before all of them went out.");
  sample(out, "codepayload_answers_undelivered_total", {}, service.undeliveredAnswers());
  header(out, "codepayload_connections_open", "gauge", "Connections open on the HTTPS and plain listeners.");
  sample(out, "codepayload_connections_open", {}, values.openConnections);
  header(out, "codepayload_build_info", "gauge",
         "The build: project version, git commit, baseline release (always 1).");
  sample(out, "codepayload_build_info",
         {{"version", values.version}, {"commit", values.commit}, {"dictionary_release", values.dictionaryRelease}},
         std::uint64_t{1});
}

}  // namespace

std::string_view routeLabel(std::string_view route) { return route.empty() ? "unmatched" : route; }

void writePrometheusText(const ScrapeValues& values, const ServiceMetrics& service, const EngineMetrics& engine,
                         std::string& out) {
  writeRequests(out, service);
  writeCodes(out, engine);
  writeTokens(out, service);
  writeState(out, values, service);
}

}  // namespace codepayload::server
