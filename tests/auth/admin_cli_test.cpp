// codepayload-admin, run as a subprocess the way an operator runs it.
#include <gtest/gtest.h>

#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cstdlib>
#include <fstream>
#include <regex>

#include <chrono>
#include <thread>

#include <pwd.h>

#include "accounts/password_hasher.h"
#include "accounts/session_manager.h"
#include "accounts/sign_in.h"
#include "accounts/sql_account_store.h"
#include "auth/auth_service.h"
#include "auth/secret_hasher.h"
#include "auth/sql_client_registry.h"
#include "auth_test_support.h"

namespace codepayload::auth {
namespace {

using testing::TempDir;

struct AdminRun {
  int status = -1;
  std::string out;
  std::string err;
};

std::string shellQuote(std::string_view text) {
  std::string quoted = "'";
  for (const char character : text) {
    if (character == '\'') {
      quoted += "'\\''";
    } else {
      quoted.push_back(character);
    }
  }
  return quoted + "'";
}

constexpr std::string_view kPassword = "correct horse battery staple";

class AdminCliTest : public ::testing::Test {
 protected:
  std::filesystem::path dataDir() const { return dir_.path() / "data"; }

  // Runs codepayload-admin with `input` on standard input and SUDO_USER set
  // to `sudoUser` ("" counts as unset).
  AdminRun admin(const std::vector<std::string>& arguments, const std::string& input = "",
                 const std::string& sudoUser = "") {
    const auto in = dir_.path() / "stdin";
    { std::ofstream(in, std::ios::binary) << input; }
    std::string command = "SUDO_USER=" + shellQuote(sudoUser) +
                          " CODEPAYLOAD_DATA_DIR=" + shellQuote(dataDir().string()) +
                          " CODEPAYLOAD_DB_DIR=" + shellQuote(CODEPAYLOAD_TEST_SOURCE_DB_DIR) + " " +
                          shellQuote(CODEPAYLOAD_ADMIN_EXECUTABLE);
    for (const std::string& argument : arguments) command += " " + shellQuote(argument);
    const auto out = dir_.path() / "stdout";
    const auto err = dir_.path() / "stderr";
    command += " <" + shellQuote(in.string()) + " >" + shellQuote(out.string()) + " 2>" + shellQuote(err.string());
    const int raw = std::system(command.c_str());
    AdminRun run;
    run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    run.out = testing::readWholeFile(out);
    run.err = testing::readWholeFile(err);
    return run;
  }

  // The absolute registry file, as the admin names it.
  std::string registryFile() const { return (dataDir() / "registry.db").string(); }
  // The stderr line of every command that opened the registry (D-U10).
  std::string registryLine() const { return "codepayload-admin: registry " + registryFile() + "\n"; }

  // Runs a command that must succeed and returns its stdout.
  std::string ok(const std::vector<std::string>& arguments, const std::string& input = "") {
    const AdminRun run = admin(arguments, input);
    EXPECT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(run.err, registryLine());
    return run.out;
  }

  // `user create` with kPassword, which must succeed; the user's id.
  std::string createUser(const std::string& org, const std::string& email, const std::string& role) {
    return field(ok({"user", "create", "--org", org, "--email", email, "--role", role, "--password-stdin"},
                    std::string(kPassword) + "\n"),
                 "id");
  }

  // A new registry with one organization, its owner ana@example.com and bob@example.com with `role`.
  struct OwnerAndUser {
    std::string org;
    std::string ana;
    std::string bob;
  };
  OwnerAndUser anOwnerAndAUser(const std::string& role) {
    init();
    const std::string org = field(ok({"org", "create", "--name", "Acme", "--plan", "starter"}), "id");
    return {org, createUser(org, "ana@example.com", "owner"), createUser(org, "bob@example.com", role)};
  }

  // The account store on the registry the commands use.
  accounts::SqlAccountStore accountStore() const {
    return accounts::SqlAccountStore(RegistryDatabase::sqlite(dataDir() / "registry.db"),
                                     testing::sourceRegistryMigrations());
  }

  // Runs a command that must be refused (exit 1) with `message` once the registry is open.
  void expectRefused(const std::vector<std::string>& arguments, const std::string& message,
                     const std::string& input = "") {
    const AdminRun refused = admin(arguments, input);
    EXPECT_EQ(refused.status, 1) << message;
    EXPECT_EQ(refused.out, "");
    EXPECT_EQ(refused.err, registryLine() + "codepayload-admin: " + message + "\n");
  }

  // `codepayload-admin init`: the registry the other commands need.
  void init() { EXPECT_EQ(ok({"init"}), R"({"registry":")" + registryFile() + R"(","created":true})" + "\n"); }

  static std::string field(const std::string& json, const std::string& name) {
    const std::string key = "\"" + name + "\":\"";
    const std::size_t start = json.find(key);
    if (start == std::string::npos) return {};
    const std::size_t from = start + key.size();
    return json.substr(from, json.find('"', from) - from);
  }

