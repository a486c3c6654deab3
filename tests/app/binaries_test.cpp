// The four built binaries share one application shell: --help and --version
// (exact first line, fields computed here independently of the build), the
// refusal of an unknown CODEPAYLOAD_* variable, of a bad setting value and of
// a missing configuration folder, and the settings of the properties file
// honoured by the CLIs.
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>
#include <string>
#include <vector>

#include "tests/tools/test_files.h"
#include "tests/tools/test_process.h"


namespace codepayload::app {
namespace {

using codepayload::testing::linkTypesFile;
using codepayload::testing::readFile;
using codepayload::testing::RunResult;
using codepayload::testing::runExecutable;
using codepayload::testing::releaseFile;
using codepayload::testing::TempDir;
using codepayload::testing::writeFile;

const std::filesystem::path kSourceDir = CODEPAYLOAD_TEST_SOURCE_DIR;

struct Binary {
  std::string name;
  std::filesystem::path path;
  std::string helpFirstLine;
};

const std::vector<Binary>& binaries() {
  static const std::vector<Binary> all = {
      {"codepayload-server", CODEPAYLOAD_SERVER_EXECUTABLE, "usage: codepayload-server [--help | --version]"},
      {"codepayload-import", CODEPAYLOAD_IMPORT_EXECUTABLE,
       "usage: codepayload-import [--db PATH] [--rules-dir DIR] [--allow-downgrade] --link-types FILE RELEASE.txt"},
      {"codepayload-admin", CODEPAYLOAD_ADMIN_EXECUTABLE, "usage: codepayload-admin <command>"},
      {"codepayload", CODEPAYLOAD_CLI_EXECUTABLE,
       "usage: codepayload generate [FILE] [--input-format json|csv] [--output-format json|csv] [--output FILE]"},
  };
  return all;
}

// Runs `executable` in `workDir` with the test's environment minus every
// CODEPAYLOAD_* variable, plus `extra` ("NAME=value").
RunResult run(const std::filesystem::path& executable, std::vector<std::string> arguments,
              const std::vector<std::string>& extra, const std::filesystem::path& workDir) {
  return runExecutable(executable, std::move(arguments), extra, workDir);
}

std::string firstLine(const std::string& text) { return text.substr(0, text.find('\n')); }

// The line `codepayload` ends an answered batch with on stderr.
void expectSummary(const std::string& err, const std::string& counts) {
  EXPECT_TRUE(std::regex_match(err, std::regex("codepayload: " + counts + " in [0-9]+\\.[0-9]{2} s\n"))) << err;
}

// The "# release:" header line of the shipped baseline.
std::string shippedRelease() {
  const std::string text = readFile(kSourceDir / "rules/baseline/dictionary.baseline");
  const std::string marker = "\n# release: ";
  const std::size_t start = text.find(marker);
  if (start == std::string::npos) throw std::runtime_error("the baseline has no release line");
  const std::size_t from = start + marker.size();
  return text.substr(from, text.find('\n', from) - from);
}

// HEAD of the source tree as git itself reports it; empty when git cannot say.
std::string gitHead() {
  const std::string command = "git -C '" + kSourceDir.string() + "' rev-parse HEAD 2>/dev/null";
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return "";
  char buffer[128] = {};
  std::string output;
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  ::pclose(pipe);
  while (!output.empty() && output.back() == '\n') output.pop_back();
  return output;
}

TEST(Binaries, VersionPrintsTheProjectVersionTheDictionaryReleaseAndTheCommit) {
  TempDir work;
  const std::string release = shippedRelease();
  EXPECT_TRUE(std::regex_match(release, std::regex("[0-9]{4}-[0-9]{2}-[0-9]{2}"))) << release;
  const std::string head = gitHead();
  for (const Binary& binary : binaries()) {
    SCOPED_TRACE(binary.name);
    const RunResult result = run(binary.path, {"--version"}, {}, work.path());
    EXPECT_EQ(result.exitCode, 0);
    EXPECT_EQ(result.err, "");
    const std::string prefix =
        binary.name + " " + CODEPAYLOAD_TEST_PROJECT_VERSION + "\ndictionary release " + release + "\ncommit ";
    ASSERT_TRUE(result.out.starts_with(prefix)) << result.out;
    std::string commit = result.out.substr(prefix.size());
    if (binary.name == "codepayload-server") {
      // The server also names the release its data directory's rules database holds.
      const std::size_t lineEnd = commit.find('\n') + 1;
      EXPECT_EQ(commit.substr(lineEnd), "rules release none yet (./data/rules.db is made at the first start)\n");
      commit.erase(lineEnd);
    }
    if (!head.empty()) {
      EXPECT_EQ(commit, head + "\n");
    } else if (std::filesystem::exists(kSourceDir / ".git")) {
      // No git binary here: the commit still comes from .git.
      EXPECT_TRUE(std::regex_match(commit, std::regex("[0-9a-f]{40}\n"))) << commit;
    } else {
      EXPECT_EQ(commit, "unknown\n");
    }
  }
}

TEST(Binaries, ServerVersionNamesTheReleaseOfTheRulesDatabaseItServes) {
  TempDir work;
  const std::filesystem::path dataDir = work.path() / "data";
  const RunResult imported =
      run(CODEPAYLOAD_IMPORT_EXECUTABLE, {"--link-types", linkTypesFile().string(), releaseFile("2024-06-10").string()},
          {"CODEPAYLOAD_DATA_DIR=" + dataDir.string()}, work.path());
  ASSERT_EQ(imported.exitCode, 0) << imported.err;
  const RunResult result =
      run(CODEPAYLOAD_SERVER_EXECUTABLE, {"--version"}, {"CODEPAYLOAD_DATA_DIR=" + dataDir.string()}, work.path());
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_TRUE(result.out.ends_with("\nrules release 2024-06-10 (" + (dataDir / "rules.db").string() + ")\n"))
      << result.out;
}

TEST(Binaries, HelpPrintsTheUsageOnStdout) {
  TempDir work;
  for (const Binary& binary : binaries()) {
    SCOPED_TRACE(binary.name);
    for (const std::string option : {"--help", "-h"}) {
      const RunResult result = run(binary.path, {option}, {}, work.path());
      EXPECT_EQ(result.exitCode, 0);
      EXPECT_EQ(result.err, "");
      EXPECT_EQ(firstLine(result.out), binary.helpFirstLine);
      EXPECT_NE(result.out.find("--version"), std::string::npos) << result.out;
    }
  }
}

TEST(Binaries, AnUnknownCodepayloadVariableIsRefusedAtStart) {
  TempDir work;
  for (const Binary& binary : binaries()) {
    SCOPED_TRACE(binary.name);
    const RunResult result = run(binary.path, {}, {"CODEPAYLOAD_LISTN=127.0.0.1:0"}, work.path());
    EXPECT_EQ(result.exitCode, 78);
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err, binary.name +
                              ": configuration error: unknown environment variable CODEPAYLOAD_LISTN (did you mean "
                              "CODEPAYLOAD_LISTEN?)\n");
  }
  EXPECT_EQ(codepayload::testing::listFolder(work.path()), std::set<std::string>{});
}

TEST(Binaries, AMissingConfigurationFolderIsRefusedAtStart) {
  TempDir work;
  const std::filesystem::path missing = work / "no-config";
  for (const Binary& binary : binaries()) {
    SCOPED_TRACE(binary.name);
    const RunResult result = run(binary.path, {}, {"CODEPAYLOAD_CONFIG_DIR=" + missing.string()}, work.path());
    EXPECT_EQ(result.exitCode, 78);
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err, binary.name +
                              ": configuration error: environment variable CODEPAYLOAD_CONFIG_DIR: the folder " +
                              missing.string() + " does not exist\n");
  }
}

