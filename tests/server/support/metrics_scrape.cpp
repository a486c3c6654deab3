#include "tests/server/support/metrics_scrape.h"

#include <Poco/Net/HTTPClientSession.h>
#include <Poco/Net/HTTPRequest.h>
#include <Poco/Net/HTTPResponse.h>
#include <Poco/StreamCopier.h>
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <thread>

namespace codepayload::server::testing {

PlainAnswer plainRequest(std::uint16_t port, const std::string& method, const std::string& target) {
  Poco::Net::HTTPClientSession session("127.0.0.1", port);
  session.setTimeout(Poco::Timespan(10, 0));
  Poco::Net::HTTPRequest request(method, target, Poco::Net::HTTPMessage::HTTP_1_1);
  if (method == "POST") request.setContentLength(0);
  session.sendRequest(request);
  Poco::Net::HTTPResponse response;
  std::istream& in = session.receiveResponse(response);
  PlainAnswer answer;
  answer.status = static_cast<int>(response.getStatus());
  answer.contentType = response.getContentType();
  std::ostringstream body;
  Poco::StreamCopier::copyStream(in, body);
  answer.body = body.str();
  return answer;
}

std::string scrapeMetrics(std::uint16_t port) {
  const PlainAnswer answer = plainRequest(port, "GET", "/metrics");
  EXPECT_EQ(answer.status, 200) << answer.body;
  EXPECT_EQ(answer.contentType, "text/plain; version=0.0.4; charset=utf-8");
  return answer.body;
}

namespace {

double requestsCounted(const std::map<std::string, double>& samples) {
  double total = 0;
  for (const auto& [sample, value] : samples) {
    if (sample.starts_with("codepayload_http_requests_total{")) total += value;
  }
  return total;
}

}  // namespace

std::string scrapeAfterRequests(std::uint16_t port, const std::map<std::string, double>& before, int requests) {
  const double wanted = requestsCounted(before) + requests;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  std::string text = scrapeMetrics(port);
  while (requestsCounted(metricSamples(text)) < wanted && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    text = scrapeMetrics(port);
  }
  return text;
}

std::string scrapeWhenSettled(std::uint16_t port) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  std::string text = scrapeMetrics(port);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::string next = scrapeMetrics(port);
    if (requestsCounted(metricSamples(next)) == requestsCounted(metricSamples(text))) return next;
    text = std::move(next);
  }
  return text;
}

std::map<std::string, double> metricSamples(const std::string& text) {
  std::map<std::string, double> samples;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.front() == '#') continue;
    const std::size_t space = line.rfind(' ');
    samples[line.substr(0, space)] = std::stod(line.substr(space + 1));
  }
  return samples;
}

double sampleValue(const std::map<std::string, double>& samples, const std::string& sample) {
  const auto found = samples.find(sample);
  return found == samples.end() ? 0 : found->second;
}

}  // namespace codepayload::server::testing