  TempDir dir_;
};

const std::string kUsage =
    "usage: codepayload-admin <command>\n"
    "  init\n"
    "  org create --name NAME --plan free|starter|pro|enterprise\n"
    "  org set-plan ORG free|starter|pro|enterprise\n"
    "  org set-subscription ORG active|inactive\n"
    "  org list\n"
    "  client create --org ORG [--name NAME] [--scope SCOPE]...\n"
    "  client list --org ORG\n"
    "  client block|unblock|delete CLIENT_ID\n"
    "  user create --org ORG --email EMAIL --role owner|developer|viewer --password-stdin\n"
    "  user list [--org ORG]\n"
    "  user set-role EMAIL owner|developer|viewer\n"
    "  user reset-password EMAIL --password-stdin\n"
    "  user delete EMAIL\n"
    "  operator create --email EMAIL --password-stdin\n"
    "  keys rotate [--algorithm ES256|RS256] [--signs-in SECONDS]\n"
    "  registry copy --to postgresql://USER[:PASSWORD]@HOST[:PORT]/DB [--password-file FILE]\n"
    "  --help | --version\n"
    "Settings: the data dir (data.dir of codepayload.properties or CODEPAYLOAD_DATA_DIR, default ./data)\n"
    "holds registry.db and the client secret pepper. Only init (or the server's first start) creates them;\n"
    "every command names the registry it opened on stderr. --password-stdin reads the password from\n"
    "the first line of standard input. registry.url (CODEPAYLOAD_REGISTRY_URL) names a PostgreSQL\n"
    "registry instead, with secrets.keyEncryptionKeyFile; registry copy moves the data dir's SQLite\n"
    "registry into an empty one.\n";

TEST_F(AdminCliTest, HelpAndUsageErrors) {
  const AdminRun help = admin({"--help"});
  EXPECT_EQ(help.status, 0);
  EXPECT_EQ(help.out, kUsage);

  // A usage error shows the usage of the command given (its noun's when the
  // verb is missing or unknown), or all of it when even the noun is unknown.
  const std::string orgUsage =
      "usage: codepayload-admin org create --name NAME --plan free|starter|pro|enterprise\n"
      "usage: codepayload-admin org set-plan ORG free|starter|pro|enterprise\n"
      "usage: codepayload-admin org set-subscription ORG active|inactive\n"
      "usage: codepayload-admin org list\n";
  const std::string more = "codepayload-admin --help lists every command.\n";
  const auto usageOf = [&](const std::string& line) { return "usage: codepayload-admin " + line + "\n" + more; };
  const std::string clientState = usageOf("client block|unblock|delete CLIENT_ID");
  const std::string orgCreate = usageOf("org create --name NAME --plan free|starter|pro|enterprise");
  const std::string userUsage =
      "usage: codepayload-admin user create --org ORG --email EMAIL --role owner|developer|viewer --password-stdin\n"
      "usage: codepayload-admin user list [--org ORG]\n"
      "usage: codepayload-admin user set-role EMAIL owner|developer|viewer\n"
      "usage: codepayload-admin user reset-password EMAIL --password-stdin\n"
      "usage: codepayload-admin user delete EMAIL\n";
  const std::string setRole = usageOf("user set-role EMAIL owner|developer|viewer");
  const std::string resetPassword = usageOf("user reset-password EMAIL --password-stdin");
  struct UsageErrorRow {
    std::vector<std::string> arguments;
    std::string message;
    std::string usage;
  };
  const std::vector<UsageErrorRow> usageErrors = {
      {{}, "a command needs a noun and a verb (e.g. 'org list')", kUsage},
      {{"widget", "list"}, "unknown command 'widget list'", kUsage},
      {{"org"}, "a command needs a noun and a verb (e.g. 'org list')", orgUsage + more},
      {{"org", "explode"}, "unknown command 'org explode'", orgUsage + more},
      {{"org", "create", "--plan", "pro"}, "option --name is required", orgCreate},
      {{"org", "create", "--name", "A", "--plan", "gold"},
       "unknown plan \"gold\"; use free, starter, pro or enterprise", orgCreate},
      {{"org", "create", "--name", "A", "--name", "B", "--plan", "pro"}, "option --name is given twice", orgCreate},
      {{"org", "create", "--name"}, "option --name needs a value", orgCreate},
      {{"org", "create", "--name", "A", "--plan", "pro", "--colour", "red"}, "'org create' has no option --colour",
       orgCreate},
      {{"org", "list", "extra"}, "'org list' takes 0 arguments, got 1", usageOf("org list")},
      {{"org", "set-plan", "org_0000000000000000"}, "'org set-plan' takes 2 arguments, got 1",
       usageOf("org set-plan ORG free|starter|pro|enterprise")},
      {{"org", "set-subscription", "org_0000000000000000", "paused"},
       "unknown subscription \"paused\"; use active or inactive",
       usageOf("org set-subscription ORG active|inactive")},
      {{"client", "create", "--name", "x"}, "option --org is required",
       usageOf("client create --org ORG [--name NAME] [--scope SCOPE]...")},
      {{"client", "list"}, "option --org is required", usageOf("client list --org ORG")},
      {{"client", "block"}, "'client block' takes 1 argument, got 0", clientState},
      {{"client", "delete", "a", "b"}, "'client delete' takes 1 argument, got 2", clientState},
      {{"init", "now"}, "'init' takes 0 arguments, got 1", usageOf("init")},
      {{"user", "rename", "ana@example.com"}, "unknown command 'user rename'", userUsage + more},
      {{"user", "list", "--org"}, "option --org needs a value", usageOf("user list [--org ORG]")},
      {{"user", "list", "--role", "owner"}, "'user list' has no option --role", usageOf("user list [--org ORG]")},
      {{"user", "list", "ana@example.com"}, "'user list' takes 0 arguments, got 1", usageOf("user list [--org ORG]")},
      {{"user", "set-role", "ana@example.com"}, "'user set-role' takes 2 arguments, got 1", setRole},
      {{"user", "set-role", "ana@example.com", "admin"}, "unknown role \"admin\"; use owner, developer or viewer",
       setRole},
      {{"user", "set-role", "ana@example.com", "Owner"}, "unknown role \"Owner\"; use owner, developer or viewer",
       setRole},
      {{"user", "reset-password", "ana@example.com"},
       "option --password-stdin is required (the new password is read from standard input)", resetPassword},
      {{"user", "reset-password", "--password-stdin"}, "'user reset-password' takes 1 argument, got 0",
       resetPassword},
      {{"user", "reset-password", "ana@example.com", "--password-stdin=secret"},
       "option --password-stdin takes no value", resetPassword},
      {{"user", "delete"}, "'user delete' takes 1 argument, got 0", usageOf("user delete EMAIL")},
      {{"user", "delete", "ana@example.com", "bob@example.com"}, "'user delete' takes 1 argument, got 2",
       usageOf("user delete EMAIL")},
  };
  for (const UsageErrorRow& row : usageErrors) {
    const AdminRun run = admin(row.arguments);
    EXPECT_EQ(run.status, 2) << row.message;
    EXPECT_EQ(run.out, "");
    EXPECT_EQ(run.err, "codepayload-admin: " + row.message + "\n" + row.usage);
  }
  // Usage errors touch nothing.
  EXPECT_FALSE(std::filesystem::exists(dataDir()));
}

// D-U10: a data dir without a registry is refused, untouched, until init.
TEST_F(AdminCliTest, CreatesARegistryOnlyWhenAskedAndNamesTheOneItOpened) {
  for (const std::vector<std::string>& command : {std::vector<std::string>{"org", "list"},
                                                  {"org", "create", "--name", "A", "--plan", "pro"},
                                                  {"client", "block", "svc_client_000000000000000000000000"}}) {
    const AdminRun refused = admin(command);
    EXPECT_EQ(refused.status, 1);
    EXPECT_EQ(refused.out, "");
    EXPECT_EQ(refused.err, "codepayload-admin: no registry at " + registryFile() +
                               "; run 'codepayload-admin init' (or start codepayload-server once) to create one there, "
                               "or set the data dir (data.dir of codepayload.properties or CODEPAYLOAD_DATA_DIR) to "
                               "the server's\n");
    EXPECT_FALSE(std::filesystem::exists(dataDir()));
  }

  init();
  EXPECT_EQ(std::filesystem::status(dataDir()).permissions(), std::filesystem::perms::owner_all);
  EXPECT_TRUE(std::filesystem::exists(dataDir() / "registry.db"));
  EXPECT_TRUE(std::filesystem::exists(dataDir() / "client-secret-pepper"));
  EXPECT_EQ(ok({"init"}), R"({"registry":")" + registryFile() + R"(","created":false})" + "\n");
  EXPECT_EQ(ok({"org", "list"}), "[]\n");

  // A relative data dir is named as the absolute file it is.
  const std::string command =
      "cd " + shellQuote(dir_.path().string()) +
      " && CODEPAYLOAD_DATA_DIR=data CODEPAYLOAD_DB_DIR=" + shellQuote(CODEPAYLOAD_TEST_SOURCE_DB_DIR) + " " +
      shellQuote(CODEPAYLOAD_ADMIN_EXECUTABLE) + " org list 2>&1";
  std::FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[256];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  EXPECT_EQ(::pclose(pipe), 0);
  EXPECT_EQ(output, registryLine() + "[]\n");
}

TEST_F(AdminCliTest, ManagesOrganizations) {
  init();
  const std::string created = ok({"org", "create", "--name", "Acme \"Labels\"", "--plan", "starter"});
  const std::string id = field(created, "id");
  EXPECT_TRUE(isWellFormedOrganizationId(id)) << created;
  EXPECT_EQ(created, R"({"id":")" + id + "\"}\n");
  EXPECT_TRUE(std::filesystem::exists(dataDir() / "registry.db"));
  EXPECT_TRUE(std::filesystem::exists(dataDir() / "client-secret-pepper"));