// Every binary checks every value against the one settings table, in the
// server's words, before it does anything else.
TEST(Binaries, ABadSettingValueIsRefusedAtStartInTheServersWords) {
  TempDir work;
  for (const Binary& binary : binaries()) {
    SCOPED_TRACE(binary.name);
    for (const auto& [variable, refusal] : std::vector<std::pair<std::string, std::string>>{
             {"CODEPAYLOAD_MAX_ITEMS=abc",
              "environment variable CODEPAYLOAD_MAX_ITEMS (key limits.maxItems): must be a whole number between 1 "
              "and 10000000, got 'abc'"},
             {"CODEPAYLOAD_TOKEN_TTL=abc",
              "environment variable CODEPAYLOAD_TOKEN_TTL (key token.ttl): must be a whole number between 1 and "
              "86400, got 'abc'"}}) {
      const RunResult result = run(binary.path, {}, {variable}, work.path());
      EXPECT_EQ(result.exitCode, 78);
      EXPECT_EQ(result.out, "");
      EXPECT_EQ(result.err, binary.name + ": configuration error: " + refusal + "\n");
    }
  }
  EXPECT_EQ(codepayload::testing::listFolder(work.path()), std::set<std::string>{});
}

TEST(Binaries, TheAdminRefusesABadValueBeforeTouchingTheRegistry) {
  TempDir work;
  const RunResult result = run(CODEPAYLOAD_ADMIN_EXECUTABLE, {"init"}, {"CODEPAYLOAD_MAX_ITEMS=abc"}, work.path());
  EXPECT_EQ(result.exitCode, 78);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "codepayload-admin: configuration error: environment variable CODEPAYLOAD_MAX_ITEMS (key "
            "limits.maxItems): must be a whole number between 1 and 10000000, got 'abc'\n");
  EXPECT_FALSE(std::filesystem::exists(work.path() / "data"));
}

