// The request-level error codes (the `code` of an error envelope) the service
// sends, in one place. A published code is a contract with every caller that
// matches on it: it is never renamed or removed, only added.
// tests/common/error_codes_test.cpp pins both lists, checks the API's against
// the ErrorEnvelope of docs/openapi.json, and fails when server/, auth/ or
// app/ spell a code as a literal instead of naming it here. The per-item codes
// of the payload engine are engine/validation_codes.h.
#pragma once

#include <array>
#include <string_view>

namespace codepayload::error_code {

// The API's (/codes, /oauth/token's bearer side, the HTTP layer, every route
// but the dashboard's), in the order of docs/openapi.json.
inline constexpr char kInvalidJson[] = "InvalidJson";
inline constexpr char kMissingField[] = "MissingField";
inline constexpr char kWrongType[] = "WrongType";
inline constexpr char kInvalidFraming[] = "InvalidFraming";
inline constexpr char kIncompleteBody[] = "IncompleteBody";
inline constexpr char kInvalidRequestLine[] = "InvalidRequestLine";
inline constexpr char kInvalidHeader[] = "InvalidHeader";
inline constexpr char kUnauthorized[] = "Unauthorized";
inline constexpr char kForbidden[] = "Forbidden";
inline constexpr char kNotFound[] = "NotFound";
inline constexpr char kMethodNotAllowed[] = "MethodNotAllowed";
inline constexpr char kNotAcceptable[] = "NotAcceptable";
inline constexpr char kLengthRequired[] = "LengthRequired";
inline constexpr char kBodyTooLarge[] = "BodyTooLarge";
inline constexpr char kTooManyItems[] = "TooManyItems";
inline constexpr char kUriTooLong[] = "UriTooLong";
inline constexpr char kUnsupportedMediaType[] = "UnsupportedMediaType";
inline constexpr char kExpectationFailed[] = "ExpectationFailed";
inline constexpr char kTooManyRequests[] = "TooManyRequests";
inline constexpr char kHeaderTooLarge[] = "HeaderTooLarge";
inline constexpr char kServerError[] = "ServerError";
inline constexpr char kNotImplemented[] = "NotImplemented";
inline constexpr char kHttpVersionNotSupported[] = "HttpVersionNotSupported";
inline constexpr char kServiceUnavailable[] = "ServiceUnavailable";

inline constexpr std::array<std::string_view, 24> kApiCodes = {
    kInvalidJson,     kMissingField,   kWrongType,    kInvalidFraming, kIncompleteBody,          kInvalidRequestLine,
    kInvalidHeader,   kUnauthorized,   kForbidden,    kNotFound,       kMethodNotAllowed,        kNotAcceptable,
    kLengthRequired,  kBodyTooLarge,   kTooManyItems, kUriTooLong,     kUnsupportedMediaType,    kExpectationFailed,
    kTooManyRequests, kHeaderTooLarge, kServerError,  kNotImplemented, kHttpVersionNotSupported, kServiceUnavailable};

// The dashboard's own, beside those of the API it shares (NotFound,
// Forbidden, BodyTooLarge, ...). Its field errors are
// engine/validation_codes.h's kPrefix followed by the field's name.
inline constexpr char kBadRequest[] = "BadRequest";
inline constexpr char kConflict[] = "Conflict";
inline constexpr char kPlanExcludesClients[] = "PlanExcludesClients";
inline constexpr char kSecondFactorNeeded[] = "SecondFactorNeeded";
inline constexpr char kSignInRefused[] = "SignInRefused";
inline constexpr char kTooManyAttempts[] = "TooManyAttempts";
inline constexpr char kTotpRequired[] = "TotpRequired";
inline constexpr char kUnauthenticated[] = "Unauthenticated";

inline constexpr std::array<std::string_view, 8> kDashboardCodes = {
    kBadRequest,    kConflict,        kPlanExcludesClients, kSecondFactorNeeded,
    kSignInRefused, kTooManyAttempts, kTotpRequired,        kUnauthenticated};

}  // namespace codepayload::error_code