  const std::string timestamp = R"("createdAt":"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")";
  EXPECT_TRUE(
      std::regex_match(ok({"org", "set-plan", id, "pro"}), std::regex(R"(\{"id":")" + id +
                                                                      R"(","name":"Acme \\"Labels\\"","plan":"pro",)"
                                                                      R"("subscription":"active",)" +
                                                                      timestamp + "\\}\n")));
  EXPECT_TRUE(std::regex_match(ok({"org", "set-subscription", id, "inactive"}),
                               std::regex(R"(\{"id":")" + id +
                                          R"(","name":"Acme \\"Labels\\"","plan":"pro",)"
                                          R"("subscription":"inactive",)" +
                                          timestamp + "\\}\n")));
  const std::string other = field(ok({"org", "create", "--name", "Beta", "--plan", "free"}), "id");
  EXPECT_TRUE(std::regex_match(
      ok({"org", "list"}),
      std::regex(R"(\[\{"id":")" + id + R"(","name":"Acme \\"Labels\\"","plan":"pro","subscription":"inactive",)" +
                 timestamp + R"(\},\{"id":")" + other + R"(","name":"Beta","plan":"free","subscription":"active",)" +
                 timestamp + "\\}\\]\n")));

  const AdminRun unknown = admin({"org", "set-plan", "org_0000000000000000", "pro"});
  EXPECT_EQ(unknown.status, 1);
  EXPECT_EQ(unknown.out, "");
  EXPECT_EQ(unknown.err, registryLine() + "codepayload-admin: no organization with id \"org_0000000000000000\"\n");
  const AdminRun badName = admin({"org", "create", "--name", "", "--plan", "pro"});
  EXPECT_EQ(badName.status, 1);
  EXPECT_EQ(badName.err, registryLine() + "codepayload-admin: an organization name must not be empty\n");
  const AdminRun reordered = admin({"org", "create", "--name",
                                    "Acme \xE2\x80\xAE"
                                    "dtL",
                                    "--plan", "pro"});
  EXPECT_EQ(reordered.status, 1);
  EXPECT_EQ(reordered.out, "");
  EXPECT_EQ(reordered.err, registryLine() +
                               "codepayload-admin: an organization name must not contain a bidirectional control "
                               "character (U+202E at byte offset 5)\n");
}

