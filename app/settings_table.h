// The one table of settings: every key of codepayload.properties, its
// environment variable, its type with its range or allowed values, its
// default (as the shipped file writes it) and one line of documentation. Every
// binary checks every value it is given against it (app/settings.h), with the
// same words; the server builds its typed settings from it
// (server/config/server_config.h).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace codepayload::app {

enum class SettingType {
  Folder,         // a path that must not be empty
  File,           // a path; empty: none
  Listen,         // host:port or [ipv6]:port
  ListenOrEmpty,  // the same; empty: no listener
  ListenOrOff,    // the same; empty or "off": no listener
  Boolean,        // true or false
  Integer,        // a whole number from minimum to maximum
  Seconds,        // the same, in seconds
  Milliseconds,   // the same, in milliseconds
  Uri,            // an absolute URI of visible ASCII (a JWT StringOrURI)
  AddressBlocks,  // a comma-separated CIDR list (app/address_blocks.h)
  Choice,         // one of `choices`, in any letter case
  LogTarget,      // "-" (stdout), "off" or a file path
  RegistryUrl,    // empty (SQLite) or a PostgreSQL URL (app/registry_url.h)
};

struct SettingRow {
  std::string_view key;
  std::string_view environmentVariable;
  SettingType type;
  std::string_view defaultValue;
  std::string_view doc;
  std::int64_t minimum = 0;  // Integer, Seconds, Milliseconds
  std::int64_t maximum = 0;
  std::span<const std::string_view> choices = {};  // Choice
  std::string_view choiceNote = {};                // Choice: said in brackets after them
};

// Every row, in the order of codepayload.properties.
std::span<const SettingRow> settingTable();

// The row of `key`; nullptr for an unknown key.
const SettingRow* findSetting(std::string_view key);

// Throws SettingsError with why `value` is not one of `row`'s values, without
// the key or the variable (the caller names them).
void checkSettingValue(const SettingRow& row, std::string_view value);

struct ListenAddress {
  std::string host;    // "127.0.0.1", "0.0.0.0", "::1"
  std::uint16_t port;  // 0: the kernel picks one

  bool operator==(const ListenAddress&) const = default;
};

// Parses "host:port" or "[v6]:port"; throws SettingsError.
ListenAddress parseListenAddress(std::string_view text);

// The typed readers; each throws SettingsError as checkSettingValue does.
std::int64_t readInteger(const SettingRow& row, std::string_view value);
bool readBoolean(std::string_view value);
std::optional<ListenAddress> readListen(const SettingRow& row, std::string_view value);
// The choice as the table spells it.
std::string_view readChoice(const SettingRow& row, std::string_view value);

}  // namespace codepayload::app
