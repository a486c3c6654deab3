#include "tests/support/scratch_postgresql.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <system_error>

namespace codepayload::testing {

namespace {

constexpr const char* kDefaultBin = "/usr/lib/postgresql/15/bin";
constexpr int kStartAttempts = 3;

std::filesystem::path binaries() {
  const char* configured = std::getenv("CODEPAYLOAD_POSTGRESQL_BIN");
  std::filesystem::path bin = configured != nullptr && *configured != '\0' ? configured : kDefaultBin;
  for (const char* tool : {"initdb", "pg_ctl", "psql"}) {
    if (access((bin / tool).c_str(), X_OK) != 0) {
      throw std::runtime_error("PostgreSQL 15 is not installed: no executable " + (bin / tool).string() +
                               " (install postgresql-15: scripts/install-deps.sh test; or set "
                               "CODEPAYLOAD_POSTGRESQL_BIN to the folder of initdb, pg_ctl and psql)");
    }
  }
  return bin;
}

// A loopback port nobody listens on now. Another process may take it before
// the server binds it; start() then tries another.
int freeLoopbackPort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("socket(): " + std::generic_category().message(errno));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  const bool ok = bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
                  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  close(fd);
  if (!ok) throw std::runtime_error("cannot find a free loopback port");
  return ntohs(address.sin_port);
}

std::string randomPassword() {
  std::random_device random;
  constexpr std::string_view kAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string password;
  for (int i = 0; i < 24; ++i) password += kAlphabet[random() % kAlphabet.size()];
  return password;
}

std::string readText(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Single quotes for the shell; our arguments hold no single quote but SQL's.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void giveToServerUser(const std::filesystem::path& path) {
  if (geteuid() != 0) return;
  const passwd* account = getpwnam("postgres");
  if (account == nullptr) throw std::runtime_error("running as root, but there is no user postgres to run PostgreSQL");
  if (chown(path.c_str(), account->pw_uid, account->pw_gid) != 0) {
    throw std::runtime_error("chown postgres " + path.string() + ": " + std::generic_category().message(errno));
  }
}

}  // namespace

ScratchPostgresql::ScratchPostgresql() : bin_(binaries()), password_(randomPassword()) {
  std::string pattern = (std::filesystem::temp_directory_path() / "codepayload-pg-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error("mkdtemp: " + std::generic_category().message(errno));
  dir_ = pattern;
  try {
    giveToServerUser(dir_);
    { std::ofstream(dir_ / "pw") << password_ << '\n'; }
    std::filesystem::permissions(dir_ / "pw", std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    giveToServerUser(dir_ / "pw");
    run(quoted((bin_ / "initdb").string()) + " -D " + quoted((dir_ / "data").string()) + " -A scram-sha-256 --pwfile=" +
            quoted((dir_ / "pw").string()) + " -U " + user_ + " -E UTF8 --no-locale --no-sync",
        true, "initdb");
    start();
  } catch (...) {
    stop();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
    throw;
  }
}

ScratchPostgresql::~ScratchPostgresql() {
  stop();
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

void ScratchPostgresql::start() {
  for (int attempt = 1;; ++attempt) {
    port_ = freeLoopbackPort();
    try {
      startOnPort();
      return;
    } catch (const std::runtime_error&) {
      // Another process may have taken the port meanwhile: another one.
      if (attempt == kStartAttempts) throw;
    }
  }
}

void ScratchPostgresql::startOnPort() {
  // fsync off: the cluster is thrown away, and the tests need no durability.
  const std::string options =
      "-p " + std::to_string(port_) + " -k " + dir_.string() + " -c listen_addresses=127.0.0.1 -c fsync=off";
  try {
    run(quoted((bin_ / "pg_ctl").string()) + " -D " + quoted((dir_ / "data").string()) + " -o " + quoted(options) +
            " -l " + quoted((dir_ / "log").string()) + " -w -t 60 start",
        true, "pg_ctl start");
  } catch (const std::runtime_error& error) {
    throw std::runtime_error(std::string(error.what()) + "\nserver log:\n" + readText(dir_ / "log"));
  }
  started_ = true;
}

void ScratchPostgresql::stopServer() {
  if (!started_) throw std::runtime_error("the scratch PostgreSQL is not running");
  run(quoted((bin_ / "pg_ctl").string()) + " -D " + quoted((dir_ / "data").string()) + " -m fast -w stop", true,
      "pg_ctl stop");
  started_ = false;
}

void ScratchPostgresql::startServer() { startOnPort(); }

void ScratchPostgresql::stop() noexcept {
  if (!started_) return;
  started_ = false;
  try {
    run(quoted((bin_ / "pg_ctl").string()) + " -D " + quoted((dir_ / "data").string()) + " -m fast -w stop", true,
        "pg_ctl stop");
  } catch (...) {
    // The folder goes anyway; a server left running fails the next start
    // loudly rather than this destructor.
  }
}

void ScratchPostgresql::createDatabase(const std::string& name) {
  // CREATE DATABASE cannot run inside a transaction: its own -c.
  psql("postgres", "CREATE DATABASE " + name);
}

void ScratchPostgresql::psql(const std::string& database, const std::string& sql) {
  run("PGPASSWORD=" + password_ + " " + quoted((bin_ / "psql").string()) +
          " -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p " + std::to_string(port_) + " -U " + user_ + " -d " + database +
          " -c " + quoted(sql),
      false, "psql " + sql);
}

std::string ScratchPostgresql::query(const std::string& database, const std::string& sql) {
  std::string rows = run("PGPASSWORD=" + password_ + " " + quoted((bin_ / "psql").string()) +
                             " -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p " + std::to_string(port_) + " -U " + user_ +
                             " -d " + database + " -c " + quoted(sql),
                         false, "psql " + sql);
  while (!rows.empty() && rows.back() == '\n') rows.pop_back();
  return rows;
}

void ScratchPostgresql::client(const std::string& program, const std::string& arguments) {
  run("PGPASSWORD=" + password_ + " " + quoted((bin_ / program).string()) + " -h 127.0.0.1 -p " +
          std::to_string(port_) + " -U " + user_ + " " + arguments,
      false, program + " " + arguments);
}

std::string ScratchPostgresql::connectionString(const std::string& database) const {
  return "host=127.0.0.1 port=" + std::to_string(port_) + " dbname=" + database + " user=" + user_ +
         " password=" + password_;
}

std::string ScratchPostgresql::run(const std::string& command, bool asServer, const std::string& what) {
  const std::filesystem::path output = dir_ / "command-output";
  const std::string prefix = asServer && geteuid() == 0 ? "runuser -u postgres -- " : "";
  const std::string line = prefix + command + " >" + quoted(output.string()) + " 2>&1";
  const int status = std::system(line.c_str());
  if (status != 0) {
    throw std::runtime_error(what + " failed (status " + std::to_string(status) + "):\n" + readText(output));
  }
  return readText(output);
}

}  // namespace codepayload::testing