TEST_F(AdminCliTest, ManagesClientsAndNeverShowsTheirSecretsAgain) {
  init();
  const std::string free = field(ok({"org", "create", "--name", "Free", "--plan", "free"}), "id");
  const AdminRun refused = admin({"client", "create", "--org", free, "--scope", "write:codes"});
  EXPECT_EQ(refused.status, 1);
  EXPECT_EQ(refused.err, registryLine() + "codepayload-admin: organization \"" + free +
                             "\" is on the free plan with an active subscription; API clients need an active "
                             "subscription on Starter or a higher plan\n");

  const std::string org = field(ok({"org", "create", "--name", "Acme", "--plan", "enterprise"}), "id");
  const std::string created = ok({"client", "create", "--org", org, "--name", "ERP", "--scope", "write:codes"});
  const std::string clientId = field(created, "clientId");
  const std::string secret = field(created, "clientSecret");
  EXPECT_TRUE(isWellFormedClientId(clientId)) << created;
  EXPECT_EQ(secret.size(), 43u);
  EXPECT_EQ(created,
            R"({"clientId":")" + clientId + R"(","clientSecret":")" + secret + R"(","scopes":["write:codes"]})" + "\n");
  const std::string bare = ok({"client", "create", "--org", org, "--scope", "write:codes"});
  const std::string bareId = field(bare, "clientId");

  // D-U9: the registry's scope rules, word for word.
  for (const auto& [scopes, problem] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--scope", "a b"},
            "scope \"a b\" is not a scope token (1 to 64 printable ASCII characters, no space, '\"' or '\\')"},
           {{}, "a client needs at least one scope (known scopes: read:codes, write:codes)"},
           {{"--scope", "write:code"},
            "unknown scope \"write:code\" (did you mean \"write:codes\"? known scopes: read:codes, write:codes)"},
           {{"--scope", "write:codes", "--scope", "admin"}, "unknown scope \"admin\" (known scopes: read:codes, write:codes)"}}) {
    std::vector<std::string> command = {"client", "create", "--org", org};
    command.insert(command.end(), scopes.begin(), scopes.end());
    const AdminRun refusedScope = admin(command);
    EXPECT_EQ(refusedScope.status, 1);
    EXPECT_EQ(refusedScope.out, "");
    EXPECT_EQ(refusedScope.err, registryLine() + "codepayload-admin: " + problem + "\n");
  }

  EXPECT_EQ(ok({"client", "block", clientId}), R"({"clientId":")" + clientId +
                                                   R"(","state":"blocked"})"
                                                   "\n");
  EXPECT_EQ(ok({"client", "unblock", clientId}), R"({"clientId":")" + clientId +
                                                     R"(","state":"active"})"
                                                     "\n");
  EXPECT_EQ(ok({"client", "delete", bareId}), R"({"clientId":")" + bareId +
                                                  R"(","state":"deleted"})"
                                                  "\n");
  const AdminRun deleted = admin({"client", "unblock", bareId});
  EXPECT_EQ(deleted.status, 1);
  EXPECT_EQ(deleted.err,
            registryLine() + "codepayload-admin: client \"" + bareId + "\" is deleted and cannot be changed\n");
  const AdminRun unknown = admin({"client", "block", "svc_client_000000000000000000000000"});
  EXPECT_EQ(unknown.status, 1);
  EXPECT_EQ(unknown.err,
            registryLine() + "codepayload-admin: no client with id \"svc_client_000000000000000000000000\"\n");

  const std::string listed = ok({"client", "list", "--org", org});
  const std::string timestamp = R"("createdAt":"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")";
  EXPECT_TRUE(std::regex_match(
      listed, std::regex(R"(\[\{"clientId":")" + clientId + R"(","organizationId":")" + org +
                         R"(","name":"ERP","scopes":\["write:codes"\],"state":"active",)" + timestamp +
                         R"(\},\{"clientId":")" + bareId + R"(","organizationId":")" + org +
                         R"(","name":"","scopes":\["write:codes"\],"state":"deleted",)" + timestamp + "\\}\\]\n")))
      << listed;
  EXPECT_EQ(listed.find(secret), std::string::npos);

  // The secret shown once works at the token endpoint of a service on the same data dir...
  testing::installSharedTestKey(dataDir() / "token-signing-key.pem", SigningAlgorithm::ES256);
  const testing::OpenedAuthService opened(dataDir());
  const AuthService& service = opened.service;
  const std::string authorization = testing::basic(clientId, secret);
  const std::string_view authorizations[] = {authorization};
  const std::string_view contentType = "application/x-www-form-urlencoded";
  TokenRequest request;
  request.method = "POST";
  request.contentTypes = std::span<const std::string_view>(&contentType, 1);
  request.authorizations = authorizations;
  request.body = "grant_type=client_credentials";
  request.clientAddress = "127.0.0.1";
  EXPECT_EQ(service.tokenEndpoint().handle(request).answer.status, 200);

  // ...and is nowhere in the data directory.
  for (const auto& entry : std::filesystem::directory_iterator(dataDir())) {
    EXPECT_EQ(testing::readWholeFile(entry.path()).find(secret), std::string::npos) << entry.path();
  }
}

TEST_F(AdminCliTest, AKillDashNineLeavesCompleteClientsOrNone) {
  init();
  const std::string org = field(ok({"org", "create", "--name", "Acme", "--plan", "pro"}), "id");
  // A shell creating clients back to back, killed with SIGKILL (it and the
  // codepayload-admin it is running) at an arbitrary moment.
  const std::string loop = "while :; do CODEPAYLOAD_DATA_DIR=" + shellQuote(dataDir().string()) + " " +
                           shellQuote(CODEPAYLOAD_ADMIN_EXECUTABLE) + " client create --org " + org +
                           " --scope write:codes >/dev/null 2>&1; done";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::setpgid(0, 0);
    ::execl("/bin/sh", "sh", "-c", loop.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::setpgid(child, child);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  ::kill(-child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);

  const SecretHasher hasher = SecretHasher::loadOrCreate(dataDir() / "client-secret-pepper");
  SqlClientRegistry registry(RegistryDatabase::sqlite(dataDir() / "registry.db"), testing::sourceRegistryMigrations(),
                             hasher);
  const std::vector<ClientRecord> clients = registry.listClients(org);
  EXPECT_GT(clients.size(), 0u);
  for (const ClientRecord& client : clients) {
    const std::optional<ClientAuthRecord> record = registry.findClientForAuthentication(client.id);
    ASSERT_TRUE(record.has_value());
    EXPECT_EQ(record->state, ClientState::Active);
    EXPECT_EQ(record->scopes, std::vector<std::string>{"write:codes"});
    EXPECT_NE(record->secretDigest, SecretDigest{}) << client.id;
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dataDir() / "registry.db").c_str(), &db), SQLITE_OK);
  sqlite3_stmt* check = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &check, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(check), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(check, 0)), "ok");
  sqlite3_finalize(check);
  sqlite3_close(db);
}

