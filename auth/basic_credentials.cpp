#include "auth/basic_credentials.h"

#include "auth/base64.h"
#include "auth/form_urlencoded.h"
#include "common/ascii.h"

namespace codepayload::auth {

std::string_view basicCredentialsErrorName(BasicCredentialsError error) {
  switch (error) {
    case BasicCredentialsError::Ok: return "ok";
    case BasicCredentialsError::Missing: return "missing";
    case BasicCredentialsError::MultipleHeaders: return "multipleHeaders";
    case BasicCredentialsError::NotBasic: return "notBasic";
    case BasicCredentialsError::MissingToken: return "missingToken";
    case BasicCredentialsError::BadBase64: return "badBase64";
    case BasicCredentialsError::NoColon: return "noColon";
    case BasicCredentialsError::BadEscape: return "badEscape";
    case BasicCredentialsError::EmptyClientId: return "emptyClientId";
    case BasicCredentialsError::EmptyClientSecret: return "emptyClientSecret";
    case BasicCredentialsError::ClientIdTooLong: return "clientIdTooLong";
    case BasicCredentialsError::ClientSecretTooLong: return "clientSecretTooLong";
  }
  return "unknown";
}

BasicCredentialsError parseBasicCredentials(std::span<const std::string_view> authorizationValues,
                                            BasicCredentials& credentials) {
  if (authorizationValues.empty()) return BasicCredentialsError::Missing;
  if (authorizationValues.size() > 1) return BasicCredentialsError::MultipleHeaders;

  const std::string_view value = common::trimSpaceAndTab(authorizationValues.front());
  const std::size_t schemeEnd = value.find(' ');
  const std::string_view scheme = value.substr(0, schemeEnd);
  if (!common::equalsIgnoringAsciiCase(scheme, "Basic")) return BasicCredentialsError::NotBasic;
  if (schemeEnd == std::string_view::npos) return BasicCredentialsError::MissingToken;
  std::string_view token = value.substr(schemeEnd);
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  if (token.empty()) return BasicCredentialsError::MissingToken;

  std::string decoded;
  if (!decodeBase64Strict(token, decoded)) return BasicCredentialsError::BadBase64;
  const std::size_t colon = decoded.find(':');
  if (colon == std::string::npos) return BasicCredentialsError::NoColon;

  BasicCredentials parsed;
  if (!decodeFormComponent(std::string_view(decoded).substr(0, colon), parsed.clientId) ||
      !decodeFormComponent(std::string_view(decoded).substr(colon + 1), parsed.clientSecret)) {
    return BasicCredentialsError::BadEscape;
  }
  if (parsed.clientId.empty()) return BasicCredentialsError::EmptyClientId;
  if (parsed.clientSecret.empty()) return BasicCredentialsError::EmptyClientSecret;
  if (parsed.clientId.size() > kMaxClientIdLength) return BasicCredentialsError::ClientIdTooLong;
  if (parsed.clientSecret.size() > kMaxClientSecretLength) return BasicCredentialsError::ClientSecretTooLong;
  credentials = std::move(parsed);
  return BasicCredentialsError::Ok;
}

}  // namespace codepayload::auth
