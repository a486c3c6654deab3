#include "tests/cases/json_compare.h"

#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Stringifier.h>

#include <algorithm>
#include <sstream>
#include <vector>

namespace codepayload::cases {

namespace {

enum class Kind { Null, Object, Array, String, Boolean, Number };

Kind kindOf(const Poco::Dynamic::Var& value) {
  if (value.isEmpty()) return Kind::Null;
  if (value.type() == typeid(Poco::JSON::Object::Ptr)) return Kind::Object;
  if (value.type() == typeid(Poco::JSON::Array::Ptr)) return Kind::Array;
  if (value.isString()) return Kind::String;
  if (value.isBoolean()) return Kind::Boolean;
  return Kind::Number;
}

std::string compact(const Poco::Dynamic::Var& value) {
  std::ostringstream out;
  Poco::JSON::Stringifier::condense(value, out);
  return out.str();
}

std::string join(const std::string& where, const std::string& step) {
  return where.empty() ? step : where + "." + step;
}

std::string differ(const std::string& where, const Poco::Dynamic::Var& expected, const Poco::Dynamic::Var& actual) {
  return (where.empty() ? std::string("(root)") : where) + ": expected " + compact(expected) + ", got " +
         compact(actual);
}

std::string compare(const std::string& where, const Poco::Dynamic::Var& expected, const Poco::Dynamic::Var& actual) {
  Kind kind = kindOf(expected);
  if (kind != kindOf(actual)) return differ(where, expected, actual);
  switch (kind) {
    case Kind::Null: return {};
    case Kind::Object: {
      auto expectedObject = expected.extract<Poco::JSON::Object::Ptr>();
      auto actualObject = actual.extract<Poco::JSON::Object::Ptr>();
      std::vector<std::string> expectedKeys;
      std::vector<std::string> actualKeys;
      expectedObject->getNames(expectedKeys);
      actualObject->getNames(actualKeys);
      std::sort(expectedKeys.begin(), expectedKeys.end());
      std::sort(actualKeys.begin(), actualKeys.end());
      for (const std::string& key : expectedKeys) {
        if (!actualObject->has(key)) return join(where, key) + ": missing";
      }
      for (const std::string& key : actualKeys) {
        if (!expectedObject->has(key))
          return join(where, key) + ": not expected, got " + compact(actualObject->get(key));
      }
      for (const std::string& key : expectedKeys) {
        std::string difference = compare(join(where, key), expectedObject->get(key), actualObject->get(key));
        if (!difference.empty()) return difference;
      }
      return {};
    }
    case Kind::Array: {
      auto expectedArray = expected.extract<Poco::JSON::Array::Ptr>();
      auto actualArray = actual.extract<Poco::JSON::Array::Ptr>();
      std::size_t common = std::min(expectedArray->size(), actualArray->size());
      for (std::size_t i = 0; i < common; ++i) {
        unsigned index = static_cast<unsigned>(i);
        std::string difference =
            compare(join(where, std::to_string(i)), expectedArray->get(index), actualArray->get(index));
        if (!difference.empty()) return difference;
      }
      if (expectedArray->size() != actualArray->size()) {
        return (where.empty() ? std::string("(root)") : where) + ": expected " + std::to_string(expectedArray->size()) +
               " entries, got " + std::to_string(actualArray->size());
      }
      return {};
    }
    case Kind::String:
      return expected.extract<std::string>() == actual.extract<std::string>() ? std::string()
                                                                              : differ(where, expected, actual);
    case Kind::Boolean:
      return expected.convert<bool>() == actual.convert<bool>() ? std::string() : differ(where, expected, actual);
    case Kind::Number: return compact(expected) == compact(actual) ? std::string() : differ(where, expected, actual);
  }
  return differ(where, expected, actual);
}

}  // namespace

std::string firstDifference(const Poco::Dynamic::Var& expected, const Poco::Dynamic::Var& actual) {
  return compare("", expected, actual);
}

std::string prettyJson(const Poco::Dynamic::Var& value) {
  std::ostringstream out;
  Poco::JSON::Stringifier::stringify(value, out, 2);
  return out.str();
}

}  // namespace codepayload::cases
