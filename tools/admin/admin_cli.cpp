#include "tools/admin/admin_cli.h"

#include <openssl/crypto.h>
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "accounts/account_store.h"
#include "accounts/audit_log.h"
#include "accounts/password_hasher.h"
#include "accounts/password_policy.h"
#include "app/command_line.h"
#include "app/registry.h"
#include "app/registry_copy.h"
#include "app/sqlite_registry.h"
#include "app/version.h"
#include "auth/client_registry.h"
#include "common/json_escape.h"
#include "common/utc_time.h"
#include "db/file_modes.h"

namespace codepayload::admin {

namespace {

using auth::ClientRecord;
using auth::ClientRegistry;
using auth::ClientState;
using auth::Organization;
using auth::RegistryError;

constexpr std::string_view kUsage =
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

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Whether the command word `word` ("block|unblock|delete", "init") names `given`.
bool namesVerb(std::string_view word, std::string_view given) {
  while (!word.empty()) {
    const std::size_t bar = std::min(word.find('|'), word.size());
    if (word.substr(0, bar) == given) return true;
    word.remove_prefix(std::min(bar + 1, word.size()));
  }
  return false;
}

// What a usage error prints after its message: the lines of kUsage for the
// command given (its noun's, when the verb is missing or unknown), each as a
// usage line of its own, and where the rest is; all of kUsage when not even
// the noun is known.
std::string usageFor(std::span<const std::string_view> arguments) {
  std::vector<std::string_view> nounLines;
  std::vector<std::string_view> verbLines;
  for (std::string_view rest = kUsage; !rest.empty();) {
    const std::size_t end = std::min(rest.find('\n'), rest.size());
    const std::string_view line = rest.substr(0, end);
    rest.remove_prefix(std::min(end + 1, rest.size()));
    if (!line.starts_with("  ") || arguments.empty()) continue;
    const std::string_view command = line.substr(2);
    const std::size_t nounEnd = std::min(command.find(' '), command.size());
    if (command.substr(0, nounEnd) != arguments[0]) continue;
    nounLines.push_back(command);
    const std::string_view afterNoun = command.substr(std::min(nounEnd + 1, command.size()));
    const std::string_view verb = afterNoun.substr(0, std::min(afterNoun.find(' '), afterNoun.size()));
    if (arguments.size() >= 2 && namesVerb(verb, arguments[1])) verbLines.push_back(command);
  }
  const std::vector<std::string_view>& lines = verbLines.empty() ? nounLines : verbLines;
  if (lines.empty()) return std::string(kUsage);
  std::string usage;
  for (const std::string_view line : lines) usage.append("usage: codepayload-admin ").append(line).append("\n");
  return usage + "codepayload-admin --help lists every command.\n";
}

// A command refused before it reached the registry (a weak password).
struct Refusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string jsonString(std::string_view text) {
  std::string json;
  common::appendJsonString(json, text);
  return json;
}

std::string jsonStrings(const std::vector<std::string>& values) {
  std::string json = "[";
  for (std::size_t index = 0; index < values.size(); ++index) {
    if (index > 0) json.push_back(',');
    json += jsonString(values[index]);
  }
  json.push_back(']');
  return json;
}

std::string organizationJson(const Organization& organization) {
  return R"({"id":)" + jsonString(organization.id) + R"(,"name":)" + jsonString(organization.name) + R"(,"plan":)" +
         jsonString(auth::planName(organization.plan)) + R"(,"subscription":)" +
         jsonString(auth::subscriptionName(organization.subscription)) + R"(,"createdAt":)" +
         jsonString(common::utcSecondsText(organization.createdAt)) + "}";
}

std::string clientJson(const ClientRecord& client) {
  return R"({"clientId":)" + jsonString(client.id) + R"(,"organizationId":)" + jsonString(client.organizationId) +
         R"(,"name":)" + jsonString(client.name) + R"(,"scopes":)" + jsonStrings(client.scopes) + R"(,"state":)" +
         jsonString(auth::clientStateName(client.state)) + R"(,"createdAt":)" +
         jsonString(common::utcSecondsText(client.createdAt)) + "}";
}

// The arguments after "<noun> <verb>": positional values and --options.
class CommandArguments {
 public:
  // `options`: each allowed option and whether it may repeat; `flags`: the
  // allowed options that take no value.
  CommandArguments(std::span<const std::string_view> arguments, const std::map<std::string_view, bool>& options,
                   std::size_t positionalCount, std::string_view command,
                   const std::vector<std::string_view>& flags = {}) {
    std::vector<app::OptionSpec> specs;
    for (const auto& [option, repeatable] : options) {
      specs.push_back(app::OptionSpec{std::string(option.substr(2)), "", "VALUE", "", repeatable});
    }
    for (const std::string_view flag : flags)
      specs.push_back(app::OptionSpec{std::string(flag.substr(2)), "", "", "", false});
    const std::vector<std::string> texts(arguments.begin(), arguments.end());
    try {
      parsed_ = app::CommandLine(std::move(specs)).parse(texts);
    } catch (const app::CommandLineError& error) {
      switch (error.kind) {
        case app::CommandLineError::Kind::MissingValue: throw UsageError("option " + error.option + " needs a value");
        case app::CommandLineError::Kind::Repeated: throw UsageError("option " + error.option + " is given twice");
        case app::CommandLineError::Kind::UnexpectedValue:
          throw UsageError("option " + error.option + " takes no value");
        case app::CommandLineError::Kind::UnknownOption: break;
      }
      throw UsageError("'" + std::string(command) + "' has no option " + error.option);
    }
    const std::size_t given = parsed_.positional.size();
    if (given != positionalCount) {
      throw UsageError("'" + std::string(command) + "' takes " + std::to_string(positionalCount) +
                       (positionalCount == 1 ? " argument" : " arguments") + ", got " + std::to_string(given));
    }
  }

