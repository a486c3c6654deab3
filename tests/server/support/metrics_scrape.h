// Scraping the metrics listener in tests: plain HTTP on 127.0.0.1, and the
// samples of a Prometheus text keyed exactly as written ("name{labels}").
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace codepayload::server::testing {

struct PlainAnswer {
  int status = 0;
  std::string contentType;
  std::string body;
};

// One plain-HTTP request to 127.0.0.1:`port`.
PlainAnswer plainRequest(std::uint16_t port, const std::string& method, const std::string& target);

// GET /metrics; fails the test unless the answer is 200 with the text format.
std::string scrapeMetrics(std::uint16_t port);

// The service counts a request just after its answer is sent, so a client
// that has read the answer may scrape a moment before it is counted. Scrapes
// until the requests counted (codepayload_http_requests_total, every route and
// status) are at least `requests` more than in `before`, for up to 5 s, and
// returns that scrape's text (the last one when the count never gets there:
// the test's own assertions then say what is missing).
std::string scrapeAfterRequests(std::uint16_t port, const std::map<std::string, double>& before, int requests);

// A scrape once the requests already answered are all counted: scrapes until
// the requests counted stay the same over two scrapes 20 ms apart (at most
// 2 s), for a "before" taken right after requests were answered.
std::string scrapeWhenSettled(std::uint16_t port);

// Every sample line of `text`: "codepayload_x_total{a=\"b\"}" -> value.
std::map<std::string, double> metricSamples(const std::string& text);

// The value of `sample` in `samples`, 0 when absent (a status not seen yet).
double sampleValue(const std::map<std::string, double>& samples, const std::string& sample);

}  // namespace codepayload::server::testing