// A PostgreSQL registry that cannot be used stops the server and the admin
// with one line and exit 78, as a refused setting does.
TEST(Binaries, AnUnusablePostgresqlRegistryIsOneLineAndExit78) {
  TempDir work;
  const std::filesystem::path key = work.path() / "key-encryption-key";
  writeFile(key, std::string(32, 'k'));
  std::filesystem::permissions(key, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  const std::string url = "CODEPAYLOAD_REGISTRY_URL=postgresql://app:Pw-9sQ@127.0.0.1:1/registry";
  const std::string dataDir = "CODEPAYLOAD_DATA_DIR=" + (work.path() / "data").string();
  const std::string unreachable =
      "registry.url: cannot connect to postgresql://app@127.0.0.1:1/registry: Connection Error: connection to server"
      " at \"127.0.0.1\", port 1 failed: Connection refused\n";
  const std::string withKey = "CODEPAYLOAD_KEY_ENCRYPTION_KEY_FILE=" + key.string();

  const RunResult server = run(CODEPAYLOAD_SERVER_EXECUTABLE, {}, {url, withKey, dataDir}, work.path());
  EXPECT_EQ(server.exitCode, 78) << server.err;
  EXPECT_TRUE(server.err.ends_with("codepayload-server: configuration error: " + unreachable)) << server.err;
  const RunResult admin = run(CODEPAYLOAD_ADMIN_EXECUTABLE, {"org", "list"}, {url, withKey, dataDir}, work.path());
  EXPECT_EQ(admin.exitCode, 78);
  EXPECT_EQ(admin.out, "");
  EXPECT_EQ(admin.err, "codepayload-admin: " + unreachable);

  const RunResult keyless = run(CODEPAYLOAD_ADMIN_EXECUTABLE, {"org", "list"}, {url, dataDir}, work.path());
  EXPECT_EQ(keyless.exitCode, 78);
  EXPECT_EQ(keyless.err,
            "codepayload-admin: secrets.keyEncryptionKeyFile: required with registry.url: the same file of at least 32"
            " random bytes on every instance, e.g. (umask 077; head -c 32 /dev/urandom >"
            " /etc/codepayload/key-encryption-key)\n");
  // Nothing of an SQLite registry was made in its place.
  EXPECT_FALSE(std::filesystem::exists(work.path() / "data" / "registry.db"));
}

// limits.maxItems bounds a batch of `codepayload generate` as it bounds a
// /codes request: one more item gets the server's TooManyItems envelope.
TEST(Binaries, GenerateRefusesABatchOverLimitsMaxItems) {
  TempDir work;
  const std::string item = R"({"reference":"a","primaryKey":{"key":"01","value":"09506000134352"},"ais":[],)"
                           R"("extensionParameters":[]})";
  writeFile(work.path() / "two.json", R"({"codes":[)" + item + "," + item + "]}");
  const RunResult refused =
      run(CODEPAYLOAD_CLI_EXECUTABLE, {"generate", "two.json"}, {"CODEPAYLOAD_MAX_ITEMS=1"}, work.path());
  EXPECT_EQ(refused.exitCode, 1);
  EXPECT_EQ(refused.out, "");
  EXPECT_EQ(refused.err,
            R"({"errors":[{"code":"TooManyItems","path":"codes","message":"codes: more than 1 definitions in one )"
            R"(request"}]})"
            "\n");
  const RunResult accepted =
      run(CODEPAYLOAD_CLI_EXECUTABLE, {"generate", "two.json"}, {"CODEPAYLOAD_MAX_ITEMS=2"}, work.path());
  EXPECT_EQ(accepted.exitCode, 0) << accepted.err;
  expectSummary(accepted.err, "2 generated, 0 failed");
}