  std::string_view positional(std::size_t index) const { return parsed_.positional[index]; }

  std::string_view required(std::string_view option) const {
    const std::optional<std::string_view> found = first(option);
    if (!found) throw UsageError("option " + std::string(option) + " is required");
    return *found;
  }

  std::string_view optional(std::string_view option, std::string_view fallback) const {
    return first(option).value_or(fallback);
  }

  std::optional<std::string_view> optional(std::string_view option) const { return first(option); }

  std::vector<std::string> all(std::string_view option) const { return parsed_.values(option); }

  void requireFlag(std::string_view flag, std::string_view why) const {
    if (!parsed_.has(flag)) throw UsageError("option " + std::string(flag) + " is required (" + std::string(why) + ")");
  }

 private:
  std::optional<std::string_view> first(std::string_view option) const {
    for (const auto& [name, value] : parsed_.options) {
      if (name == option) return std::string_view(value);
    }
    return std::nullopt;
  }

  app::ParsedCommandLine parsed_;
};

auth::Plan planArgument(std::string_view text) {
  const std::optional<auth::Plan> plan = auth::parsePlan(text);
  if (!plan) {
    throw UsageError("unknown plan \"" + std::string(text) + "\"; use free, starter, pro or enterprise");
  }
  return *plan;
}

auth::Subscription subscriptionArgument(std::string_view text) {
  const std::optional<auth::Subscription> subscription = auth::parseSubscription(text);
  if (!subscription) throw UsageError("unknown subscription \"" + std::string(text) + "\"; use active or inactive");
  return *subscription;
}

// The registry's parts a command works with, opened only for a valid
// command. Opening creates the data dir, the pepper and the registry when
// absent: callers open an absent registry only for init (D-U10). The people
// and the audit log live beside the clients; every change of the client
// registry is recorded, as done by `audit`, in the change's own transaction
// (D-D8).
struct OpenRegistry {
  OpenRegistry(app::Registry& opened, const accounts::AuditContext& audit)
      : registry(opened.openAuditedClients([&audit] { return &audit; })),
        accounts(opened.openAccounts(auth::systemUnixSeconds)) {}

  std::unique_ptr<ClientRegistry> registry;
  std::unique_ptr<accounts::AccountStore> accounts;
};

// What a command works with: the registry (opened on first use), standard
// input, who runs it, and the change it attempts (recorded as refused or
// failed when the command throws).
struct AdminContext {
  std::function<OpenRegistry&()> open;
  std::istream& in;
  accounts::AuditContext audit;
  std::optional<accounts::AuditRecord> attempt;

  ClientRegistry& registry() { return *open().registry; }

