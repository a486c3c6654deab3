// Structural comparison of two JSON documents as Poco parses them: objects by
// their set of keys and each member, arrays element by element in order,
// strings, numbers, booleans and null exactly.
#pragma once

#include <Poco/Dynamic/Var.h>

#include <string>

namespace codepayload::cases {

// Empty when `actual` equals `expected`; otherwise where and how they first
// differ, e.g. "failures.0.errors.1.args.3: expected \"13\", got \"12\"".
std::string firstDifference(const Poco::Dynamic::Var& expected, const Poco::Dynamic::Var& actual);

// Indented JSON text of `value`, for failure messages.
std::string prettyJson(const Poco::Dynamic::Var& value);

}  // namespace codepayload::cases
