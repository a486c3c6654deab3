// The built codepayload-import executable: exit codes, its JSON line, its
// errors, and that kill -9 at any moment leaves a sound database.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <thread>

#include "db/rule_store.h"
#include "tests/tools/test_files.h"
#include "tools/dictionary-import/cli.h"

extern char** environ;

namespace codepayload::importer {
namespace {

using codepayload::testing::fileMode;

using codepayload::testing::linkTypesFile;
using codepayload::testing::listFolder;
using codepayload::testing::readFile;
using codepayload::testing::releaseFile;
using codepayload::testing::TempDir;
using codepayload::testing::writeFile;

const std::filesystem::path kExecutable = CODEPAYLOAD_IMPORT_EXECUTABLE;
const std::filesystem::path kRulesDir = CODEPAYLOAD_TEST_RULES_DIR;

// Starts the executable with `arguments`; the environment is the test's own
// without CODEPAYLOAD_DATA_DIR, plus `extraEnvironment`.
pid_t start(const std::vector<std::string>& arguments, const std::filesystem::path& outFile,
            const std::filesystem::path& errFile, const std::vector<std::string>& extraEnvironment = {}) {
  std::vector<std::string> strings = {kExecutable.string()};
  strings.insert(strings.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& argument : strings) argv.push_back(argument.data());
  argv.push_back(nullptr);
  std::vector<std::string> environment;
  for (char** variable = environ; *variable != nullptr; ++variable) {
    if (!std::string_view(*variable).starts_with("CODEPAYLOAD_DATA_DIR=")) environment.emplace_back(*variable);
  }
  environment.insert(environment.end(), extraEnvironment.begin(), extraEnvironment.end());
  std::vector<char*> envp;
  for (std::string& variable : environment) envp.push_back(variable.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, outFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, kExecutable.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) throw std::runtime_error("posix_spawn failed");
  return pid;
}

struct RunResult {
  int exitCode;
  std::string out;
  std::string err;
};

class CliTest : public ::testing::Test {
 protected:
  RunResult run(const std::vector<std::string>& arguments, const std::vector<std::string>& extraEnvironment = {}) {
    const pid_t pid = start(arguments, temp_ / "stdout", temp_ / "stderr", extraEnvironment);
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status));
    return RunResult{WEXITSTATUS(status), readFile(temp_ / "stdout"), readFile(temp_ / "stderr")};
  }

  TempDir temp_;
};

TEST_F(CliTest, ImportsAReleaseAndPrintsOneJsonLine) {
  const RunResult result = run({"--db", (temp_ / "rules.db").string(), "--rules-dir", kRulesDir.string(),
                                "--link-types", linkTypesFile().string(), releaseFile("2026-01-27").string()});
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.out,
            R"({"release":"2026-01-27","ais":541,"linkTypes":60,"db":")" + (temp_ / "rules.db").string() + "\"}\n");
  EXPECT_EQ(result.err, "");
  EXPECT_EQ(readRules(temp_ / "rules.db").release.name, "2026-01-27");
}

TEST_F(CliTest, TheDefaultDatabaseIsInTheDataFolder) {
  const RunResult result = run({"--link-types", linkTypesFile().string(), releaseFile("2025-01-30").string()},
                               {"CODEPAYLOAD_DATA_DIR=" + (temp_ / "data").string()});
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.out, R"({"release":"2025-01-30","ais":536,"linkTypes":60,"db":")" +
                            (temp_ / "data/rules.db").string() + "\"}\n");
  EXPECT_EQ(readRules(temp_ / "data/rules.db").release.name, "2025-01-30");
}

TEST_F(CliTest, ImportsTheBaseline) {
  const RunResult result = run({"--db", (temp_ / "rules.db").string(), "--baseline", baselinePath(kRulesDir).string()});
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.out,
            R"({"release":"2026-01-27","ais":541,"linkTypes":60,"db":")" + (temp_ / "rules.db").string() + "\"}\n");
  EXPECT_EQ(result.err, "");
}

