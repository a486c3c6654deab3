// A throwaway PostgreSQL 15 cluster for a test: its own data directory in a
// fresh scratch folder, its own free loopback port, password authentication
// (scram-sha-256) as the production server would have it, and nothing shared
// with a system cluster the package may have started. Stopped (-m fast) and
// removed when the object goes.
//
// As root (CI, the development container) the server runs as the `postgres`
// user, since PostgreSQL refuses to run as root; as any other user, as that
// user. The binaries come from CODEPAYLOAD_POSTGRESQL_BIN, else
// /usr/lib/postgresql/15/bin. Missing binaries are an error, never a skip: the
// tests that need a server must not pass without one.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace codepayload::testing {

class ScratchPostgresql {
 public:
  // Creates and starts the cluster; throws std::runtime_error saying what
  // failed, with the command's output or the server log.
  ScratchPostgresql();
  ~ScratchPostgresql();
  ScratchPostgresql(const ScratchPostgresql&) = delete;
  ScratchPostgresql& operator=(const ScratchPostgresql&) = delete;

  int port() const { return port_; }
  const std::string& user() const { return user_; }
  const std::string& password() const { return password_; }
  const std::filesystem::path& directory() const { return dir_; }

  // Creates an empty database (a name of letters, digits and '_').
  void createDatabase(const std::string& name);

  // libpq's keyword form for `database`, what Poco::Data's PostgreSQL
  // connector takes: "host=127.0.0.1 port=P dbname=D user=U password=W".
  std::string connectionString(const std::string& database) const;

  // Runs an SQL script with psql against `database`; throws on failure.
  void psql(const std::string& database, const std::string& sql);
  // The rows of one query, unaligned, a line each, without a final newline.
  std::string query(const std::string& database, const std::string& sql);
  // Runs one of the cluster's client programs (pg_dump, pg_restore, ...)
  // with `arguments` (already quoted for the shell) against this server, as
  // its user; throws with the program's output on failure.
  void client(const std::string& program, const std::string& arguments);

  // Stops the server (-m fast: sessions are ended) and starts it again on the
  // same port, as an operator's restart or a failover does to the clients.
  void stopServer();
  void startServer();

 private:
  void start();
  // pg_ctl start on port_; throws with the server log.
  void startOnPort();
  void stop() noexcept;
  // Runs `command` through the shell, as the server's user when `asServer`,
  // appending its output to the commands log; throws with that output.
  // Returns what it printed.
  std::string run(const std::string& command, bool asServer, const std::string& what);

  std::filesystem::path bin_;
  std::filesystem::path dir_;
  std::string user_ = "postgres";
  std::string password_;
  int port_ = 0;
  bool started_ = false;
};

}  // namespace codepayload::testing