// Every row of `sql`, its columns joined with '|' (NULL as ""), on its own connection.
std::vector<std::string> registryRows(const std::filesystem::path& database, const std::string& sql) {
  std::vector<std::string> rows;
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(database.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr), SQLITE_OK) << sql;
  while (statement != nullptr && sqlite3_step(statement) == SQLITE_ROW) {
    std::string row;
    for (int column = 0; column < sqlite3_column_count(statement); ++column) {
      if (column > 0) row.push_back('|');
      const unsigned char* text = sqlite3_column_text(statement, column);
      if (text != nullptr) row += reinterpret_cast<const char*>(text);
    }
    rows.push_back(std::move(row));
  }
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return rows;
}

std::string loginName() {
  const struct passwd* entry = ::getpwuid(::getuid());
  return entry != nullptr ? entry->pw_name : "uid " + std::to_string(::getuid());
}

TEST_F(AdminCliTest, CreatesUsersAndOperatorsWithAPasswordFromStandardInput) {
  init();
  const std::string org = field(ok({"org", "create", "--name", "Acme", "--plan", "starter"}), "id");
  const std::string timestamp = R"("createdAt":"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")";
  const std::string user =
      ok({"user", "create", "--org", org, "--email", "Ana@Example.com", "--role", "developer", "--password-stdin"},
         std::string(kPassword) + "\n");
  EXPECT_TRUE(
      std::regex_match(user, std::regex(R"(\{"id":"usr_[0-9A-Za-z]{16}","organizationId":")" + org +
                                        R"(","email":"Ana@Example.com","role":"developer",)" + timestamp + "\\}\n")))
      << user;
  // Without a final newline the line is the whole input.
  const std::string created =
      ok({"operator", "create", "--email", "ops@example.net", "--password-stdin"}, "an operator's passphrase");
  EXPECT_TRUE(std::regex_match(
      created, std::regex(R"(\{"id":"opr_[0-9A-Za-z]{16}","email":"ops@example.net",)" + timestamp + "\\}\n")))
      << created;
  EXPECT_EQ(user.find("argon2"), std::string::npos);
  EXPECT_EQ(created.find("passphrase"), std::string::npos);

  // The stored hash is Argon2id of the line, and sign-in accepts it.
  accounts::SqlAccountStore store(RegistryDatabase::sqlite(dataDir() / "registry.db"),
                                  testing::sourceRegistryMigrations());
  const std::optional<accounts::Credentials> ana = store.findCredentials("ana@example.com");
  ASSERT_TRUE(ana);
  EXPECT_EQ(ana->principalId, field(user, "id"));
  EXPECT_EQ(ana->passwordHash.substr(0, 31), "$argon2id$v=19$m=19456,t=2,p=1$");
  const accounts::PasswordHasher hasher;
  EXPECT_TRUE(hasher.verify(kPassword, ana->passwordHash));
  EXPECT_TRUE(hasher.verify("an operator's passphrase", store.findCredentials("ops@example.net")->passwordHash));
  accounts::SessionManager sessions(store);
  accounts::PasswordCheck passwords(store, hasher);
  accounts::SignInService signIn(store, passwords, sessions);
  EXPECT_EQ(signIn.signIn({"ana@example.com", kPassword, {}, "192.0.2.1", {}}).outcome,
            accounts::SignInResult::Outcome::SignedIn);
}