  void attempting(std::string action, std::string_view target, std::string_view organizationId) {
    accounts::AuditRecord record;
    record.actor = audit.actor;
    record.action = std::move(action);
    record.target = target;
    record.organizationId = organizationId;
    record.address = audit.address;
    attempt = std::move(record);
  }
};

// "cli:<login name of the real user id>"; run as root through sudo, the
// invoking user sudo names is added: "cli:root (sudo by alice)" (D-D10).
std::string cliActor() {
  const uid_t uid = ::getuid();
  std::string name = "uid " + std::to_string(uid);
  struct passwd entry {};
  struct passwd* found = nullptr;
  std::vector<char> buffer(16384);
  if (::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found != nullptr) name = found->pw_name;
  std::string actor = "cli:" + name;
  if (const char* sudoUser = std::getenv("SUDO_USER"); uid == 0 && sudoUser != nullptr && *sudoUser != '\0') {
    actor += " (sudo by " + std::string(sudoUser).substr(0, 64) + ")";
  }
  return actor;
}

accounts::Role roleArgument(std::string_view text) {
  const std::optional<accounts::Role> role = accounts::parseRole(text);
  if (!role) throw UsageError("unknown role \"" + std::string(text) + "\"; use owner, developer or viewer");
  return *role;
}

// The Argon2id hash of the password on the first line of `in`; refuses a
// missing or weak password. The password is wiped from memory after hashing.
std::string newPasswordHash(std::istream& in) {
  std::string password;
  if (!std::getline(in, password)) throw Refusal("no password on standard input (--password-stdin reads one line)");
  const std::optional<accounts::PasswordProblem> problem = accounts::passwordProblem(password);
  if (problem) {
    OPENSSL_cleanse(password.data(), password.size());
    throw Refusal(problem->message);
  }
  std::string hash = accounts::PasswordHasher().hash(password);
  OPENSSL_cleanse(password.data(), password.size());
  return hash;
}

std::string userJson(const accounts::UserRecord& user) {
  return R"({"id":)" + jsonString(user.id) + R"(,"organizationId":)" + jsonString(user.organizationId) +
         R"(,"email":)" + jsonString(user.email) + R"(,"role":)" + jsonString(accounts::roleName(user.role)) +
         R"(,"createdAt":)" + jsonString(common::utcSecondsText(user.createdAt)) + "}";
}

// {"id":...,"email":... of a user, without its closing brace.
std::string userReference(const accounts::UserRecord& user) {
  return R"({"id":)" + jsonString(user.id) + R"(,"email":)" + jsonString(user.email);
}

// How many characters (code points) the UTF-8 text `text` has.
std::size_t characterCount(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char byte) { return (static_cast<unsigned char>(byte) & 0xC0) != 0x80; }));
}

// `user list`'s table: a heading, then one line per user; every column but
// the last is padded with spaces to its widest value (counted in characters),
// and two spaces part the columns. Without the last line's newline.
std::string userTable(const std::vector<accounts::UserRecord>& users) {
  std::vector<std::array<std::string, 4>> rows = {{"EMAIL", "ORGANIZATION", "ROLE", "2FA"}};
  for (const accounts::UserRecord& user : users) {
    rows.push_back(
        {user.email, user.organizationId, std::string(accounts::roleName(user.role)), user.totpEnabled ? "on" : "off"});
  }
  std::array<std::size_t, 3> widths{};
  for (const auto& row : rows) {
    for (std::size_t column = 0; column < widths.size(); ++column) {
      widths[column] = std::max(widths[column], characterCount(row[column]));
    }
  }
  std::string table;
  for (const auto& row : rows) {
    if (!table.empty()) table.push_back('\n');
    for (std::size_t column = 0; column < widths.size(); ++column) {
      table.append(row[column]).append(widths[column] - characterCount(row[column]) + 2, ' ');
    }
    table.append(row.back());
  }
  return table;
}

std::string operatorJson(const accounts::OperatorRecord& created) {
  return R"({"id":)" + jsonString(created.id) + R"(,"email":)" + jsonString(created.email) + R"(,"createdAt":)" +
         jsonString(common::utcSecondsText(created.createdAt)) + "}";
}

Organization existingOrganization(ClientRegistry& registry, std::string_view id) {
  std::optional<Organization> organization = registry.findOrganization(id);
  if (!organization) {
    throw RegistryError(RegistryError::Kind::UnknownOrganization,
                        "no organization with id \"" + std::string(id) + "\"");
  }
  return *organization;
}