// An older release does not silently replace a newer one.
TEST_F(CliTest, RefusesAnOlderReleaseOverANewerOneUnlessAllowed) {
  const std::string db = (temp_ / "rules.db").string();
  ASSERT_EQ(run({"--db", db, "--baseline", baselinePath(kRulesDir).string()}).exitCode, 0);
  const std::string before = readFile(temp_ / "rules.db");
  const std::string older = releaseFile("2025-01-30").string();

  const RunResult refused = run({"--db", db, "--link-types", linkTypesFile().string(), older});
  EXPECT_EQ(refused.exitCode, 1);
  EXPECT_EQ(refused.out, "");
  EXPECT_EQ(refused.err, db + ": holds GS1 release 2026-01-27, newer than release 2025-01-30 of " + older +
                             "; importing it would replace newer rules by older ones (--allow-downgrade imports it "
                             "anyway)\n");
  EXPECT_EQ(readFile(temp_ / "rules.db"), before);

  const RunResult allowed = run({"--db", db, "--allow-downgrade", "--link-types", linkTypesFile().string(), older});
  EXPECT_EQ(allowed.exitCode, 0) << allowed.err;
  EXPECT_EQ(allowed.out, R"({"release":"2025-01-30","ais":536,"linkTypes":60,"db":")" + db + "\"}\n");
  EXPECT_EQ(readRules(temp_ / "rules.db").release.name, "2025-01-30");

  // The same release again, and a newer one, need no flag.
  EXPECT_EQ(run({"--db", db, "--link-types", linkTypesFile().string(), older}).exitCode, 0);
  EXPECT_EQ(run({"--db", db, "--baseline", baselinePath(kRulesDir).string()}).exitCode, 0);
  EXPECT_EQ(readRules(temp_ / "rules.db").release.name, "2026-01-27");
}

TEST_F(CliTest, TheBaselineIsGuardedToo) {
  const std::string db = (temp_ / "rules.db").string();
  ASSERT_EQ(run({"--db", db, "--link-types", linkTypesFile().string(), releaseFile("2026-01-27").string()}).exitCode,
            0);
  const RunResult older = run(
      {"--db", db, "--allow-downgrade", "--link-types", linkTypesFile().string(), releaseFile("2025-01-30").string()});
  ASSERT_EQ(older.exitCode, 0) << older.err;
  ASSERT_EQ(run({"--db", db, "--baseline", baselinePath(kRulesDir).string()}).exitCode, 0);
  const RunResult refused =
      run({"--db", db, "--link-types", linkTypesFile().string(), releaseFile("2025-01-30").string()});
  EXPECT_EQ(refused.exitCode, 1);
  EXPECT_EQ(run({"--write-baseline", (temp_ / "b").string(), "--allow-downgrade", "--link-types",
                 linkTypesFile().string(), releaseFile("2025-01-30").string()})
                .err,
            "codepayload-import: --write-baseline writes no database; --allow-downgrade does not apply\n" +
                std::string(kUsage));
}

TEST_F(CliTest, WritesTheBaseline) {
  const RunResult result = run({"--write-baseline", (temp_ / "out.baseline").string(), "--link-types",
                                linkTypesFile().string(), releaseFile("2026-01-27").string()});
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.out, R"({"release":"2026-01-27","ais":541,"linkTypes":60,"baseline":")" +
                            (temp_ / "out.baseline").string() + "\"}\n");
  EXPECT_EQ(readFile(temp_ / "out.baseline"), readFile(baselinePath(kRulesDir)));
}

// D-S4: the rule database is its owner's only, whoever made its folder and
// whatever mode an older import left; a folder others can enter is reported.
TEST_F(CliTest, WritesTheDatabase0600IntoAPreCreated0755FolderAndWarns) {
  const std::filesystem::path folder = temp_ / "data";
  std::filesystem::create_directory(folder);
  ASSERT_EQ(::chmod(folder.c_str(), 0755), 0);
  const std::string warning = "codepayload-import: the data directory " + folder.string() +
                              " has mode 0755: group or others can enter or list it (the files in it are kept "
                              "0600); run chmod 700 " +
                              folder.string() + " unless a group shares it on purpose\n";
  const RunResult fresh = run({"--db", (folder / "rules.db").string(), "--baseline", baselinePath(kRulesDir).string()});
  EXPECT_EQ(fresh.exitCode, 0);
  EXPECT_EQ(fresh.err, warning);
  EXPECT_EQ(listFolder(folder), std::set<std::string>{"rules.db"});
  EXPECT_EQ(fileMode(folder / "rules.db"), 0600u);

  ASSERT_EQ(::chmod((folder / "rules.db").c_str(), 0644), 0);  // as imports before D-S4 left it
  const RunResult replaced = run({"--db", (folder / "rules.db").string(), "--allow-downgrade", "--link-types",
                                  linkTypesFile().string(), releaseFile("2025-01-30").string()});
  EXPECT_EQ(replaced.exitCode, 0);
  EXPECT_EQ(replaced.err, warning);
  EXPECT_EQ(listFolder(folder), std::set<std::string>{"rules.db"});
  EXPECT_EQ(fileMode(folder / "rules.db"), 0600u);
  EXPECT_EQ(readRules(folder / "rules.db").release.name, "2025-01-30");
  EXPECT_EQ(fileMode(folder), 0755u);  // reported, not changed

  // The baseline is source, not data: it stays readable and is not warned about.
  const RunResult baseline = run({"--write-baseline", (folder / "out.baseline").string(), "--link-types",
                                  linkTypesFile().string(), releaseFile("2026-01-27").string()});
  EXPECT_EQ(baseline.exitCode, 0);
  EXPECT_EQ(baseline.err, "");
  EXPECT_EQ(fileMode(folder / "out.baseline"), 0644u);
}