TEST(Binaries, TheServerRefusesArguments) {
  TempDir work;
  const RunResult result = run(CODEPAYLOAD_SERVER_EXECUTABLE, {"extra"}, {}, work.path());
  EXPECT_EQ(result.exitCode, 64);  // EX_USAGE, as before
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(firstLine(result.err), "codepayload-server: unexpected argument extra");
  EXPECT_EQ(result.err.substr(result.err.find('\n') + 1, 47), "usage: codepayload-server [--help | --version]\n");
}

// D-U10: `codepayload generate` exits 3 when any item failed (0 with
// --allow-failures), and a body refused as a whole gets the server's envelope
// code (error policy, known departure 9), with exit 1.
TEST(Binaries, GenerateSaysInItsExitStatusWhetherEveryItemWasGenerated) {
  TempDir work;
  const std::string good = R"({"reference":"a","primaryKey":{"key":"01","value":"09506000134352"},"ais":[],)"
                           R"("extensionParameters":[]})";
  const std::string typo = R"({"reference":"typo","primaryKey":{"key":"01","value":"09506000134353"},"ais":[],)"
                           R"("extensionParameters":[]})";
  writeFile(work.path() / "good.json", R"({"codes":[)" + good + "]}");
  writeFile(work.path() / "typo.json", R"({"codes":[)" + good + "," + typo + "]}");
  const std::string goodCode = R"({"reference":"a","barcodeText":"(01)09506000134352","hri":"(01)09506000134352"})";
  const std::string typoFailure =
      R"({"reference":"typo","errors":[{"code":"Validation.Invalid.primaryKey","path":"primaryKey",)"
      R"("args":["01","linter","csum","incorrectCheckDigit","13","1"],)"
      R"("message":"AI 01: the check digit '3' (character 14 of '09506000134353') is wrong; the right check digit is 2."}]})";

  const RunResult allGenerated = run(CODEPAYLOAD_CLI_EXECUTABLE, {"generate", "good.json"}, {}, work.path());
  EXPECT_EQ(allGenerated.exitCode, 0) << allGenerated.err;
  EXPECT_EQ(allGenerated.out, R"({"codes":[)" + goodCode + R"(],"failures":[]})" + "\n");
  expectSummary(allGenerated.err, "1 generated, 0 failed");

  const RunResult oneFailed = run(CODEPAYLOAD_CLI_EXECUTABLE, {"generate", "typo.json"}, {}, work.path());
  EXPECT_EQ(oneFailed.exitCode, 3);
  EXPECT_EQ(oneFailed.out, R"({"codes":[)" + goodCode + R"(],"failures":[)" + typoFailure + "]}\n");
  expectSummary(oneFailed.err, "1 generated, 1 failed");
  const RunResult allowed =
      run(CODEPAYLOAD_CLI_EXECUTABLE, {"generate", "typo.json", "--allow-failures"}, {}, work.path());
  EXPECT_EQ(allowed.exitCode, 0);
  EXPECT_EQ(allowed.out, oneFailed.out);

  for (const auto& [body, envelope] : std::vector<std::pair<std::string, std::string>>{
           {R"({"codes":)", R"({"code":"InvalidJson","path":null,)"
                            R"("message":"the body: not valid JSON at line 1, column 10: expected a value"})"},
           {R"({"codes":[{"primaryKey":{"key":"01"},"ais":[],"extensionParameters":[]}]})",
            R"({"code":"MissingField","path":"codes.0.primaryKey.value",)"
            R"("message":"codes.0.primaryKey.value: required field is missing"})"},
           {R"({"codes":5})", R"({"code":"WrongType","path":"codes","message":"codes: must be an array"})"}}) {
    SCOPED_TRACE(body);
    writeFile(work.path() / "refused.json", body);
    const RunResult refused = run(CODEPAYLOAD_CLI_EXECUTABLE, {"generate", "refused.json"}, {}, work.path());
    EXPECT_EQ(refused.exitCode, 1);
    EXPECT_EQ(refused.out, "");
    EXPECT_EQ(refused.err, R"({"errors":[)" + envelope + "]}\n");
  }

  const RunResult misplaced = run(CODEPAYLOAD_CLI_EXECUTABLE, {"modules", "--allow-failures"}, {}, work.path());
  EXPECT_EQ(misplaced.exitCode, 2);
  EXPECT_EQ(firstLine(misplaced.err), "codepayload: --allow-failures is for generate and parse");
}