// The user `email` names, for the change `action`: attempted first without a
// target (an unknown email is recorded as refused), then with the user's.
accounts::UserRecord userToChange(AdminContext& context, std::string action, std::string_view email) {
  OpenRegistry& open = context.open();
  context.attempting(action, "", "");
  std::optional<accounts::UserRecord> user = open.accounts->findUserByEmail(email);
  if (!user) {
    throw accounts::AccountError(accounts::AccountError::Kind::UnknownAccount,
                                 "no user with email \"" + std::string(email) + "\"");
  }
  context.attempting(std::move(action), user->id, user->organizationId);
  return std::move(*user);
}

using Command = std::function<std::string(std::span<const std::string_view>, AdminContext&)>;

const std::map<std::pair<std::string_view, std::string_view>, Command>& commands() {
  static const std::map<std::pair<std::string_view, std::string_view>, Command> table = {
      {{"org", "create"},
       [](auto arguments, AdminContext& context) {
         const CommandArguments parsed(arguments, {{"--name", false}, {"--plan", false}}, 0, "org create");
         const std::string_view name = parsed.required("--name");
         const auth::Plan plan = planArgument(parsed.required("--plan"));
         context.attempting("org.create", "", "");
         return R"({"id":)" + jsonString(context.registry().createOrganization(name, plan).id) + "}";
       }},
      {{"org", "set-plan"},
       [](auto arguments, AdminContext& context) {
         const CommandArguments parsed(arguments, {}, 2, "org set-plan");
         const auth::Plan plan = planArgument(parsed.positional(1));
         context.attempting("org.set-plan", parsed.positional(0), parsed.positional(0));
         context.registry().setPlan(parsed.positional(0), plan);
         return organizationJson(existingOrganization(context.registry(), parsed.positional(0)));
       }},
      {{"org", "set-subscription"},
       [](auto arguments, AdminContext& context) {
         const CommandArguments parsed(arguments, {}, 2, "org set-subscription");
         const auth::Subscription subscription = subscriptionArgument(parsed.positional(1));
         context.attempting("org.set-subscription", parsed.positional(0), parsed.positional(0));
         context.registry().setSubscription(parsed.positional(0), subscription);
         return organizationJson(existingOrganization(context.registry(), parsed.positional(0)));
       }},
      {{"org", "list"},
       [](auto arguments, AdminContext& context) {
         const CommandArguments parsed(arguments, {}, 0, "org list");
         std::string json = "[";
         for (const Organization& organization : context.registry().listOrganizations()) {
           if (json.size() > 1) json.push_back(',');
           json += organizationJson(organization);
         }
         return json + "]";
       }},
      {{"client", "create"},
       [](auto arguments, AdminContext& context) {
         const CommandArguments parsed(arguments, {{"--org", false}, {"--name", false}, {"--scope", true}}, 0,
                                       "client create");
         const std::string_view organization = parsed.required("--org");
         context.attempting("client.create", "", organization);
         const auth::CreatedClient created = context.registry().createClient(
             organization, parsed.optional("--name", ""), parsed.all("--scope"), context.audit.actor);
         return R"({"clientId":)" + jsonString(created.client.id) + R"(,"clientSecret":)" + jsonString(created.secret) +
                R"(,"scopes":)" + jsonStrings(created.client.scopes) + "}";
       }},
      {{"client", "list"},
       [](auto arguments, AdminContext& context) {
         const CommandArguments parsed(arguments, {{"--org", false}}, 0, "client list");
         const std::string_view organization = parsed.required("--org");
         std::string json = "[";
         for (const ClientRecord& client : context.registry().listClients(organization)) {
           if (json.size() > 1) json.push_back(',');
           json += clientJson(client);
         }
         return json + "]";
       }},
      {{"user", "create"},
       [](auto arguments, AdminContext& context) {
         const CommandArguments parsed(arguments, {{"--org", false}, {"--email", false}, {"--role", false}}, 0,
                                       "user create", {"--password-stdin"});
         const std::string_view organization = parsed.required("--org");
         const std::string_view email = parsed.required("--email");
         const accounts::Role role = roleArgument(parsed.required("--role"));
         parsed.requireFlag("--password-stdin", "the password is read from standard input");
         OpenRegistry& open = context.open();
         context.attempting("user.create", "", organization);
         const std::string hash = newPasswordHash(context.in);
         return userJson(open.accounts->createUser(organization, email, role, hash, context.audit));
       }},
      {{"user", "list"},
       [](auto arguments, AdminContext& context) {
         const CommandArguments parsed(arguments, {{"--org", false}}, 0, "user list");
         const std::optional<std::string_view> organization = parsed.optional("--org");
         OpenRegistry& open = context.open();
         if (organization) existingOrganization(*open.registry, *organization);
         return userTable(open.accounts->listUserAccounts(organization));
       }},
      {{"user", "set-role"},
       [](auto arguments, AdminContext& context) {
         const CommandArguments parsed(arguments, {}, 2, "user set-role");
         const accounts::Role role = roleArgument(parsed.positional(1));
         accounts::UserRecord user = userToChange(context, "user.set-role", parsed.positional(0));
         context.open().accounts->setRole(user.id, role, context.audit);
         user.role = role;
         return userJson(user);
       }},
      {{"user", "reset-password"},
       [](auto arguments, AdminContext& context) {
         const CommandArguments parsed(arguments, {}, 1, "user reset-password", {"--password-stdin"});
         parsed.requireFlag("--password-stdin", "the new password is read from standard input");
         const accounts::UserRecord user = userToChange(context, "user.reset-password", parsed.positional(0));
         const std::string hash = newPasswordHash(context.in);
         const std::size_t ended = context.open().accounts->resetPassword(user.id, hash, context.audit);
         return userReference(user) + R"(,"sessionsEnded":)" + std::to_string(ended) + "}";
       }},
      {{"user", "delete"},
       [](auto arguments, AdminContext& context) {
         const CommandArguments parsed(arguments, {}, 1, "user delete");
         const accounts::UserRecord user = userToChange(context, "user.delete", parsed.positional(0));
         context.open().accounts->deleteUser(user.id, context.audit);
         return userReference(user) + R"(,"deleted":true})";
       }},
      {{"operator", "create"},
       [](auto arguments, AdminContext& context) {
         const CommandArguments parsed(arguments, {{"--email", false}}, 0, "operator create", {"--password-stdin"});
         const std::string_view email = parsed.required("--email");
         parsed.requireFlag("--password-stdin", "the password is read from standard input");
         OpenRegistry& open = context.open();
         context.attempting("operator.create", "", "");
         const std::string hash = newPasswordHash(context.in);
         return operatorJson(open.accounts->createOperator(email, hash, context.audit));
       }},
  };
  return table;
}