TEST_F(AdminCliTest, RefusesWeakPasswordsAndNamesEachProblem) {
  init();
  const std::string org = field(ok({"org", "create", "--name", "Acme", "--plan", "starter"}), "id");
  const std::vector<std::string> create = {"user",   "create", "--org",           org, "--email", "ana@example.com",
                                           "--role", "owner",  "--password-stdin"};
  for (const auto& [input, problem] : std::vector<std::pair<std::string, std::string>>{
           {"short\n", "the password has 5 characters; it needs at least 12"},
           {"", "no password on standard input (--password-stdin reads one line)"},
           {"\n", "the password has 0 characters; it needs at least 12"},
           {"twelve chars\r\n", "the password contains a control character (such as a tab or a line break)"},
           {std::string(129, 'x') + "\n", "the password has 129 characters; it may have at most 128"},
           {"caf\xe9 latte is fine\n", "the password is not valid UTF-8 text"}}) {
    const AdminRun refused = admin(create, input);
    EXPECT_EQ(refused.status, 1) << problem;
    EXPECT_EQ(refused.out, "");
    EXPECT_EQ(refused.err, registryLine() + "codepayload-admin: " + problem + "\n");
  }
  ok(create, std::string(kPassword) + "\n");
  for (const auto& [arguments, message, status] : std::vector<std::tuple<std::vector<std::string>, std::string, int>>{
           {{"user", "create", "--org", org, "--email", "ANA@example.com", "--role", "viewer", "--password-stdin"},
            "the email address ANA@example.com already has an account",
            1},
           {{"operator", "create", "--email", "ana@EXAMPLE.com", "--password-stdin"},
            "the email address ana@EXAMPLE.com already has an account",
            1},
           {{"user", "create", "--org", "org_0000000000000000", "--email", "b@example.com", "--role", "viewer",
             "--password-stdin"},
            "no organization with id \"org_0000000000000000\"",
            1},
           {{"user", "create", "--org", org, "--email", "no-at-sign", "--role", "viewer", "--password-stdin"},
            "the email address must contain exactly one '@'",
            1},
           {{"operator", "create", "--email",
             "\xE2\x81\xA7"
             "ops@example.com",
             "--password-stdin"},
            "the email address must not contain a bidirectional control character (U+2067 at byte offset 0)",
            1}}) {
    const AdminRun refused = admin(arguments, std::string(kPassword) + "\n");
    EXPECT_EQ(refused.status, status) << message;
    EXPECT_EQ(refused.out, "");
    EXPECT_EQ(refused.err, registryLine() + "codepayload-admin: " + message + "\n");
  }
  for (const auto& [arguments, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"user", "create", "--org", org, "--email", "b@example.com", "--role", "viewer"},
            "option --password-stdin is required (the password is read from standard input)"},
           {{"user", "create", "--org", org, "--email", "b@example.com", "--role", "admin", "--password-stdin"},
            "unknown role \"admin\"; use owner, developer or viewer"},
           {{"operator", "create", "--email", "b@example.com", "--password-stdin=secret"},
            "option --password-stdin takes no value"},
           {{"operator", "create", "--password-stdin"}, "option --email is required"},
           {{"operator", "create", "--email", "b@example.com", "--role", "owner", "--password-stdin"},
            "'operator create' has no option --role"}}) {
    const AdminRun refused = admin(arguments, std::string(kPassword) + "\n");
    EXPECT_EQ(refused.status, 2) << message;
    const std::string usage = arguments[0] == "user"
                                  ? "user create --org ORG --email EMAIL --role owner|developer|viewer --password-stdin"
                                  : "operator create --email EMAIL --password-stdin";
    EXPECT_EQ(refused.err, "codepayload-admin: " + message + "\nusage: codepayload-admin " + usage +
                               "\ncodepayload-admin --help lists every command.\n");
  }
  EXPECT_EQ(registryRows(dataDir() / "registry.db", "SELECT email FROM users"),
            std::vector<std::string>{"ana@example.com"});
  EXPECT_TRUE(registryRows(dataDir() / "registry.db", "SELECT email FROM operators").empty());
}

TEST_F(AdminCliTest, RecordsEveryChangeAndRefusalInTheAuditLog) {
  init();
  const std::string org = field(ok({"org", "create", "--name", "Acme", "--plan", "starter"}), "id");
  ok({"org", "set-plan", org, "pro"});
  ok({"org", "set-subscription", org, "active"});
  const std::string created = ok({"client", "create", "--org", org, "--name", "ERP", "--scope", "write:codes"});
  const std::string client = field(created, "clientId");
  const std::string secret = field(created, "clientSecret");
  ok({"client", "block", client});
  ok({"client", "block", client});
  ok({"client", "unblock", client});
  ok({"client", "delete", client});
  EXPECT_EQ(admin({"client", "unblock", client}).status, 1);
  EXPECT_EQ(admin({"org", "set-plan", "org_0000000000000000", "free"}).status, 1);
  const std::string user =
      field(ok({"user", "create", "--org", org, "--email", "ana@example.com", "--role", "owner", "--password-stdin"},
               std::string(kPassword) + "\n"),
            "id");
  EXPECT_EQ(
      admin({"user", "create", "--org", org, "--email", "bob@example.com", "--role", "viewer", "--password-stdin"},
            "too short\n")
          .status,
      1);
  const AdminRun underSudo = admin({"operator", "create", "--email", "ops@example.net", "--password-stdin"},
                                   std::string(kPassword) + "\n", "alice");
  ASSERT_EQ(underSudo.status, 0) << underSudo.err;
  const std::string operatorId = field(underSudo.out, "id");
  EXPECT_EQ(admin({"org", "list"}).status, 0);                       // reading is not recorded
  EXPECT_EQ(admin({"org", "set-plan", org, "platinum"}).status, 2);  // nor a usage error

  const std::string cli = "cli:" + loginName();
  const std::string sudoActor = ::getuid() == 0 ? "cli:root (sudo by alice)" : cli;
  EXPECT_EQ(
      registryRows(dataDir() / "registry.db",
                   "SELECT actor, action, target, organization_id, address, result, detail FROM audit_log ORDER BY id"),
      (std::vector<std::string>{
          cli + "|org.create|" + org + "|" + org + "|local|success|plan=starter name=Acme",
          cli + "|org.set-plan|" + org + "|" + org + "|local|success|plan=pro",
          cli + "|org.set-subscription|" + org + "|" + org + "|local|success|subscription=active",
          cli + "|client.create|" + client + "|" + org + "|local|success|scopes=write:codes",
          cli + "|client.block|" + client + "|" + org + "|local|success|",
          cli + "|client.block|" + client + "|" + org + "|local|success|unchanged",
          cli + "|client.unblock|" + client + "|" + org + "|local|success|",
          cli + "|client.delete|" + client + "|" + org + "|local|success|",
          cli + "|client.unblock|" + client + "|" + org + "|local|refused|client \"" + client +
              "\" is deleted and cannot be changed",
          cli + "|org.set-plan|org_0000000000000000|org_0000000000000000|local|refused|no organization with id "
                "\"org_0000000000000000\"",
          cli + "|user.create|" + user + "|" + org + "|local|success|email=ana@example.com role=owner",
          cli + "|user.create||" + org + "|local|refused|the password has 9 characters; it needs at least 12",
          sudoActor + "|operator.create|" + operatorId + "||local|success|email=ops@example.net",
      }));
  // The client records its creator as the audit log names the CLI's actor.
  EXPECT_EQ(registryRows(dataDir() / "registry.db", "SELECT created_by FROM api_clients WHERE id = '" + client + "'"),
            (std::vector<std::string>{cli}));
  // No secret, password or hash in the log.
  for (const std::string& row : registryRows(dataDir() / "registry.db", "SELECT * FROM audit_log")) {
    EXPECT_EQ(row.find(secret), std::string::npos) << row;
    EXPECT_EQ(row.find(kPassword), std::string::npos) << row;
    EXPECT_EQ(row.find("too short"), std::string::npos) << row;
    EXPECT_EQ(row.find("argon2"), std::string::npos) << row;
  }
}

