#include "server/health_handler.h"

#include <string>

#include "server/json_text.h"

namespace codepayload::server {

void HealthHandler::handle(Poco::Net::HTTPServerRequest&, Poco::Net::HTTPServerResponse& response,
                           RequestTrace& trace) {
  const auto snapshot = context_.rules.current();
  std::string body = R"({"status":"ok","release":)";
  appendJsonString(body, snapshot->release().name);
  body.push_back('}');
  response.set("Cache-Control", "no-store");
  sendBody(response, 200, "OK", "application/json", body, trace);
}

}  // namespace codepayload::server
