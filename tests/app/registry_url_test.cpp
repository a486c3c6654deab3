// registry.url and registry.passwordFile: every accepted shape with the exact
// libpq connection string and display name it gives, every refusal with its
// exact line, and no line carrying the password.
#include "app/registry_url.h"

#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <sys/stat.h>

#include <map>
#include <string>
#include <vector>

#include "app/settings_table.h"
#include "tests/tools/test_files.h"

namespace codepayload::app {
namespace {

using codepayload::testing::TempDir;
using codepayload::testing::writeFile;

// Written in every refused URL that has a password, and in the files.
constexpr std::string_view kPassword = "Pw-9sQ";

constexpr std::string_view kShape = " (postgresql://user:password@host:port/dbname)";
constexpr std::string_view kKnown = "(known: sslmode, sslrootcert, sslcert, sslkey, connect_timeout, application_name)";

PostgresqlRegistry accepted(std::string_view url, const std::filesystem::path& passwordFile = {}) {
  const std::optional<PostgresqlRegistry> registry = readRegistryUrl(url, passwordFile);
  EXPECT_TRUE(registry) << url;
  return registry.value_or(PostgresqlRegistry{});
}

std::string refusalOf(std::string_view url, const std::filesystem::path& passwordFile = {}) {
  try {
    readRegistryUrl(url, passwordFile);
  } catch (const RegistryUrlError& error) {
    return error.what();
  }
  return "<no error>";
}

std::filesystem::path passwordFile(const TempDir& folder, const std::string& content, mode_t mode) {
  const std::filesystem::path file = folder / "registry-password";
  writeFile(file, content);
  EXPECT_EQ(::chmod(file.c_str(), mode), 0);
  return file;
}

TEST(RegistryUrl, AnEmptyUrlIsTheSqliteRegistry) { EXPECT_EQ(readRegistryUrl("", {}), std::nullopt); }

TEST(RegistryUrl, AWholeUrlGivesTheKeywordFormAndANameWithoutThePassword) {
  const PostgresqlRegistry registry =
      accepted("postgresql://codepayload:s3cret@db.example.com:6432/registry?sslmode=verify-full");
  EXPECT_EQ(registry.connectionString,
            "host='db.example.com' port='6432' dbname='registry' user='codepayload' password='s3cret' "
            "sslmode='verify-full'");
  EXPECT_EQ(registry.displayName, "postgresql://codepayload@db.example.com:6432/registry");
}

TEST(RegistryUrl, ThePostgresSchemeAndTheDefaultPort) {
  const PostgresqlRegistry registry = accepted("postgres://codepayload@db/registry");
  EXPECT_EQ(registry.connectionString, "host='db' port='5432' dbname='registry' user='codepayload'");
  EXPECT_EQ(registry.displayName, "postgresql://codepayload@db:5432/registry");
  // The scheme in any letter case, like every URI scheme.
  EXPECT_EQ(accepted("PostgreSQL://codepayload@db/registry"), registry);
}

TEST(RegistryUrl, AnIpAddressHost) {
  EXPECT_EQ(accepted("postgresql://app@10.0.0.7:5433/registry").connectionString,
            "host='10.0.0.7' port='5433' dbname='registry' user='app'");

  const PostgresqlRegistry loopback = accepted("postgresql://app@[::1]:5433/registry");
  EXPECT_EQ(loopback.connectionString, "host='::1' port='5433' dbname='registry' user='app'");
  EXPECT_EQ(loopback.displayName, "postgresql://app@[::1]:5433/registry");

  const PostgresqlRegistry defaultPort = accepted("postgresql://app@[2001:db8::7]/registry");
  EXPECT_EQ(defaultPort.connectionString, "host='2001:db8::7' port='5432' dbname='registry' user='app'");
  EXPECT_EQ(defaultPort.displayName, "postgresql://app@[2001:db8::7]:5432/registry");
}

TEST(RegistryUrl, ThePartsArePercentDecoded) {
  const PostgresqlRegistry registry = accepted("postgresql://app%2Bro:p%40ss%2Fw%3Ard%25@db-1/reg%2Bistry");
  EXPECT_EQ(registry.connectionString,
            "host='db-1' port='5432' dbname='reg+istry' user='app+ro' password='p@ss/w:rd%'");
  // The display name writes them encoded again, so it stays one URL.
  EXPECT_EQ(registry.displayName, "postgresql://app%2Bro@db-1:5432/reg%2Bistry");
  EXPECT_EQ(accepted("postgresql://app@d%62/registry").connectionString,
            "host='db' port='5432' dbname='registry' user='app'");
}

TEST(RegistryUrl, QuotesAndBackslashesAreEscapedInTheKeywordForm) {
  const PostgresqlRegistry registry = accepted("postgresql://o%27brien:it%27s%5Cx@db/a%5Cb%27c");
  EXPECT_EQ(registry.connectionString, R"(host='db' port='5432' dbname='a\\b\'c' user='o\'brien' password='it\'s\\x')");
  EXPECT_EQ(registry.displayName, "postgresql://o%27brien@db:5432/a%5Cb%27c");
}

TEST(RegistryUrl, EveryParameterInTheConnectionStringsOrder) {
  const PostgresqlRegistry registry = accepted(
      "postgresql://app@db/registry?application_name=codepayload%2Dserver&connect_timeout=10"
      "&sslkey=/etc/codepayload/client.key&sslcert=/etc/codepayload/client.crt&sslrootcert=/etc/ssl/ca%27s.pem"
      "&sslmode=require");
  EXPECT_EQ(registry.connectionString,
            R"(host='db' port='5432' dbname='registry' user='app' sslmode='require' sslrootcert='/etc/ssl/ca\'s.pem' )"
            R"(sslcert='/etc/codepayload/client.crt' sslkey='/etc/codepayload/client.key' connect_timeout='10' )"
            R"(application_name='codepayload-server')");
  EXPECT_EQ(registry.displayName, "postgresql://app@db:5432/registry");
  // After the database name, '/' and '@' are a parameter's own.
  EXPECT_EQ(accepted("postgresql://app@db/registry?sslcert=/home/ops@site/client.crt").connectionString,
            "host='db' port='5432' dbname='registry' user='app' sslcert='/home/ops@site/client.crt'");
}

TEST(RegistryUrl, EverySslMode) {
  for (const std::string mode : {"disable", "allow", "prefer", "require", "verify-ca", "verify-full"}) {
    EXPECT_EQ(accepted("postgresql://app@db/registry?sslmode=" + mode).connectionString,
              "host='db' port='5432' dbname='registry' user='app' sslmode='" + mode + "'");
  }
}

// What libpq itself reads from a keyword/value string: keyword to value, for
// the keywords given.
std::map<std::string, std::string> libpqReading(const std::string& connectionString) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(connectionString.c_str(), &error);
  std::map<std::string, std::string> values;
  if (options == nullptr) {
    ADD_FAILURE() << (error != nullptr ? error : "PQconninfoParse failed");
    PQfreemem(error);
    return values;
  }
  for (const PQconninfoOption* option = options; option->keyword != nullptr; ++option) {
    if (option->val != nullptr) values.emplace(option->keyword, option->val);
  }
  PQconninfoFree(options);
  return values;
}

// The quoting is libpq's: it reads back every decoded part as it was.
TEST(RegistryUrl, LibpqReadsBackEveryPartAsDecoded) {
  const PostgresqlRegistry registry = accepted(
      "postgresql://o%27brien%5C:a%27b%5Cc%40d%2Fe%3Af%2Bg%25h%3D@[::1]:6543/db%2Bname%27?sslmode=verify-ca"
      "&sslrootcert=/etc/ssl/ca%2Bdir/root%27s.pem&connect_timeout=7&application_name=it%27s%5C");
  EXPECT_EQ(libpqReading(registry.connectionString), (std::map<std::string, std::string>{
                                                         {"host", "::1"},
                                                         {"port", "6543"},
                                                         {"dbname", "db+name'"},
                                                         {"user", "o'brien\\"},
                                                         {"password", "a'b\\c@d/e:f+g%h="},
                                                         {"sslmode", "verify-ca"},
                                                         {"sslrootcert", "/etc/ssl/ca+dir/root's.pem"},
                                                         {"connect_timeout", "7"},
                                                         {"application_name", "it's\\"},
                                                     }));
  TempDir folder;
  const PostgresqlRegistry fromFile =
      accepted("postgresql://app@db/registry", passwordFile(folder, "it's\\'quoted'\n", 0600));
  EXPECT_EQ(libpqReading(fromFile.connectionString).at("password"), "it's\\'quoted'");
}

struct Refusal {
  std::string url;
  std::string message;
};

TEST(RegistryUrl, EveryRefusalIsOneLineWithoutThePassword) {
  const std::string pw(kPassword);
  const std::string shape(kShape);
  const std::vector<Refusal> refusals{
      {"mysql://app:" + pw + "@db/registry", R"(registry.url: "mysql://..." is not a PostgreSQL URL)" + shape},
      {"postgresql:app:" + pw + "@db/registry", R"(registry.url: "postgresql:..." is not a PostgreSQL URL)" + shape},
      {"app:" + pw + "@db/registry", R"(registry.url: "app:..." is not a PostgreSQL URL)" + shape},
      {"db.example.com/registry", "registry.url: not a PostgreSQL URL" + shape},
      {"host=db user=app password=" + pw,
       "registry.url: a space or control character: percent-encode it (a space is %20)"},
      {"postgresql://app:" + pw + "\t@db/registry",
       "registry.url: a space or control character: percent-encode it (a space is %20)"},
      {"postgresql://app:Pw%209sQ@db/registry",
       "registry.url: the password holds a space, which the PostgreSQL connector of this service cannot pass on:"
       " choose one without spaces"},
      {"postgresql://app@db/reg%20istry",
       "registry.url: the database name holds a space, which the PostgreSQL connector of this service cannot pass"
       " on: choose one without spaces"},
      {"postgresql://db/registry", "registry.url: the user is missing" + shape},
      {"postgresql://:" + pw + "@db/registry", "registry.url: the user is missing" + shape},
      {"postgresql://app:@db/registry",
       "registry.url: the password after the user's ':' is empty: give one or drop the ':'"},
      {"postgresql://app:Pw/9sQ@db/registry",
       "registry.url: an '@' after the host: write a '/' in the user or password as %2F, an '@' as %40"},
      {"postgresql://app:Pw@9sQ@db/registry",
       "registry.url: more than one '@' before the host: write an '@' in the user or password as %40"},
      {"postgresql://app:Pw%4-9sQ@db/registry",
       "registry.url: bad percent-encoding in the password (a '%' itself is written %25; %00 is not allowed)"},
      {"postgresql://app:" + pw + "%@db/registry",
       "registry.url: bad percent-encoding in the password (a '%' itself is written %25; %00 is not allowed)"},
      {"postgresql://app:" + pw + "%00@db/registry",
       "registry.url: bad percent-encoding in the password (a '%' itself is written %25; %00 is not allowed)"},
      {"postgresql://a%zzp:" + pw + "@db/registry",
       "registry.url: bad percent-encoding in the user (a '%' itself is written %25; %00 is not allowed)"},
      {"postgresql://app:" + pw + "@/registry", "registry.url: the host is missing" + shape},
      {"postgresql://app:" + pw + "@:5432/registry", "registry.url: the host is missing" + shape},
      {"postgresql://app:" + pw + "@db1,db2/registry",
       R"(registry.url: the host "db1,db2" is not one host name or IP address)"},
      {"postgresql://app:" + pw + "@%2Fvar%2Frun%2Fpostgresql/registry",
       R"(registry.url: the host "%2Fvar%2Frun%2Fpostgresql" is not one host name or IP address)"},
      {"postgresql://app:" + pw + "@d%zz/registry",
       "registry.url: bad percent-encoding in the host (a '%' itself is written %25; %00 is not allowed)"},
      {"postgresql://app:" + pw + "@::1/registry",
       "registry.url: an IPv6 host goes in brackets: postgresql://user@[::1]:5432/dbname"},
      {"postgresql://app:" + pw + "@[::1/registry", "registry.url: the IPv6 host has no closing ']'"},
      {"postgresql://app:" + pw + "@[db]/registry", R"(registry.url: the host "[db]" is not an IPv6 address)"},
      {"postgresql://app:" + pw + "@[127.0.0.1]/registry",
       R"(registry.url: the host "[127.0.0.1]" is not an IPv6 address)"},
      {"postgresql://app:" + pw + "@[fe80::1%25eth0]/registry",
       R"(registry.url: the host "[fe80::1%25eth0]" is not an IPv6 address)"},
      {"postgresql://app:" + pw + "@[::1]5432/registry",
       R"(registry.url: text after the host "[::1]": only ":port" may follow)"},
      {"postgresql://app:" + pw + "@db:/registry", R"(registry.url: the port "" is not a number from 1 to 65535)"},
      {"postgresql://app:" + pw + "@db:0/registry", R"(registry.url: the port "0" is not a number from 1 to 65535)"},
      {"postgresql://app:" + pw + "@db:65536/registry",
       R"(registry.url: the port "65536" is not a number from 1 to 65535)"},
      {"postgresql://app:" + pw + "@db:54x/registry",
       R"(registry.url: the port "54x" is not a number from 1 to 65535)"},
      {"postgresql://app:" + pw + "@[::1]:-1/registry",
       R"(registry.url: the port "-1" is not a number from 1 to 65535)"},
      {"postgresql://app:" + pw + "@db", "registry.url: the database name is missing" + shape},
      {"postgresql://app:" + pw + "@db:5432/", "registry.url: the database name is missing" + shape},
      {"postgresql://app:" + pw + "@db?sslmode=require", "registry.url: the database name is missing" + shape},
      {"postgresql://app:" + pw + "@db/?sslmode=require", "registry.url: the database name is missing" + shape},
      {"postgresql://app:" + pw + "@db/reg/istry", "registry.url: a '/' in the database name: write it as %2F"},
      {"postgresql://app:" + pw + "@db/re%00g",
       "registry.url: bad percent-encoding in the database name (a '%' itself is written %25; %00 is not allowed)"},
      {"postgresql://app:" + pw + "@db/registry?foo=1",
       R"(registry.url: unknown parameter "foo" )" + std::string(kKnown)},
      {"postgresql://app@db/registry?password=" + pw,
       R"(registry.url: unknown parameter "password" )" + std::string(kKnown)},
      {"postgresql://app@db/registry?user=" + pw, R"(registry.url: unknown parameter "user" )" + std::string(kKnown)},
      {"postgresql://app:" + pw + "@db/registry?SSLMODE=require",
       R"(registry.url: unknown parameter "SSLMODE" )" + std::string(kKnown)},
      {"postgresql://app:" + pw + "@db/registry?", "registry.url: an empty parameter: write ?name=value&name=value"},
      {"postgresql://app:" + pw + "@db/registry?sslmode=require&",
       "registry.url: an empty parameter: write ?name=value&name=value"},
      {"postgresql://app:" + pw + "@db/registry?sslmode",
       R"(registry.url: parameter "sslmode" has no value (sslmode=value))"},
      {"postgresql://app:" + pw + "@db/registry?sslcert=",
       R"(registry.url: parameter "sslcert" has no value (sslcert=value))"},
      {"postgresql://app:" + pw + "@db/registry?sslmode=require&sslmode=disable",
       R"(registry.url: parameter "sslmode" is given twice)"},
      {"postgresql://app:" + pw + "@db/registry?sslmode=strict",
       R"(registry.url: sslmode "strict" is not one of disable, allow, prefer, require, verify-ca, verify-full)"},
      {"postgresql://app:" + pw + "@db/registry?sslmode=Require",
       R"(registry.url: sslmode "Require" is not one of disable, allow, prefer, require, verify-ca, verify-full)"},
      {"postgresql://app:" + pw + "@db/registry?connect_timeout=ten",
       R"(registry.url: connect_timeout "ten" is not a whole number of seconds)"},
      {"postgresql://app:" + pw + "@db/registry?connect_timeout=-5",
       R"(registry.url: connect_timeout "-5" is not a whole number of seconds)"},
      {"postgresql://app:" + pw + "@db/registry?application_name=a%zz",
       R"(registry.url: bad percent-encoding in the parameter "application_name" (a '%' itself is written %25; )"
       "%00 is not allowed)"},
  };
  for (const Refusal& refusal : refusals) {
    SCOPED_TRACE(refusal.url);
    const std::string message = refusalOf(refusal.url);
    EXPECT_EQ(message, refusal.message);
    EXPECT_EQ(message.find('\n'), std::string::npos);
    EXPECT_EQ(message.find(kPassword), std::string::npos);
    // Not its pieces either, where a refused URL splits it.
    EXPECT_EQ(message.find("9sQ"), std::string::npos);
  }
}

TEST(RegistryUrl, ThePasswordFileGivesThePassword) {
  TempDir folder;
  const std::string url = "postgresql://app@db/registry";
  EXPECT_EQ(accepted(url, passwordFile(folder, std::string(kPassword) + "\n", 0600)).connectionString,
            "host='db' port='5432' dbname='registry' user='app' password='Pw-9sQ'");
  // Without a newline at the end; and only one newline removed.
  EXPECT_EQ(accepted(url, passwordFile(folder, std::string(kPassword), 0600)).connectionString,
            "host='db' port='5432' dbname='registry' user='app' password='Pw-9sQ'");
  EXPECT_EQ(accepted(url, passwordFile(folder, "two\n\n", 0400)).connectionString,
            "host='db' port='5432' dbname='registry' user='app' password='two\n'");
  // Taken as it is: no percent-decoding, the keyword form's quoting.
  const PostgresqlRegistry quoted = accepted(url + "?sslmode=verify-full", passwordFile(folder, "it's\\%40x\n", 0600));
  EXPECT_EQ(quoted.connectionString,
            R"(host='db' port='5432' dbname='registry' user='app' password='it\'s\\%40x' sslmode='verify-full')");
  EXPECT_EQ(quoted.displayName, "postgresql://app@db:5432/registry");
}

TEST(RegistryUrl, ThePasswordFileIsRefusedNamingTheFileAndTheFix) {
  TempDir folder;
  const std::string url = "postgresql://app@db/registry";
  const std::string name = (folder / "registry-password").string();
  const std::string content = std::string(kPassword) + "\n";

  const std::vector<Refusal> refusals{
      {"0644", "registry.passwordFile: group or others may access " + name + " (mode 0644): run chmod 600 " + name},
      {"0640", "registry.passwordFile: group or others may access " + name + " (mode 0640): run chmod 600 " + name},
      {"0602", "registry.passwordFile: group or others may access " + name + " (mode 0602): run chmod 600 " + name},
  };
  for (const Refusal& refusal : refusals) {
    const mode_t mode = static_cast<mode_t>(std::stoul(refusal.url, nullptr, 8));
    const std::string message = refusalOf(url, passwordFile(folder, content, mode));
    EXPECT_EQ(message, refusal.message);
    EXPECT_EQ(message.find(kPassword), std::string::npos);
  }

  EXPECT_EQ(refusalOf(url, passwordFile(folder, "Pw 9sQ\n", 0600)),
            "registry.passwordFile: the password holds a space, which the PostgreSQL connector of this service"
            " cannot pass on: choose one without spaces");
  EXPECT_EQ(refusalOf(url, passwordFile(folder, "", 0600)),
            "registry.passwordFile: " + name + " is empty: write the password in it");
  EXPECT_EQ(refusalOf(url, passwordFile(folder, "\n", 0600)),
            "registry.passwordFile: " + name + " is empty: write the password in it");
  EXPECT_EQ(refusalOf(url, passwordFile(folder, std::string("Pw\0-9sQ", 7), 0600)),
            "registry.passwordFile: " + name + " holds a NUL byte, which no password can");

  const std::string missing = (folder / "no-such-file").string();
  EXPECT_EQ(refusalOf(url, missing), "registry.passwordFile: cannot read " + missing + ": No such file or directory");
  EXPECT_EQ(refusalOf(url, folder.path()),
            "registry.passwordFile: " + folder.path().string() + " is not a regular file");
}

TEST(RegistryUrl, APasswordInBothOrAFileWithoutAUrlIsRefused) {
  TempDir folder;
  const std::filesystem::path file = passwordFile(folder, std::string(kPassword) + "\n", 0600);
  const std::string both = refusalOf("postgresql://app:other@db/registry", file);
  EXPECT_EQ(both, "registry.url: a password in the URL and registry.passwordFile: remove the one in the URL");
  EXPECT_EQ(both.find("other"), std::string::npos);
  EXPECT_EQ(refusalOf("", file),
            "registry.passwordFile: set, but registry.url is empty (the registry is then SQLite in the data "
            "directory): set registry.url or clear registry.passwordFile");
}

// Every binary checks registry.url with this parser through the settings
// table; the caller's prefix names the source and the key.
TEST(RegistryUrl, TheSettingsTableChecksTheUrlWithTheSameWords) {
  const SettingRow* row = findSetting("registry.url");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->type, SettingType::RegistryUrl);
  EXPECT_NO_THROW(checkSettingValue(*row, ""));
  EXPECT_NO_THROW(checkSettingValue(*row, "postgresql://app:" + std::string(kPassword) + "@db/registry"));
  try {
    checkSettingValue(*row, "postgresql://app:" + std::string(kPassword) + "@db/registry?foo=1");
    ADD_FAILURE() << "no error";
  } catch (const SettingsError& error) {
    EXPECT_EQ(std::string(error.what()), R"(unknown parameter "foo" )" + std::string(kKnown));
  }
}

}  // namespace
}  // namespace codepayload::app
