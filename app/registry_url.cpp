#include "app/registry_url.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <span>

#include "app/address_blocks.h"
#include "common/ascii.h"

namespace codepayload::app {

namespace {

constexpr std::string_view kUrlKey = "registry.url";
constexpr std::string_view kPasswordFileKey = "registry.passwordFile";
constexpr std::string_view kShape = " (postgresql://user:password@host:port/dbname)";
constexpr std::array<std::string_view, 2> kSchemes{"postgresql://", "postgres://"};
constexpr std::array<std::string_view, 6> kSslModes{"disable", "allow",     "prefer",
                                                    "require", "verify-ca", "verify-full"};
constexpr std::uint16_t kDefaultPort = 5432;

// The messages echo only what cannot hold the password: the scheme, the parts
// after the '@' (host, port, parameter names and words) as written, never
// decoded (a decoded part could break the line).
[[noreturn]] void refuse(const std::string& reason) { throw RegistryUrlError(kUrlKey, reason); }
[[noreturn]] void refuseFile(const std::string& reason) { throw RegistryUrlError(kPasswordFileKey, reason); }

std::string inQuotes(std::string_view text) { return "\"" + std::string(text) + "\""; }

std::string listed(std::span<const std::string_view> words) {
  std::string list;
  for (const std::string_view word : words) list += (list.empty() ? "" : ", ") + std::string(word);
  return list;
}

bool isLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isUnreserved(char c) { return isLetter(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'; }

// RFC 3986's scheme: a letter, then letters, digits, '+', '-', '.'; empty
// when `url` does not start with one followed by ':'.
std::string_view schemeOf(std::string_view url) {
  const auto colon = url.find(':');
  if (colon == std::string_view::npos || colon == 0 || !isLetter(url[0])) return {};
  const std::string_view scheme = url.substr(0, colon);
  const bool valid = std::all_of(scheme.begin(), scheme.end(),
                                 [](char c) { return isLetter(c) || isDigit(c) || c == '+' || c == '-' || c == '.'; });
  return valid ? scheme : std::string_view{};
}

std::string percentDecoded(std::string_view text, const std::string& part) {
  std::string decoded;
  for (std::size_t index = 0; index < text.size(); ++index) {
    if (text[index] != '%') {
      decoded += text[index];
      continue;
    }
    const int high = index + 2 < text.size() ? common::hexDigitValue(text[index + 1]) : -1;
    const int low = index + 2 < text.size() ? common::hexDigitValue(text[index + 2]) : -1;
    if (high < 0 || low < 0 || (high == 0 && low == 0)) {
      refuse("bad percent-encoding in the " + part + " (a '%' itself is written %25; %00 is not allowed)");
    }
    decoded += static_cast<char>(high * 16 + low);
    index += 2;
  }
  return decoded;
}

// The display name's spelling of a decoded part.
std::string percentEncoded(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string encoded;
  for (const char c : text) {
    if (isUnreserved(c)) {
      encoded += c;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      encoded += '%';
      encoded += kHex[byte >> 4];
      encoded += kHex[byte & 0xF];
    }
  }
  return encoded;
}

// A value of libpq's keyword/value form: single quotes around it, '\' and '''
// backslash-escaped inside.
std::string libpqValue(std::string_view value) {
  std::string text = "'";
  for (const char c : value) {
    if (c == '\\' || c == '\'') text += '\\';
    text += c;
  }
  return text + "'";
}

struct ParsedUrl {
  std::string user;
  std::optional<std::string> password;
  std::string host;
  bool ipv6 = false;
  std::uint16_t port = kDefaultPort;
  std::string dbname;
  std::array<std::optional<std::string>, std::size(kRegistryUrlParameters)> parameters;
};

[[noreturn]] void refuseOtherScheme(std::string_view url) {
  const std::string_view scheme = schemeOf(url);
  if (scheme.empty()) refuse("not a PostgreSQL URL" + std::string(kShape));
  const bool slashes = url.substr(scheme.size()).starts_with("://");
  refuse(inQuotes(std::string(scheme) + (slashes ? "://..." : ":...")) + " is not a PostgreSQL URL" +
         std::string(kShape));
}

// host[:port] or [ipv6][:port], after the '@'.
void parseHostAndPort(std::string_view text, ParsedUrl& parsed) {
  std::string_view port;
  bool hasPort = false;
  if (text.starts_with("[")) {
    const auto close = text.find(']');
    if (close == std::string_view::npos) refuse("the IPv6 host has no closing ']'");
    const std::string_view host = text.substr(0, close + 1);
    const auto address = parseIpAddress(text.substr(1, close - 1));
    if (!address || address->family() != Poco::Net::IPAddress::IPv6) {
      refuse("the host " + inQuotes(host) + " is not an IPv6 address");
    }
    const std::string_view after = text.substr(close + 1);
    if (!after.empty() && !after.starts_with(":"))
      refuse("text after the host " + inQuotes(host) + ": only \":port\" may follow");
    parsed.host = std::string(text.substr(1, close - 1));
    parsed.ipv6 = true;
    hasPort = !after.empty();
    port = hasPort ? after.substr(1) : std::string_view{};
  } else {
    const auto colon = text.find(':');
    if (colon != std::string_view::npos && text.find(':', colon + 1) != std::string_view::npos) {
      refuse("an IPv6 host goes in brackets: postgresql://user@[::1]:5432/dbname");
    }
    const std::string_view host = text.substr(0, colon);
    if (host.empty()) refuse("the host is missing" + std::string(kShape));
    parsed.host = percentDecoded(host, "host");
    const bool valid = std::all_of(parsed.host.begin(), parsed.host.end(), [](char c) {
      return isLetter(c) || isDigit(c) || c == '-' || c == '.' || c == '_';
    });
    if (!valid) refuse("the host " + inQuotes(host) + " is not one host name or IP address");
    hasPort = colon != std::string_view::npos;
    port = hasPort ? text.substr(colon + 1) : std::string_view{};
  }
  if (!hasPort) return;
  unsigned number = 0;
  const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), number);
  if (port.empty() || error != std::errc() || end != port.data() + port.size() || number < 1 || number > 65535) {
    refuse("the port " + inQuotes(port) + " is not a number from 1 to 65535");
  }
  parsed.port = static_cast<std::uint16_t>(number);
}

void parseParameter(std::string_view text, ParsedUrl& parsed) {
  if (text.empty()) refuse("an empty parameter: write ?name=value&name=value");
  const auto equals = text.find('=');
  const std::string_view name = text.substr(0, equals);
  const auto* known = std::find(std::begin(kRegistryUrlParameters), std::end(kRegistryUrlParameters), name);
  if (known == std::end(kRegistryUrlParameters)) {
    refuse("unknown parameter " + inQuotes(name) + " (known: " + listed(kRegistryUrlParameters) + ")");
  }
  const std::string_view raw = equals == std::string_view::npos ? std::string_view{} : text.substr(equals + 1);
  if (raw.empty()) refuse("parameter " + inQuotes(name) + " has no value (" + std::string(name) + "=value)");
  auto& slot = parsed.parameters[static_cast<std::size_t>(known - std::begin(kRegistryUrlParameters))];
  if (slot) refuse("parameter " + inQuotes(name) + " is given twice");
  std::string value = percentDecoded(raw, "parameter " + inQuotes(name));
  if (name == "sslmode" && std::find(kSslModes.begin(), kSslModes.end(), value) == kSslModes.end()) {
    refuse("sslmode " + inQuotes(raw) + " is not one of " + listed(kSslModes));
  }
  if (name == "connect_timeout" &&
      (value.size() > 9 || !std::all_of(value.begin(), value.end(), [](char c) { return isDigit(c); }))) {
    refuse("connect_timeout " + inQuotes(raw) + " is not a whole number of seconds");
  }
  slot = std::move(value);
}

ParsedUrl parseUrl(std::string_view url) {
  if (std::any_of(url.begin(), url.end(), [](char c) { return static_cast<unsigned char>(c) <= ' ' || c == '\x7F'; })) {
    refuse("a space or control character: percent-encode it (a space is %20)");
  }
  const auto scheme = std::find_if(kSchemes.begin(), kSchemes.end(), [url](std::string_view prefix) {
    return common::startsWithIgnoringAsciiCase(url, prefix);
  });
  if (scheme == kSchemes.end()) refuseOtherScheme(url);
  const std::string_view rest = url.substr(scheme->size());

  // libpq's own reading: the user and password end at the first '@' before
  // the first '/', so a '/' or '@' inside them must be percent-encoded.
  const auto slash = rest.find('/');
  const std::string_view authority = rest.substr(0, slash);
  const std::string_view tail = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash + 1);
  const auto question = tail.find('?');
  const std::string_view path = tail.substr(0, question);
  if (path.find('@') != std::string_view::npos) {
    refuse("an '@' after the host: write a '/' in the user or password as %2F, an '@' as %40");
  }
  const auto at = authority.find('@');
  if (at == std::string_view::npos) refuse("the user is missing" + std::string(kShape));
  if (authority.find('@', at + 1) != std::string_view::npos) {
    refuse("more than one '@' before the host: write an '@' in the user or password as %40");
  }