std::string changeClientState(std::string_view verb, std::span<const std::string_view> arguments,
                              AdminContext& context) {
  const ClientState state = verb == "block"     ? ClientState::Blocked
                            : verb == "unblock" ? ClientState::Active
                                                : ClientState::Deleted;
  const CommandArguments parsed(arguments, {}, 1, "client " + std::string(verb));
  context.attempting("client." + std::string(verb), parsed.positional(0), "");
  context.registry().setClientState(parsed.positional(0), state);
  return R"({"clientId":)" + jsonString(parsed.positional(0)) + R"(,"state":)" +
         jsonString(auth::clientStateName(state)) + "}";
}

}  // namespace

namespace {

// A refusal of what was asked (a weak password, an unknown id, a taken
// email, a plan without API clients), as opposed to a fault (the database,
// the hashing, anything else).
bool isRefusal(const std::exception& error) {
  if (dynamic_cast<const Refusal*>(&error) != nullptr) return true;
  if (const auto* registry = dynamic_cast<const RegistryError*>(&error)) {
    return registry->kind() != RegistryError::Kind::Storage;
  }
  if (const auto* account = dynamic_cast<const accounts::AccountError*>(&error)) {
    return account->kind() != accounts::AccountError::Kind::Storage;
  }
  return false;
}

// Records the change `context` attempted as refused or failed with `error`'s
// message, in a transaction of its own; a record that cannot be written is
// reported on `err`.
void recordUnsuccessfulAttempt(AdminContext& context, OpenRegistry& open, const std::exception& error,
                               std::ostream& err) {
  accounts::AuditRecord record = *context.attempt;
  record.at = auth::systemUnixSeconds();
  record.result = isRefusal(error) ? accounts::AuditResult::Refused : accounts::AuditResult::Failed;
  record.detail = std::string(error.what()).substr(0, 1000);
  try {
    if (record.organizationId.empty() && auth::isWellFormedClientId(record.target)) {
      if (const std::optional<ClientRecord> client = open.registry->findClient(record.target)) {
        record.organizationId = client->organizationId;
      }
    }
    open.accounts->appendAudit(record);
  } catch (const std::exception& auditError) {
    err << "codepayload-admin: the audit record of this command could not be written: " << auditError.what() << '\n';
  }
}

// How long after a new key starts to sign the keys it replaces retire: a key
// that signed until then (each instance reads the keys every second) has its
// last token valid for token.ttl, accepted for token.leewaySeconds more, and
// each instance stops publishing it within a second of its retirement.
std::int64_t retirementDelay(const AdminSettings& settings) {
  return settings.tokenLifetimeSeconds + settings.tokenLeewaySeconds + 2;
}

// keys rotate [--algorithm ES256|RS256] [--signs-in SECONDS] (app/registry.h).
std::string rotateKeys(std::span<const std::string_view> arguments, app::Registry& registry,
                       const AdminSettings& settings) {
  const CommandArguments parsed(arguments, {{"--algorithm", false}, {"--signs-in", false}}, 0, "keys rotate");
  const std::string_view algorithmName = parsed.optional("--algorithm", "ES256");
  std::optional<auth::SigningAlgorithm> algorithm;
  for (const auth::SigningAlgorithm known : {auth::SigningAlgorithm::ES256, auth::SigningAlgorithm::RS256}) {
    if (auth::signingAlgorithmName(known) == algorithmName) algorithm = known;
  }
  if (!algorithm) throw UsageError("--algorithm is ES256 or RS256, got '" + std::string(algorithmName) + "'");
  const std::string signsIn(parsed.optional("--signs-in", "60"));
  std::int64_t seconds = 0;
  const auto [end, error] = std::from_chars(signsIn.data(), signsIn.data() + signsIn.size(), seconds);
  // Two seconds at least: every instance must read the new key (each reads the
  // keys every second) before any instance signs with it.
  if (error != std::errc() || end != signsIn.data() + signsIn.size() || seconds < 2 || seconds > 86400) {
    throw UsageError("--signs-in is a whole number of seconds from 2 to 86400, got '" + signsIn + "'");
  }
  const app::KeyRotation rotation = registry.rotateSigningKeys(*algorithm, seconds, retirementDelay(settings));
  std::string json = R"({"kid":)" + jsonString(rotation.kid) + R"(,"algorithm":)" + jsonString(rotation.algorithm) +
                     R"(,"publishedAt":)" + jsonString(common::utcSecondsText(rotation.publishedAt)) +
                     R"(,"signsFrom":)" + jsonString(common::utcSecondsText(rotation.signsFrom)) + R"(,"retiring":[)";
  for (std::size_t index = 0; index < rotation.retiring.size(); ++index) {
    json += std::string(index == 0 ? "" : ",") + R"({"kid":)" + jsonString(rotation.retiring[index].first) +
            R"(,"retiredAt":)" + jsonString(common::utcSecondsText(rotation.retiring[index].second)) + "}";
  }
  return json + "]}";
}

// registry copy --to URL [--password-file FILE]: the SQLite registry of the
// data dir into an empty PostgreSQL database (app/registry_copy.h).
std::string copyIntoPostgresql(std::span<const std::string_view> arguments, const app::RegistryLocation& from) {
  const CommandArguments parsed(arguments, {{"--to", false}, {"--password-file", false}}, 0, "registry copy");
  if (from.postgresql) {
    throw UsageError("'registry copy' copies the SQLite registry of the data dir, but registry.url names " +
                     from.postgresql->displayName + " already");
  }
  app::RegistryLocation to = from;
  try {
    to.postgresql = app::readRegistryUrl(parsed.required("--to"), std::string(parsed.optional("--password-file", "")));
  } catch (const app::RegistryUrlError& error) {
    throw UsageError("--to: " + error.reason());
  }
  if (!to.postgresql) throw UsageError("--to needs a PostgreSQL URL (postgresql://user:password@host:port/dbname)");
  const app::RegistryCopyReport report = app::copyRegistry(from, to);
  std::string json = R"({"from":)" + jsonString((from.dataDir / app::kRegistryDatabaseFile).string()) + R"(,"to":)" +
                     jsonString(to.postgresql->displayName) + R"(,"tables":{)";
  for (std::size_t index = 0; index < report.tables.size(); ++index) {
    json += (index == 0 ? "" : ",") + jsonString(report.tables[index].first) + ":" +
            std::to_string(report.tables[index].second);
  }
  return json + R"(},"signingKeys":)" + std::to_string(report.signingKeys) + "}";
}

}  // namespace

