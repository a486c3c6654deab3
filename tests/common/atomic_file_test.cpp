#include "common/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <set>
#include <stdexcept>
#include <string>

#include "tests/tools/test_files.h"

namespace codepayload::common {
namespace {

using codepayload::testing::fileMode;
using codepayload::testing::listFolder;
using codepayload::testing::readFile;
using codepayload::testing::ScopedUmask;
using codepayload::testing::TempDir;
using codepayload::testing::writeFile;

std::string errorOf(const std::function<void()>& call) {
  try {
    call();
  } catch (const AtomicFileError& error) {
    return error.what();
  }
  return "no error";
}

TEST(AtomicFile, WritesContentWithTheExactModeWhateverTheUmask) {
  for (const unsigned mode : {0600u, 0644u, 0640u}) {
    const ScopedUmask permissive(0077);
    TempDir temp;
    EXPECT_TRUE(writeFileAtomically(temp / "file", "content\n", AtomicFileOptions{.mode = mode}));
    EXPECT_EQ(readFile(temp / "file"), "content\n");
    EXPECT_EQ(fileMode(temp / "file"), mode) << std::oct << mode;
    EXPECT_EQ(listFolder(temp.path()), std::set<std::string>{"file"});
  }
}

TEST(AtomicFile, ReplacesAnOldTargetAndItsMode) {
  TempDir temp;
  writeFile(temp / "file", "old content that is longer");
  ASSERT_EQ(::chmod((temp / "file").c_str(), 0644), 0);
  EXPECT_TRUE(writeFileAtomically(temp / "file", "new", AtomicFileOptions{}));
  EXPECT_EQ(readFile(temp / "file"), "new");
  EXPECT_EQ(fileMode(temp / "file"), 0600u);
  EXPECT_EQ(listFolder(temp.path()), std::set<std::string>{"file"});
}

TEST(AtomicFile, WritesEmptyAndBinaryContent) {
  TempDir temp;
  writeFileAtomically(temp / "empty", "", AtomicFileOptions{});
  EXPECT_EQ(readFile(temp / "empty"), "");
  const std::string binary("a\0b\xFF", 4);
  writeFileAtomically(temp / "binary", binary, AtomicFileOptions{});
  EXPECT_EQ(readFile(temp / "binary"), binary);
}

TEST(AtomicFile, UniqueTemporaryIsHiddenBesideTheTargetAndEmptyWithTheModeDuringBuild) {
  const ScopedUmask permissive(0);
  TempDir temp;
  std::filesystem::path seen;
  mode_t modeDuringBuild = 0;
  EXPECT_TRUE(writeFileAtomically(temp / "target", AtomicFileOptions{.mode = 0640},
                                  [&](const std::filesystem::path& temporary) {
                                    seen = temporary;
                                    modeDuringBuild = fileMode(temporary);
                                    EXPECT_EQ(readFile(temporary), "");
                                    EXPECT_FALSE(std::filesystem::exists(temp / "target"));
                                    writeFile(temporary, "built");
                                  }));
  EXPECT_EQ(seen.parent_path(), temp.path());
  EXPECT_TRUE(seen.filename().string().starts_with(".target.new-")) << seen;
  EXPECT_EQ(seen.filename().string().size(), std::string(".target.new-XXXXXX").size());
  EXPECT_EQ(modeDuringBuild, 0640u);
  EXPECT_EQ(readFile(temp / "target"), "built");
  EXPECT_EQ(fileMode(temp / "target"), 0640u);
  EXPECT_EQ(listFolder(temp.path()), std::set<std::string>{"target"});
}

TEST(AtomicFile, FixedTemporaryIsTheTargetDotTmpAndALeftoverIsRemovedFirst) {
  TempDir temp;
  writeFile(temp / "server.port.tmp", "stale");
  ASSERT_EQ(::chmod((temp / "server.port.tmp").c_str(), 0644), 0);
  std::filesystem::path seen;
  writeFileAtomically(temp / "server.port", AtomicFileOptions{.temporaryName = TemporaryName::Fixed},
                      [&](const std::filesystem::path& temporary) {
                        seen = temporary;
                        EXPECT_EQ(readFile(temporary), "");
                        EXPECT_EQ(fileMode(temporary), 0600u);
                        writeFile(temporary, "8443\n");
                      });
  EXPECT_EQ(seen, temp / "server.port.tmp");
  EXPECT_EQ(readFile(temp / "server.port"), "8443\n");
  EXPECT_EQ(listFolder(temp.path()), std::set<std::string>{"server.port"});
}

TEST(AtomicFile, AFailingBuildLeavesTheTargetAndNoTemporary) {
  for (const TemporaryName naming : {TemporaryName::Unique, TemporaryName::Fixed}) {
    TempDir temp;
    writeFile(temp / "target", "old");
    try {
      writeFileAtomically(temp / "target", AtomicFileOptions{.temporaryName = naming},
                          [](const std::filesystem::path& temporary) {
                            writeFile(temporary, "half");
                            throw std::runtime_error("build failed");
                          });
      ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& error) {
      EXPECT_EQ(std::string(error.what()), "build failed");
    }
    EXPECT_EQ(readFile(temp / "target"), "old");
    EXPECT_EQ(listFolder(temp.path()), std::set<std::string>{"target"});
  }
}

TEST(AtomicFile, KeepExistingCreatesAMissingTarget) {
  TempDir temp;
  EXPECT_TRUE(writeFileAtomically(temp / "secret", "first", AtomicFileOptions{.publish = Publish::KeepExisting}));
  EXPECT_EQ(readFile(temp / "secret"), "first");
  EXPECT_EQ(fileMode(temp / "secret"), 0600u);
  EXPECT_EQ(listFolder(temp.path()), std::set<std::string>{"secret"});
}

TEST(AtomicFile, KeepExistingLeavesAnExistingTargetAlone) {
  TempDir temp;
  writeFile(temp / "secret", "winner");
  ASSERT_EQ(::chmod((temp / "secret").c_str(), 0600), 0);
  EXPECT_FALSE(writeFileAtomically(temp / "secret", "loser", AtomicFileOptions{.publish = Publish::KeepExisting}));
  EXPECT_EQ(readFile(temp / "secret"), "winner");
  EXPECT_EQ(listFolder(temp.path()), std::set<std::string>{"secret"});
}

TEST(AtomicFile, AMissingFolderIsReportedWithTheTemporaryName) {
  TempDir temp;
  EXPECT_EQ(errorOf([&] {
              writeFileAtomically(temp / "missing" / "server.port", "1\n",
                                  AtomicFileOptions{.temporaryName = TemporaryName::Fixed});
            }),
            "cannot create " + (temp / "missing" / "server.port.tmp").string() + ": No such file or directory");
  EXPECT_EQ(errorOf([&] { writeFileAtomically(temp / "missing" / "rules.db", "x", AtomicFileOptions{}); }),
            "cannot create " + (temp / "missing" / ".rules.db.new-XXXXXX").string() + ": No such file or directory");
}

TEST(AtomicFile, ATargetThatIsAFolderIsReportedAndTheTemporaryRemoved) {
  TempDir temp;
  std::filesystem::create_directory(temp / "target");
  writeFile(temp / "target" / "inside", "x");  // rename(2) cannot replace a non-empty folder
  const std::string error = errorOf([&] { writeFileAtomically(temp / "target", "x", AtomicFileOptions{}); });
  EXPECT_TRUE(error.starts_with("cannot rename " + (temp / ".target.new-").string())) << error;
  EXPECT_TRUE(error.ends_with(" to " + (temp / "target").string() + ": Is a directory")) << error;
  EXPECT_EQ(listFolder(temp.path()), std::set<std::string>{"target"});
}

TEST(AtomicFile, ATargetWithoutAFolderPartIsWrittenInTheWorkingDirectory) {
  TempDir temp;
  const std::filesystem::path previous = std::filesystem::current_path();
  std::filesystem::current_path(temp.path());
  const bool written = writeFileAtomically("plain", "here", AtomicFileOptions{});
  std::filesystem::current_path(previous);
  EXPECT_TRUE(written);
  EXPECT_EQ(readFile(temp / "plain"), "here");
  EXPECT_EQ(listFolder(temp.path()), std::set<std::string>{"plain"});
}

}  // namespace
}  // namespace codepayload::common