// A scratch folder with config/codepayload.properties naming data.dir.
class DataDirFromFile : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(scratch_ / "config");
    std::filesystem::create_directories(scratch_ / "work");
    writeFile(scratch_ / "config/codepayload.properties", "data.dir = " + dataDir().string() + "\n");
  }
  std::filesystem::path dataDir() const { return scratch_ / "data-from-file"; }
  std::vector<std::string> environment() const { return {"CODEPAYLOAD_CONFIG_DIR=" + (scratch_ / "config").string()}; }
  std::filesystem::path work() const { return scratch_ / "work"; }

  TempDir scratch_;
};

TEST_F(DataDirFromFile, TheAdminWritesTheRegistryThere) {
  const RunResult init = run(CODEPAYLOAD_ADMIN_EXECUTABLE, {"init"}, environment(), work());
  EXPECT_EQ(init.exitCode, 0) << init.err;
  EXPECT_EQ(init.out, R"({"registry":")" + (dataDir() / "registry.db").string() + R"(","created":true})" + "\n");
  EXPECT_EQ(init.err, "codepayload-admin: registry " + (dataDir() / "registry.db").string() + "\n");
  const RunResult result =
      run(CODEPAYLOAD_ADMIN_EXECUTABLE, {"org", "create", "--name", "Acme", "--plan", "pro"}, environment(), work());
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_TRUE(result.out.starts_with(R"({"id":")")) << result.out;
  EXPECT_TRUE(std::filesystem::is_regular_file(dataDir() / "registry.db"));
  EXPECT_FALSE(std::filesystem::exists(work() / "data"));
  // The same registry is read back.
  const RunResult listed = run(CODEPAYLOAD_ADMIN_EXECUTABLE, {"org", "list"}, environment(), work());
  EXPECT_EQ(listed.exitCode, 0);
  EXPECT_NE(listed.out.find(R"("name":"Acme","plan":"pro")"), std::string::npos) << listed.out;
  // The environment still wins over the file (and names a data dir without a
  // registry, which the admin does not create unasked: D-U10).
  const RunResult overridden =
      run(CODEPAYLOAD_ADMIN_EXECUTABLE, {"org", "list"},
          {environment()[0], "CODEPAYLOAD_DATA_DIR=" + (scratch_ / "env-data").string()}, work());
  EXPECT_EQ(overridden.exitCode, 1);
  EXPECT_EQ(overridden.out, "");
  EXPECT_TRUE(overridden.err.starts_with("codepayload-admin: no registry at " +
                                         (scratch_ / "env-data/registry.db").string() + "; "))
      << overridden.err;
  EXPECT_FALSE(std::filesystem::exists(scratch_ / "env-data"));
}

TEST_F(DataDirFromFile, TheImporterWritesTheRulesDatabaseThere) {
  const std::filesystem::path baseline = kSourceDir / "rules/baseline/dictionary.baseline";
  const RunResult result = run(CODEPAYLOAD_IMPORT_EXECUTABLE, {"--baseline", baseline.string()}, environment(), work());
  EXPECT_EQ(result.exitCode, 0) << result.err;
  EXPECT_EQ(result.out, R"({"release":")" + shippedRelease() + R"(","ais":541,"linkTypes":60,"db":")" +
                            (dataDir() / "rules.db").string() + "\"}\n");
  EXPECT_TRUE(std::filesystem::is_regular_file(dataDir() / "rules.db"));
  EXPECT_FALSE(std::filesystem::exists(work() / "data"));
}

TEST_F(DataDirFromFile, TheEngineCliReadsTheRulesDatabaseThere) {
  // No rules.db there yet: the shipped baseline. A rules.db that is not a
  // database proves the CLI opens that one.
  ASSERT_EQ(run(CODEPAYLOAD_CLI_EXECUTABLE, {"modules"}, environment(), work()).exitCode, 0);
  std::filesystem::create_directories(dataDir());
  writeFile(dataDir() / "rules.db", "not a database");
  const RunResult result = run(CODEPAYLOAD_CLI_EXECUTABLE, {"modules"}, environment(), work());
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err,
            "codepayload: preparing \"SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = "
            "'schema_migrations'\": file is not a database\n");
}

}  // namespace
}  // namespace codepayload::app