// The rows of the audit log for `action`, oldest first, as "actor|target|organization|result|detail".
std::vector<std::string> auditRows(const std::filesystem::path& dataDir, const std::string& action) {
  return registryRows(dataDir / "registry.db",
                      "SELECT actor, target, organization_id, result, detail FROM audit_log WHERE action = '" + action +
                          "' ORDER BY id");
}

TEST_F(AdminCliTest, ListsEveryUserOrAnOrganizationsInATable) {
  init();
  EXPECT_EQ(ok({"user", "list"}), "EMAIL  ORGANIZATION  ROLE  2FA\n");
  const std::string acme = field(ok({"org", "create", "--name", "Acme", "--plan", "starter"}), "id");
  const std::string beta = field(ok({"org", "create", "--name", "Beta", "--plan", "pro"}), "id");
  createUser(acme, "zo\xC3\xAB@example.com", "viewer");
  const std::string ana = createUser(acme, "Ana@Example.com", "owner");
  createUser(acme, "bob@example.com", "developer");
  createUser(beta, "carl.long-name@example.org", "owner");
  {
    accounts::SqlAccountStore store = accountStore();
    store.enableTotp(ana, std::string(20, 's'), 1, {"test", "local"});
    // A placeholder is no account: not listed.
    store.createUserWithoutDisclosure(beta, "bob@example.com", accounts::Role::Viewer,
                                      accounts::PasswordHasher().hash(kPassword), {"test", "local"});
  }
  // Columns as wide as their widest value (the email in characters, not bytes), two spaces apart.
  const std::string acmeRows = "Ana@Example.com             " + acme + "  owner      on\n" +
                               "bob@example.com             " + acme + "  developer  off\n" +
                               "zo\xC3\xAB@example.com             " + acme + "  viewer     off\n";
  const std::string betaRows = "carl.long-name@example.org  " + beta + "  owner      off\n";
  EXPECT_EQ(ok({"user", "list"}), "EMAIL                       ORGANIZATION          ROLE       2FA\n" +
                                      (acme < beta ? acmeRows + betaRows : betaRows + acmeRows));
  EXPECT_EQ(ok({"user", "list", "--org", beta}),
            "EMAIL                       ORGANIZATION          ROLE   2FA\n"
            "carl.long-name@example.org  " +
                beta + "  owner  off\n");
  EXPECT_EQ(ok({"user", "list", "--org", acme}),
            "EMAIL            ORGANIZATION          ROLE       2FA\n"
            "Ana@Example.com  " +
                acme + "  owner      on\n" + "bob@example.com  " + acme + "  developer  off\n" +
                "zo\xC3\xAB@example.com  " + acme + "  viewer     off\n");

  expectRefused({"user", "list", "--org", "org_0000000000000000"}, "no organization with id \"org_0000000000000000\"");
  // Reading is not recorded, nor a listing refused.
  EXPECT_TRUE(registryRows(dataDir() / "registry.db",
                           "SELECT action FROM audit_log"
                           " WHERE action NOT IN ('org.create', 'user.create', 'account.totp-enable')")
                  .empty());
}

TEST_F(AdminCliTest, ChangesARoleByEmailButNeverTheLastOwnersAndRecordsEachAttempt) {
  const auto [org, ana, bob] = anOwnerAndAUser("viewer");
  ok({"operator", "create", "--email", "ops@example.net", "--password-stdin"}, std::string(kPassword) + "\n");
  const std::string timestamp = R"("createdAt":"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")";

  for (const auto& [arguments, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"user", "set-role", "ana@example.com", "developer"},
            "the organization's last owner cannot become developer; make another user owner first"},
           {{"user", "set-role", "nobody@example.com", "owner"}, "no user with email \"nobody@example.com\""},
           {{"user", "set-role", "ops@example.net", "owner"}, "no user with email \"ops@example.net\""}}) {
    expectRefused(arguments, message);
  }
  const std::string promoted = ok({"user", "set-role", "BOB@example.com", "owner"});
  EXPECT_TRUE(
      std::regex_match(promoted, std::regex(R"(\{"id":")" + bob + R"(","organizationId":")" + org +
                                            R"(","email":"bob@example.com","role":"owner",)" + timestamp + "\\}\n")))
      << promoted;
  const std::string demoted = ok({"user", "set-role", "ana@example.com", "viewer"});
  EXPECT_TRUE(
      std::regex_match(demoted, std::regex(R"(\{"id":")" + ana + R"(","organizationId":")" + org +
                                           R"(","email":"ana@example.com","role":"viewer",)" + timestamp + "\\}\n")))
      << demoted;
  EXPECT_EQ(registryRows(dataDir() / "registry.db", "SELECT email, role FROM users ORDER BY email"),
            (std::vector<std::string>{"ana@example.com|viewer", "bob@example.com|owner"}));

  const std::string cli = "cli:" + loginName();
  EXPECT_EQ(auditRows(dataDir(), "user.set-role"),
            (std::vector<std::string>{
                cli + "|" + ana + "|" + org +
                    "|refused|the organization's last owner cannot become developer; make another user owner first",
                cli + "|||refused|no user with email \"nobody@example.com\"",
                cli + "|||refused|no user with email \"ops@example.net\"",
                cli + "|" + bob + "|" + org + "|success|email=bob@example.com role=viewer->owner",
                cli + "|" + ana + "|" + org + "|success|email=ana@example.com role=owner->viewer",
            }));
}