int runAdmin(std::span<const std::string_view> arguments, const AdminSettings& settings, std::istream& in,
             std::ostream& out, std::ostream& err) {
  const app::RegistryLocation& location = settings.registry;
  if (arguments.size() == 1 && (arguments[0] == "--help" || arguments[0] == "-h" || arguments[0] == "help")) {
    out << kUsage;
    return kExitOk;
  }
  if (arguments.size() == 1 && arguments[0] == "--version") {
    out << app::versionText("codepayload-admin");
    return kExitOk;
  }
  std::unique_ptr<app::Registry> registry;
  try {
    registry = app::openRegistry(location);
  } catch (const app::RegistryConfigurationError& error) {
    err << "codepayload-admin: " << error.what() << '\n';
    return app::kExitConfig;
  }
  const accounts::AuditContext audit{cliActor(), std::string(accounts::kLocalAddress)};
  std::unique_ptr<OpenRegistry> open;
  // Opens the registry; one that does not exist is created only when `create`.
  const auto openRegistry = [&](bool create) -> OpenRegistry& {
    if (!open) {
      if (!create && !registry->exists()) {
        throw std::runtime_error("no registry at " + registry->name() +
                                 "; run 'codepayload-admin init' (or start codepayload-server once) to create one "
                                 "there, or set the data dir (data.dir of codepayload.properties or "
                                 "CODEPAYLOAD_DATA_DIR) to the server's");
      }
      err << "codepayload-admin: registry " << registry->name() << '\n';
      open = std::make_unique<OpenRegistry>(*registry, audit);
      const std::optional<std::string> warning =
          location.postgresql ? std::nullopt : filemodes::sharedDirectoryWarning(location.dataDir);
      if (warning) {
        err << "codepayload-admin: " << *warning << '\n';
      }
    }
    return *open;
  };
  AdminContext context{[&]() -> OpenRegistry& { return openRegistry(false); }, in, audit, std::nullopt};
  try {
    if (!arguments.empty() && arguments[0] == "init") {
      if (arguments.size() > 1)
        throw UsageError("'init' takes 0 arguments, got " + std::to_string(arguments.size() - 1));
      const bool existed = registry->exists();
      openRegistry(true);
      out << R"({"registry":)" << jsonString(registry->name()) << R"(,"created":)" << (existed ? "false" : "true")
          << "}\n";
      return kExitOk;
    }
    if (arguments.size() >= 2 && arguments[0] == "keys" && arguments[1] == "rotate") {
      out << rotateKeys(arguments.subspan(2), *registry, settings) << '\n';
      return kExitOk;
    }
    if (arguments.size() >= 2 && arguments[0] == "registry" && arguments[1] == "copy") {
      out << copyIntoPostgresql(arguments.subspan(2), location) << '\n';
      return kExitOk;
    }
    if (arguments.size() < 2) throw UsageError("a command needs a noun and a verb (e.g. 'org list')");
    const std::string_view noun = arguments[0];
    const std::string_view verb = arguments[1];
    const std::span<const std::string_view> rest = arguments.subspan(2);
    std::string json;
    if (noun == "client" && (verb == "block" || verb == "unblock" || verb == "delete")) {
      // Parse before opening anything, so a usage error creates no files.
      const CommandArguments check(rest, {}, 1, "client " + std::string(verb));
      json = changeClientState(verb, rest, context);
    } else {
      const auto command = commands().find({noun, verb});
      if (command == commands().end()) {
        throw UsageError("unknown command '" + std::string(noun) + " " + std::string(verb) + "'");
      }
      json = command->second(rest, context);
    }
    out << json << '\n';
    return kExitOk;
  } catch (const UsageError& error) {
    err << "codepayload-admin: " << error.what() << '\n' << usageFor(arguments);
    return kExitUsage;
  } catch (const app::RegistryConfigurationError& error) {
    err << "codepayload-admin: " << error.what() << '\n';
    return app::kExitConfig;
  } catch (const std::exception& error) {
    err << "codepayload-admin: " << error.what() << '\n';
    if (open && context.attempt) recordUnsuccessfulAttempt(context, *open, error, err);
    return kExitFailure;
  }
}

}  // namespace codepayload::admin
