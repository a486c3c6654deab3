#include "db/import/atomic_replace.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <ios>
#include <utility>
#include <vector>

#include "db/import/import_error.h"
#include "tests/tools/test_files.h"

namespace codepayload::importer {
namespace {

using codepayload::testing::fileMode;

using codepayload::testing::listFolder;
using codepayload::testing::readFile;
using codepayload::testing::TempDir;
using codepayload::testing::writeFile;

TEST(AtomicReplaceTest, ReplacesTheTargetAndKeepsItsPermissions) {
  TempDir temp;
  writeFile(temp / "target", "old");
  ::chmod((temp / "target").c_str(), 0640);
  std::filesystem::path seen;
  replaceFileAtomically(temp / "target", FileAccess::Readable, [&seen](const std::filesystem::path& temporary) {
    seen = temporary;
    EXPECT_TRUE(temporary.filename().string().starts_with(".target.new-"));
    EXPECT_EQ(readFile(temporary), "");
    writeFile(temporary, "new");
  });
  EXPECT_EQ(seen.parent_path(), temp.path());
  EXPECT_EQ(readFile(temp / "target"), "new");
  EXPECT_EQ(fileMode(temp / "target"), 0640u);
  EXPECT_EQ(listFolder(temp.path()), (std::set<std::string>{"target"}));
}

TEST(AtomicReplaceTest, CreatesANewTargetAndItsFolder) {
  TempDir temp;
  replaceFileAtomically(temp / "a/b/target", FileAccess::Readable,
                        [](const std::filesystem::path& temporary) { writeFile(temporary, "x"); });
  EXPECT_EQ(readFile(temp / "a/b/target"), "x");
  EXPECT_EQ(fileMode(temp / "a/b/target"), 0644u);
}

TEST(AtomicReplaceTest, OwnerOnlyTakesGroupAndOtherBitsAwayFromAnOldTarget) {
  for (const auto& [oldMode, newMode] :
       std::vector<std::pair<mode_t, mode_t>>{{0644, 0600}, {0640, 0600}, {0666, 0600}, {0755, 0700}, {0600, 0600}}) {
    TempDir temp;
    writeFile(temp / "target", "old");
    ::chmod((temp / "target").c_str(), oldMode);
    mode_t modeDuringBuild = 0;
    replaceFileAtomically(temp / "target", FileAccess::OwnerOnly, [&](const std::filesystem::path& temporary) {
      modeDuringBuild = fileMode(temporary);
      writeFile(temporary, "new");
    });
    EXPECT_EQ(readFile(temp / "target"), "new");
    EXPECT_EQ(modeDuringBuild, newMode) << std::oct << oldMode;
    EXPECT_EQ(fileMode(temp / "target"), newMode) << std::oct << oldMode;
  }
}

TEST(AtomicReplaceTest, OwnerOnlyCreatesANewTargetWithMode0600WhateverTheUmask) {
  TempDir temp;
  const mode_t previousUmask = ::umask(0);
  replaceFileAtomically(temp / "target", FileAccess::OwnerOnly, [](const std::filesystem::path& temporary) {
    EXPECT_EQ(fileMode(temporary), 0600u);
    writeFile(temporary, "x");
  });
  ::umask(previousUmask);
  EXPECT_EQ(fileMode(temp / "target"), 0600u);
}

TEST(AtomicReplaceTest, AFailingBuildLeavesTheTargetAndNoTemporaryFiles) {
  TempDir temp;
  writeFile(temp / "target", "old");
  try {
    replaceFileAtomically(temp / "target", FileAccess::OwnerOnly, [](const std::filesystem::path& temporary) {
      writeFile(temporary, "half");
      writeFile(temporary.string() + "-journal", "journal");
      throw ImportError("build failed");
    });
    ADD_FAILURE() << "no error";
  } catch (const ImportError& error) {
    EXPECT_EQ(std::string(error.what()), "build failed");
  }
  EXPECT_EQ(readFile(temp / "target"), "old");
  EXPECT_EQ(listFolder(temp.path()), (std::set<std::string>{"target"}));
}

TEST(AtomicReplaceTest, ATargetThatIsAFolderIsRefused) {
  TempDir temp;
  std::filesystem::create_directory(temp / "target");
  bool built = false;
  try {
    replaceFileAtomically(temp / "target", FileAccess::OwnerOnly,
                          [&built](const std::filesystem::path&) { built = true; });
    ADD_FAILURE() << "no error";
  } catch (const ImportError& error) {
    EXPECT_EQ(std::string(error.what()), (temp / "target").string() + ": exists and is not a regular file");
  }
  EXPECT_FALSE(built);
  EXPECT_EQ(listFolder(temp.path()), (std::set<std::string>{"target"}));
}

}  // namespace
}  // namespace codepayload::importer
