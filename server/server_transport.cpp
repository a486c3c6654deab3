#include "server/server_transport.h"

namespace codepayload::server {

namespace {

// TLS 1.2 suites with forward secrecy and AEAD only (TLS 1.3 suites are
// OpenSSL's defaults, all of which qualify).
constexpr const char* kTls12Ciphers =
    "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:"
    "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

}  // namespace

Poco::Net::HTTPServerParams::Ptr httpParams(const ServerConfig& config) {
  Poco::Net::HTTPServerParams::Ptr params = new Poco::Net::HTTPServerParams;
  params->setMaxThreads(config.maxThreads);
  params->setMaxQueued(config.maxQueued);
  // Poco 1.11's TCPServer::stop() wakes only one waiting dispatcher thread;
  // any other idle one notices the stop when its idle wait ends, and the
  // ceiling's shutdown joins them all: a short idle wait keeps that join short
  // (D-H8). Each pooled OS thread stays in the ThreadPool for reuse anyway.
  params->setThreadIdleTime(Poco::Timespan(1, 0));
  params->setTimeout(Poco::Timespan(static_cast<long>(config.ioTimeout.count()), 0));
  params->setKeepAlive(true);
  params->setKeepAliveTimeout(Poco::Timespan(static_cast<long>(config.keepAliveTimeout.count()), 0));
  params->setMaxKeepAliveRequests(config.maxKeepAliveRequests);
  // No setSoftwareVersion: no Server header, no version banner.
  return params;
}

HttpSettings httpSettings(const ServerConfig& config) {
  HttpSettings settings;
  settings.ioTimeout = config.ioTimeout;
  settings.keepAliveTimeout = config.keepAliveTimeout;
  settings.maxKeepAliveRequests = config.maxKeepAliveRequests;
  settings.requestTimeout = config.requestTimeout;
  settings.tlsHandshakeTimeout = config.tlsHandshakeTimeout;
  settings.minSendRate = config.minSendRate;
  settings.trustedProxies = config.trustedProxies;
  settings.forwardedHeader = config.forwardedHeader;
  return settings;
}

ConnectionLimits connectionLimits(const ServerConfig& config) {
  ConnectionLimits limits;
  limits.perAddress = config.maxConnectionsPerAddress;
  limits.maxConnections = config.maxConnections;
  limits.maxQueued = config.maxQueued;
  limits.minThreads = config.minThreads;
  limits.maxThreads = config.maxThreads;
  limits.refuseSilent = config.firstBytesTimeout.count() > 0;
  return limits;
}

Poco::Net::Context::Ptr serverTlsContext(const std::filesystem::path& certificateFile,
                                         const std::filesystem::path& privateKeyFile,
                                         const std::string& sessionCacheName) {
  Poco::Net::Context::Params params;
  params.certificateFile = certificateFile.string();
  params.privateKeyFile = privateKeyFile.string();
  params.verificationMode = Poco::Net::Context::VERIFY_NONE;
  params.loadDefaultCAs = false;
  params.cipherList = kTls12Ciphers;
  params.ecdhCurve = "X25519:P-256:P-384";
  Poco::Net::Context::Ptr context = new Poco::Net::Context(Poco::Net::Context::TLS_SERVER_USE, params);
  context->requireMinimumProtocol(Poco::Net::Context::PROTO_TLSV1_2);
  context->preferServerCiphers();
  context->enableSessionCache(true, sessionCacheName);
  return context;
}

}  // namespace codepayload::server