TEST_F(AdminCliTest, ResetsAPasswordFromStandardInputAndEndsTheUsersSessions) {
  const auto [org, ana, bob] = anOwnerAndAUser("viewer");
  accounts::SqlAccountStore store = accountStore();
  accounts::SessionManager sessions(store);
  const accounts::NewSession first = sessions.start(ana);
  sessions.start(ana);
  const accounts::NewSession bobs = sessions.start(bob);

  const std::string newPassword = "a new passphrase for ana";
  for (const auto& [email, input, message] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"ana@example.com", "too short\n", "the password has 9 characters; it needs at least 12"},
           {"ana@example.com", "", "no password on standard input (--password-stdin reads one line)"},
           {"nobody@example.com", newPassword + "\n", "no user with email \"nobody@example.com\""}}) {
    expectRefused({"user", "reset-password", email, "--password-stdin"}, message, input);
  }
  const accounts::PasswordHasher hasher;
  EXPECT_TRUE(hasher.verify(kPassword, store.findCredentials("ana@example.com")->passwordHash));
  EXPECT_TRUE(sessions.resume(first.id));

  EXPECT_EQ(ok({"user", "reset-password", "Ana@example.com", "--password-stdin"}, newPassword + "\n"),
            R"({"id":")" + ana + R"(","email":"ana@example.com","sessionsEnded":2})" + "\n");
  EXPECT_TRUE(hasher.verify(newPassword, store.findCredentials("ana@example.com")->passwordHash));
  EXPECT_FALSE(hasher.verify(kPassword, store.findCredentials("ana@example.com")->passwordHash));
  EXPECT_EQ(sessions.resume(first.id), std::nullopt);
  EXPECT_TRUE(sessions.resume(bobs.id));
  EXPECT_EQ(registryRows(dataDir() / "registry.db", "SELECT count(*) FROM sessions WHERE user_id = '" + ana + "'"),
            std::vector<std::string>{"0"});

  const std::string cli = "cli:" + loginName();
  EXPECT_EQ(
      auditRows(dataDir(), "user.reset-password"),
      (std::vector<std::string>{
          cli + "|" + ana + "|" + org + "|refused|the password has 9 characters; it needs at least 12",
          cli + "|" + ana + "|" + org + "|refused|no password on standard input (--password-stdin reads one line)",
          cli + "|||refused|no user with email \"nobody@example.com\"",
          cli + "|" + ana + "|" + org + "|success|email=ana@example.com sessions=2",
      }));
  // Neither password is anywhere in the data directory.
  for (const auto& entry : std::filesystem::directory_iterator(dataDir())) {
    const std::string content = testing::readWholeFile(entry.path());
    EXPECT_EQ(content.find(newPassword), std::string::npos) << entry.path();
    EXPECT_EQ(content.find(kPassword), std::string::npos) << entry.path();
  }
}

TEST_F(AdminCliTest, DeletesAUserByEmailWithItsSessionsButNeverTheLastOwner) {
  const auto [org, ana, bob] = anOwnerAndAUser("developer");
  accounts::SqlAccountStore store = accountStore();
  accounts::SessionManager sessions(store);
  const accounts::NewSession bobs = sessions.start(bob);
  const accounts::NewSession anas = sessions.start(ana);

  expectRefused({"user", "delete", "ana@example.com"},
                "the organization's last owner cannot be removed; make another user owner first");
  EXPECT_EQ(ok({"user", "delete", "BOB@example.com"}),
            R"({"id":")" + bob + R"(","email":"bob@example.com","deleted":true})" + "\n");
  EXPECT_EQ(sessions.resume(bobs.id), std::nullopt);
  EXPECT_TRUE(sessions.resume(anas.id));
  expectRefused({"user", "delete", "bob@example.com"}, "no user with email \"bob@example.com\"");
  EXPECT_EQ(registryRows(dataDir() / "registry.db", "SELECT email FROM users"),
            std::vector<std::string>{"ana@example.com"});

  const std::string cli = "cli:" + loginName();
  EXPECT_EQ(auditRows(dataDir(), "user.delete"),
            (std::vector<std::string>{
                cli + "|" + ana + "|" + org +
                    "|refused|the organization's last owner cannot be removed; make another user owner first",
                cli + "|" + bob + "|" + org + "|success|email=bob@example.com role=developer",
                cli + "|||refused|no user with email \"bob@example.com\"",
            }));
}

TEST_F(AdminCliTest, AChangeWhoseAuditRecordCannotBeWrittenIsNotMade) {
  init();
  const std::string org = field(ok({"org", "create", "--name", "Acme", "--plan", "starter"}), "id");
  const std::string client = field(ok({"client", "create", "--org", org, "--scope", "write:codes"}), "clientId");
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open((dataDir() / "registry.db").c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "CREATE TRIGGER audit_log_full BEFORE INSERT ON audit_log"
                         " BEGIN SELECT RAISE(ABORT, 'the audit log is full'); END",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  const AdminRun blocked = admin({"client", "block", client});
  EXPECT_EQ(blocked.status, 1);
  EXPECT_EQ(blocked.out, "");
  EXPECT_EQ(blocked.err, registryLine() +
                             "codepayload-admin: registry database, changing a client: the audit log is full\n"
                             "codepayload-admin: the audit record of this command could not be written: registry "
                             "database, appending to the audit log: the audit log is full\n");
  const AdminRun user =
      admin({"user", "create", "--org", org, "--email", "ana@example.com", "--role", "owner", "--password-stdin"},
            std::string(kPassword) + "\n");
  EXPECT_EQ(user.status, 1);
  EXPECT_EQ(user.err, registryLine() +
                          "codepayload-admin: registry database, creating a user: the audit log is full\n"
                          "codepayload-admin: the audit record of this command could not be written: registry "
                          "database, appending to the audit log: the audit log is full\n");
  // Neither change was made.
  EXPECT_EQ(registryRows(dataDir() / "registry.db", "SELECT state FROM api_clients"),
            std::vector<std::string>{"active"});
  EXPECT_TRUE(registryRows(dataDir() / "registry.db", "SELECT id FROM users").empty());
}

}  // namespace
}  // namespace codepayload::auth