TEST_F(CliTest, AFailureExitsOneWithTheErrorOnStderr) {
  ASSERT_EQ(run({"--db", (temp_ / "rules.db").string(), "--baseline", baselinePath(kRulesDir).string()}).exitCode, 0);
  const std::string before = readFile(temp_ / "rules.db");
  writeFile(temp_ / "gs1-syntax-dictionary-x.txt", "# Release: 2099-01-01\n01 *? N14,,csum\n");
  const RunResult result = run({"--db", (temp_ / "rules.db").string(), "--link-types", linkTypesFile().string(),
                                (temp_ / "gs1-syntax-dictionary-x.txt").string()});
  EXPECT_EQ(result.exitCode, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err, "gs1-syntax-dictionary-x.txt:2: component \"N14,,csum\": empty linter name\n");
  EXPECT_TRUE(readFile(temp_ / "rules.db") == before);
}

TEST_F(CliTest, UsageErrorsExitTwo) {
  const std::pair<std::vector<std::string>, std::string> rows[] = {
      {{}, "nothing to do"},
      {{"--db"}, "--db needs a value"},
      {{"--db", "a.db", "--db", "b.db"}, "--db given twice"},
      {{"--frobnicate"}, "unknown option --frobnicate"},
      {{"release.txt"}, "--link-types is required with a release file"},
      {{"--link-types", "l.json"}, "no release file"},
      {{"--link-types", "l.json", "a.txt", "b.txt"}, "more than one release file (a.txt, b.txt)"},
      {{"--baseline", "b", "a.txt"}, "--baseline takes no release file"},
      {{"--baseline", "b", "--link-types", "l.json"}, "--baseline takes no --link-types (the baseline contains them)"},
      {{"--baseline", "b", "--write-baseline", "o"}, "--baseline and --write-baseline exclude each other"},
      {{"--write-baseline", "o", "--db", "d", "--link-types", "l.json", "a.txt"},
       "--write-baseline writes no database; --db does not apply"},
  };
  for (const auto& [arguments, message] : rows) {
    SCOPED_TRACE(message);
    const RunResult result = run(arguments);
    EXPECT_EQ(result.exitCode, 2);
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err, "codepayload-import: " + message + "\n" + kUsage);
  }
}

TEST_F(CliTest, HelpPrintsTheUsage) {
  const RunResult result = run({"--help"});
  EXPECT_EQ(result.exitCode, 0);
  EXPECT_EQ(result.out, kUsage);
  EXPECT_EQ(result.err, "");
}

// kill -9 at random moments of an import: the target is always the old or
// the new database, complete and sound.
TEST_F(CliTest, KillNineLeavesTheOldOrTheNewDatabase) {
  const std::filesystem::path target = temp_ / "data/rules.db";
  const std::vector<std::string> releases = {"2025-01-30", "2026-01-27"};
  auto arguments = [&](const std::string& release) {
    return std::vector<std::string>{"--db", target.string(), "--link-types", linkTypesFile().string(),
                                    releaseFile(release).string()};
  };
  ASSERT_EQ(run(arguments(releases[0])).exitCode, 0);
  // How long one import takes, to spread the kills over it.
  const auto begin = std::chrono::steady_clock::now();
  ASSERT_EQ(run(arguments(releases[1])).exitCode, 0);
  const auto duration = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - begin);

  std::mt19937 random(20260127);
  std::uniform_int_distribution<long> delay(0, duration.count());
  int killedMidway = 0;
  for (int attempt = 0; attempt < 24; ++attempt) {
    SCOPED_TRACE(attempt);
    const std::string release = releases[static_cast<std::size_t>(attempt % 2)];
    const pid_t pid = start(arguments(release), temp_ / "stdout", temp_ / "stderr");
    std::this_thread::sleep_for(std::chrono::microseconds(delay(random)));
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFSIGNALED(status)) ++killedMidway;
    const Dictionary stored = readRules(target);
    EXPECT_TRUE(stored.release.name == releases[0] || stored.release.name == releases[1]) << stored.release.name;
    EXPECT_EQ(stored.ais.size(), stored.release.name == releases[0] ? 536u : 541u);
    EXPECT_EQ(stored.linkTypes.size(), 60u);
  }
  EXPECT_GT(killedMidway, 0);
  // A killed import may leave its hidden temporary file; nothing else.
  for (const std::string& name : codepayload::testing::listFolder(target.parent_path())) {
    EXPECT_TRUE(name == "rules.db" || name.starts_with(".rules.db.new-")) << name;
  }
}

}  // namespace
}  // namespace codepayload::importer
