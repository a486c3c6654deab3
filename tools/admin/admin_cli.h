// codepayload-admin: manage organizations, API clients and people's accounts in the registry the
// server uses (<data dir>/registry.db). Every command but `user list` prints
// one JSON value on stdout, and first names the registry it opened in one line
// on stderr ("codepayload-admin: registry /abs/path/registry.db"). Only `init` creates a
// registry (and the data dir and pepper) that does not exist yet; any other
// command on a data dir without one fails (exit 1) and creates nothing
// (docs/decisions.md D-U10). The server creates its own on its first start.
//
//   init                                                        {"registry":PATH,"created":true|false}
//   org create --name NAME --plan free|starter|pro|enterprise   {"id":...}
//   org set-plan ORG PLAN                                       the organization
//   org set-subscription ORG active|inactive                    the organization
//   org list                                                    [organization...]
//   client create --org ORG [--name NAME] [--scope SCOPE]...    {"clientId","clientSecret","scopes"}
//   client list --org ORG                                       [client...] (never secrets)
//   client block|unblock|delete CLIENT_ID                       {"clientId","state"}
//   user create --org ORG --email EMAIL --role owner|developer|viewer --password-stdin
//                                                               {"id","organizationId","email","role","createdAt"}
//   user list [--org ORG]                                       a table (below)
//   user set-role EMAIL owner|developer|viewer                  {"id","organizationId","email","role","createdAt"}
//   user reset-password EMAIL --password-stdin                  {"id","email","sessionsEnded":N}
//   user delete EMAIL                                           {"id","email","deleted":true}
//     EMAIL names a user as sign-in does (ASCII case ignored); neither set-role
//     nor delete leaves an organization without an owner; reset-password and
//     delete end the user's sessions (docs/decisions.md D-Q20)
//   operator create --email EMAIL --password-stdin              {"id","email","createdAt"}
//   keys rotate [--algorithm ES256|RS256] [--signs-in SECONDS]
//                                                               {"kid","algorithm","publishedAt","signsFrom","retiring":[{"kid","retiredAt"}...]}
//     a new token-signing key for every instance of a PostgreSQL registry: published at once,
//     signing after --signs-in seconds (default 60, at least 2); the keys in force retire
//     token.ttl + token.leewaySeconds + 2 s after it starts to sign (docs/scaling.md)
//   registry copy --to postgresql://USER[:PASSWORD]@HOST[:PORT]/DB [--password-file FILE]
//                                                               {"from","to","tables":{TABLE:ROWS...},"signingKeys"}
//     the SQLite registry of the data dir, its pepper and signing keys into an empty PostgreSQL
//     database, sealed under secrets.keyEncryptionKeyFile (app/registry_copy.h); exit 78 when
//     the target cannot be used (not empty, unreachable, no key file)
//
// --password-stdin reads the password from the first line of standard input
// (without its newline); a password the policy refuses
// (accounts/password_policy.h) fails the command (exit 1) with the policy's
// sentence. Neither the password nor its hash is ever printed.
//
// Every change (org create/set-plan/set-subscription, client
// create/block/unblock/delete, user create/set-role/reset-password/delete and
// operator create) appends an audit record (accounts/audit_log.h) in the
// change's own transaction, with actor
// "cli:<login name>" ("cli:root (sudo by NAME)" under sudo) and address
// "local"; a change refused or failed once the registry is open is recorded
// as "refused" or "failed" with the error's message (docs/decisions.md D-D10).
//
// An organization prints as {"id","name","plan","subscription","createdAt"},
// a client as {"clientId","organizationId","name","scopes","state","createdAt"}.
// `user list` prints a heading line of the columns EMAIL, ORGANIZATION (its id),
// ROLE and 2FA ("on" or "off"), then one line per user (never a user
// placeholder), by organization id, then email ignoring ASCII case; every
// column but the last is padded with spaces to its widest value, heading
// included (counted in characters), and two spaces part the columns.
// `--help` prints the usage, `--version` the version (app/version.h), both on
// stdout with exit status 0. The data dir is the one every binary uses
// (app/settings.h: data.dir of codepayload.properties, CODEPAYLOAD_DATA_DIR).
// createdAt is UTC ISO 8601. Errors go to stderr as one line
// "codepayload-admin: <cause>"; exit status 1 for a refused or failed
// command, 2 for a usage error. The files it writes are 0600; when group or
// others can enter the data directory, one warning line on stderr says so
// (and how to fix it) once the registry is opened.
#pragma once

#include <filesystem>
#include <istream>
#include <ostream>
#include <span>
#include <string_view>

#include "app/registry.h"

namespace codepayload::admin {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// `arguments` without the program name; `registry` where the registry is
// (app/registry.h); `in` is standard input (--password-stdin). A registry
// that cannot be used as configured exits with app::kExitConfig.
struct AdminSettings {
  app::RegistryLocation registry;
  // token.ttl and token.leewaySeconds: how long a retired key's tokens live.
  std::int64_t tokenLifetimeSeconds = 3600;
  std::int64_t tokenLeewaySeconds = 30;
};
int runAdmin(std::span<const std::string_view> arguments, const AdminSettings& settings, std::istream& in,
             std::ostream& out, std::ostream& err);

}  // namespace codepayload::admin