  ParsedUrl parsed;
  const std::string_view userInfo = authority.substr(0, at);
  const auto colon = userInfo.find(':');
  parsed.user = percentDecoded(userInfo.substr(0, colon), "user");
  if (parsed.user.empty()) refuse("the user is missing" + std::string(kShape));
  if (colon != std::string_view::npos) {
    const std::string_view password = userInfo.substr(colon + 1);
    if (password.empty()) refuse("the password after the user's ':' is empty: give one or drop the ':'");
    parsed.password = percentDecoded(password, "password");
  }

  // Without a '/', parameters would follow the host at once: the database
  // name is what is missing then, not a host spelled with a '?'.
  std::string_view hostAndPort = authority.substr(at + 1);
  if (slash == std::string_view::npos) hostAndPort = hostAndPort.substr(0, hostAndPort.find('?'));
  parseHostAndPort(hostAndPort, parsed);

  if (path.empty()) refuse("the database name is missing" + std::string(kShape));
  if (path.find('/') != std::string_view::npos) refuse("a '/' in the database name: write it as %2F");
  parsed.dbname = percentDecoded(path, "database name");

  if (question != std::string_view::npos) {
    const std::string_view query = tail.substr(question + 1);
    std::size_t start = 0;
    while (true) {
      const auto ampersand = query.find('&', start);
      parseParameter(query.substr(start, ampersand - start), parsed);
      if (ampersand == std::string_view::npos) break;
      start = ampersand + 1;
    }
  }
  return parsed;
}

// The file's content without one trailing newline, checked before it is read:
// a regular file that neither group nor others may access.
std::string readPasswordFile(const std::filesystem::path& file) {
  const std::string name = file.string();
  const int descriptor = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (descriptor < 0) refuseFile("cannot read " + name + ": " + std::strerror(errno));
  struct Closer {
    int descriptor;
    ~Closer() { ::close(descriptor); }
  } closer{descriptor};
  struct stat status {};
  if (::fstat(descriptor, &status) != 0) refuseFile("cannot read " + name + ": " + std::strerror(errno));
  if (!S_ISREG(status.st_mode)) refuseFile(name + " is not a regular file");
  if ((status.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(status.st_mode & 07777));
    refuseFile("group or others may access " + name + " (mode " + mode + "): run chmod 600 " + name);
  }
  std::string content;
  char buffer[4096];
  while (true) {
    const ssize_t count = ::read(descriptor, buffer, sizeof buffer);
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) refuseFile("cannot read " + name + ": " + std::strerror(errno));
    if (count == 0) break;
    content.append(buffer, static_cast<std::size_t>(count));
  }
  if (content.ends_with('\n')) content.pop_back();
  if (content.empty()) refuseFile(name + " is empty: write the password in it");
  if (content.find('\0') != std::string::npos) refuseFile(name + " holds a NUL byte, which no password can");
  return content;
}

}  // namespace

