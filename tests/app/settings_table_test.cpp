// The one settings table against what people read: the shipped
// codepayload.properties and the settings table of the documentation name
// every key once, with the table's default.
#include "app/settings_table.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "app/paths.h"
#include "app/settings.h"

namespace codepayload::app {
namespace {

// The document whose "| Key | Environment variable | Default | Meaning |"
// table lists the settings.
constexpr std::string_view kSettingsDocument = "docs/running.md";

const std::filesystem::path kSourceDir = CODEPAYLOAD_TEST_SOURCE_DIR;

std::vector<std::string> backquoted(const std::string& cell) {
  static const std::regex kCode("`([^`]*)`");
  std::vector<std::string> found;
  for (auto match = std::sregex_iterator(cell.begin(), cell.end(), kCode); match != std::sregex_iterator(); ++match) {
    found.push_back((*match)[1]);
  }
  return found;
}

std::vector<std::string> cellsOf(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream row(line.substr(1));
  std::string cell;
  while (std::getline(row, cell, '|')) cells.push_back(cell);
  return cells;
}

struct DocumentedSetting {
  std::string variable;
  std::string defaultText;  // "" when the row gives no value in backquotes
};

// The rows of the settings table: several keys may share one row, their
// variables and defaults in the same order; a row of keys without a default
// (empty or off) writes none in backquotes.
std::map<std::string, DocumentedSetting> documentedSettings() {
  std::ifstream in(kSourceDir / kSettingsDocument);
  std::string line;
  while (std::getline(in, line) && line != "| Key | Environment variable | Default | Meaning |") {
  }
  std::getline(in, line);  // |---|...
  std::map<std::string, DocumentedSetting> settings;
  while (std::getline(in, line) && line.starts_with("| `")) {
    const std::vector<std::string> cells = cellsOf(line);
    const std::vector<std::string> keys = backquoted(cells.at(0));
    const std::vector<std::string> variables = backquoted(cells.at(1));
    const std::vector<std::string> defaults = backquoted(cells.at(2));
    EXPECT_EQ(variables.size(), keys.size()) << line;
    for (std::size_t index = 0; index < keys.size() && index < variables.size(); ++index) {
      const std::string defaultText = cells.at(2).starts_with(" `") && index < defaults.size() ? defaults[index] : "";
      EXPECT_TRUE(settings.emplace(keys[index], DocumentedSetting{variables[index], defaultText}).second)
          << keys[index];
    }
  }
  return settings;
}

TEST(SettingsTable, EveryDefaultIsAValueOfItsRow) {
  for (const SettingRow& row : settingTable()) {
    SCOPED_TRACE(row.key);
    EXPECT_NO_THROW(checkSettingValue(row, row.defaultValue));
    EXPECT_FALSE(row.doc.empty());
    EXPECT_EQ(findSetting(row.key), &row);
  }
  EXPECT_EQ(findSetting("token.tll"), nullptr);
}

TEST(SettingsTable, TheShippedPropertiesFileWritesEveryKeyWithItsDefault) {
  const SettingValues values =
      readSettingValues(defaultConfigDir() / kPropertiesFileName, [](std::string_view) { return std::nullopt; });
  EXPECT_EQ(values.size(), settingTable().size());
  for (const SettingRow& row : settingTable()) {
    SCOPED_TRACE(row.key);
    const auto value = values.find(row.key);
    ASSERT_NE(value, values.end());
    EXPECT_EQ(value->second.text, row.defaultValue);
  }
}

TEST(SettingsTable, TheDocumentedTableListsEveryKeyItsVariableAndItsDefault) {
  const std::map<std::string, DocumentedSetting> documented = documentedSettings();
  EXPECT_EQ(documented.size(), settingTable().size());
  for (const SettingRow& row : settingTable()) {
    SCOPED_TRACE(row.key);
    const auto found = documented.find(std::string(row.key));
    ASSERT_NE(found, documented.end());
    EXPECT_EQ(found->second.variable, row.environmentVariable);
    EXPECT_EQ(found->second.defaultText, row.defaultValue);
  }
}

}  // namespace
}  // namespace codepayload::app
