// The transport settings of codepayload-server: its TLS context, its HTTP
// and connection settings, and the same as Poco HTTPServer parameters. In one
// place so that the benchmark's ceiling server (bench/ceiling_server.cpp)
// measures exactly the same setup.
#pragma once

#include <Poco/Net/Context.h>
#include <Poco/Net/HTTPServerParams.h>

#include <filesystem>
#include <string>

#include "server/connections/http_connection.h"
#include "server/connections/http_transport.h"
#include "server/config/server_config.h"

namespace codepayload::server {

// Threads, queue, timeouts and keep-alive from the configuration, as Poco's
// HTTPServer takes them, for the benchmark's ceiling server; no Server header.
Poco::Net::HTTPServerParams::Ptr httpParams(const ServerConfig& config);

// The service's HTTP connection settings from the configuration.
HttpSettings httpSettings(const ServerConfig& config);

// The service's limits on connections and workers from the configuration.
ConnectionLimits connectionLimits(const ServerConfig& config);

// TLS 1.2+ (TLS 1.2 suites: ECDHE with AEAD only), server cipher preference,
// X25519/P-256/P-384, a session cache named `sessionCacheName`.
Poco::Net::Context::Ptr serverTlsContext(const std::filesystem::path& certificateFile,
                                         const std::filesystem::path& privateKeyFile,
                                         const std::string& sessionCacheName);

}  // namespace codepayload::server