RegistryUrlError::RegistryUrlError(std::string_view key, const std::string& reason)
    : SettingsError(std::string(key) + ": " + reason), reason_(reason) {}

std::optional<PostgresqlRegistry> readRegistryUrl(std::string_view url, const std::filesystem::path& passwordFile) {
  if (url.empty()) {
    if (!passwordFile.empty()) {
      refuseFile(
          "set, but registry.url is empty (the registry is then SQLite in the data directory): set "
          "registry.url or clear registry.passwordFile");
    }
    return std::nullopt;
  }
  ParsedUrl parsed = parseUrl(url);
  if (!passwordFile.empty()) {
    if (parsed.password) refuse("a password in the URL and registry.passwordFile: remove the one in the URL");
    parsed.password = readPasswordFile(passwordFile);
  }
  // Poco's PostgreSQL connector splits the connection string at every space
  // before libpq reads it, quoted or not (docs/decisions.md D-G6).
  const auto refuseSpace = [&](std::string_view part, const std::string& value, bool fromFile) {
    if (value.find(' ') == std::string::npos) return;
    const std::string message = "the " + std::string(part) +
                                " holds a space, which the PostgreSQL connector of this service cannot pass on:"
                                " choose one without spaces";
    if (fromFile) refuseFile(message);
    refuse(message);
  };
  refuseSpace("user name", parsed.user, false);
  if (parsed.password) refuseSpace("password", *parsed.password, !passwordFile.empty());
  refuseSpace("host", parsed.host, false);
  refuseSpace("database name", parsed.dbname, false);
  for (std::size_t index = 0; index < parsed.parameters.size(); ++index) {
    if (parsed.parameters[index]) {
      refuseSpace("value of " + std::string(kRegistryUrlParameters[index]), *parsed.parameters[index], false);
    }
  }

  PostgresqlRegistry registry;
  std::string& text = registry.connectionString;
  text = "host=" + libpqValue(parsed.host) + " port=" + libpqValue(std::to_string(parsed.port)) +
         " dbname=" + libpqValue(parsed.dbname) + " user=" + libpqValue(parsed.user);
  if (parsed.password) text += " password=" + libpqValue(*parsed.password);
  for (std::size_t index = 0; index < parsed.parameters.size(); ++index) {
    if (parsed.parameters[index]) {
      text += " " + std::string(kRegistryUrlParameters[index]) + "=" + libpqValue(*parsed.parameters[index]);
    }
  }
  registry.displayName = "postgresql://" + percentEncoded(parsed.user) + "@" +
                         (parsed.ipv6 ? "[" + parsed.host + "]" : percentEncoded(parsed.host)) + ":" +
                         std::to_string(parsed.port) + "/" + percentEncoded(parsed.dbname);
  return registry;
}

}  // namespace codepayload::app
