// The endpoints under /dashboard/data/, one function each, grouped by the
// file that defines them; dashboard_handler.cpp's table maps each method and
// path to one of them after checking who asks. Thin: each parses the call,
// asks the registry, the accounts or the engine, and answers (or throws a
// Refusal).
#pragma once

#include "auth/client_registry.h"
#include "server/dashboard/dashboard_call.h"

namespace codepayload::server::dashboard {

// session_endpoints.cpp
void signIn(Call& call);
// The sign-in page's own form, posted without JavaScript
// (application/x-www-form-urlencoded `body`): a redirect home, or the page
// again with what was refused.
void signInWithForm(Call& call, std::string_view body);
void signOut(Call& call);
void signOutEverywhere(Call& call);
void session(Call& call);

// client_endpoints.cpp
void listClients(Call& call);
void createClient(Call& call);
void replaceClient(Call& call);
void setClientState(Call& call, auth::ClientState state);
void deleteClient(Call& call);

// organization_endpoints.cpp
void organization(Call& call, int status = 200);
// What adding a user to an organization whose email has an account elsewhere
// in the installation does: an owner does not learn it (a user placeholder is
// kept, as AccountStore::createUserWithoutDisclosure says); an operator, who
// sees every organization, is refused (409, the email taken).
enum class Disclosure { Placeholder, EmailTaken };
// A new user of `organizationId` with `role` from the body's "email" and
// "password" (the password policy checked, the password wiped once hashed),
// answered 201 with the user; audited as "user.create", refusals too.
void addUser(Call& call, std::string_view organizationId, Role role, Disclosure disclosure);
void createUser(Call& call);
void deleteUser(Call& call);
void resetUserPassword(Call& call);
void requireTotp(Call& call);

// audit_endpoints.cpp
void audit(Call& call);
// The same records as CSV to download (RFC 4180, UTF-8, a header row), the
// newest 10,000 that match the filters at most.
void auditCsv(Call& call);

// operator_endpoints.cpp
void listOrganizations(Call& call);
void createOrganization(Call& call);
void setOrganizationPlan(Call& call);
void setOrganizationSubscription(Call& call);
void addOrganizationOwner(Call& call);

// account_endpoints.cpp
void changePassword(Call& call);
void completePasswordReset(Call& call);
void totpState(Call& call);
void startTotp(Call& call);
void confirmTotp(Call& call);
void replaceRecoveryCodes(Call& call);
void disableTotp(Call& call);

// usage_endpoints.cpp
void usage(Call& call);

// try_it_endpoints.cpp
void tryItGenerate(Call& call);
void tryItParse(Call& call);

}  // namespace codepayload::server::dashboard
