#include "db/import/link_types_parser.h"

#include <Poco/Exception.h>
#include <Poco/JSON/Array.h>
#include <Poco/JSON/Object.h>
#include <Poco/JSON/Parser.h>

#include <algorithm>
#include <map>

#include "common/utf8.h"
#include "db/import/import_error.h"

namespace codepayload::importer {

namespace {

constexpr std::string_view kKnownKeys[] = {"deprecated", "description", "domain", "id",
                                           "restricted", "status",      "title",  "uri"};

class EntryReader {
 public:
  EntryReader(std::string_view fileName, std::size_t number, const Poco::JSON::Object& object)
      : fileName_(fileName), number_(number), object_(object) {}

  [[noreturn]] void refuse(std::string_view cause) const {
    std::string message(fileName_);
    message += ": entry " + std::to_string(number_);
    if (!id_.empty()) message += " (" + id_ + ")";
    message += ": ";
    message += cause;
    throw ImportError(message);
  }

  std::string string(const std::string& key) const {
    if (!object_.has(key)) refuse("\"" + key + "\" is missing");
    const Poco::Dynamic::Var value = object_.get(key);
    if (!value.isString()) refuse("\"" + key + "\" must be a string");
    std::string text = value.extract<std::string>();
    if (!common::isValidUtf8(text)) refuse("\"" + key + "\" is not valid UTF-8");
    return text;
  }

  bool boolean(const std::string& key) const {
    if (!object_.has(key)) refuse("\"" + key + "\" is missing");
    const Poco::Dynamic::Var value = object_.get(key);
    if (!value.isBoolean()) refuse("\"" + key + "\" must be true or false");
    return value.extract<bool>();
  }

  std::vector<std::string> strings(const std::string& key) const {
    if (!object_.has(key)) refuse("\"" + key + "\" is missing");
    const Poco::JSON::Array::Ptr array = object_.getArray(key);
    if (array.isNull()) refuse("\"" + key + "\" must be an array of strings");
    std::vector<std::string> values;
    for (std::size_t i = 0; i < array->size(); ++i) {
      const Poco::Dynamic::Var value = array->get(static_cast<unsigned>(i));
      if (!value.isString()) refuse("\"" + key + "\" must be an array of strings");
      values.push_back(value.extract<std::string>());
    }
    return values;
  }

  LinkType read() {
    for (const auto& [key, value] : object_) {
      if (std::find(std::begin(kKnownKeys), std::end(kKnownKeys), key) == std::end(kKnownKeys)) {
        refuse("unknown key \"" + key + "\"");
      }
    }
    LinkType type;
    type.id = string("id");
    if (!isUnbrokenText(type.id)) refuse("\"id\" must be non-empty without spaces or control characters");
    id_ = type.id;
    type.title = string("title");
    type.description = string("description");
    type.uri = string("uri");
    if (!isUnbrokenText(type.uri)) refuse("\"uri\" must be non-empty without spaces or control characters");
    type.status = string("status");
    if (!isPlainToken(type.status)) refuse("\"status\" must be one word");
    type.deprecated = boolean("deprecated");
    type.restricted = strings("restricted");
    for (std::size_t i = 0; i < type.restricted.size(); ++i) {
      if (!isPlainToken(type.restricted[i])) {
        refuse("\"restricted\" value \"" + type.restricted[i] + "\" must be one word without commas");
      }
      if (std::find(type.restricted.begin(), type.restricted.begin() + static_cast<std::ptrdiff_t>(i),
                    type.restricted[i]) != type.restricted.begin() + static_cast<std::ptrdiff_t>(i)) {
        refuse("\"restricted\" lists \"" + type.restricted[i] + "\" twice");
      }
    }
    strings("domain");
    type.selectable = isSelectable(type.restricted);
    return type;
  }

 private:
  std::string_view fileName_;
  std::size_t number_;
  const Poco::JSON::Object& object_;
  std::string id_;
};

}  // namespace

bool isSelectable(const std::vector<std::string>& restricted) {
  return std::find(restricted.begin(), restricted.end(), "resolver") == restricted.end();
}

bool isUnbrokenText(std::string_view text) {
  return !text.empty() && std::none_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte <= 0x20 || byte == 0x7F;
  });
}

bool isPlainToken(std::string_view text) { return isUnbrokenText(text) && text.find(',') == std::string_view::npos; }

std::vector<LinkType> parseLinkTypes(std::string_view json, std::string_view fileName) {
  const std::string file(fileName);
  Poco::Dynamic::Var root;
  try {
    Poco::JSON::Parser parser;
    root = parser.parse(std::string(json));
  } catch (const Poco::Exception& error) {
    throw ImportError(file + ": not valid JSON: " + error.displayText());
  }
  if (root.type() != typeid(Poco::JSON::Array::Ptr)) throw ImportError(file + ": not a JSON array of link types");
  const Poco::JSON::Array::Ptr entries = root.extract<Poco::JSON::Array::Ptr>();
  if (entries->size() == 0) throw ImportError(file + ": no link types");

  std::vector<LinkType> linkTypes;
  std::map<std::string, std::size_t, std::less<>> firstEntry;
  for (std::size_t i = 0; i < entries->size(); ++i) {
    const std::size_t number = i + 1;
    const Poco::JSON::Object::Ptr object = entries->getObject(static_cast<unsigned>(i));
    if (object.isNull()) throw ImportError(file + ": entry " + std::to_string(number) + ": not a JSON object");
    LinkType type = EntryReader(fileName, number, *object).read();
    if (auto [it, inserted] = firstEntry.emplace(type.id, number); !inserted) {
      throw ImportError(file + ": entry " + std::to_string(number) + " (" + type.id +
                        "): id repeated (first in entry " + std::to_string(it->second) + ")");
    }
    linkTypes.push_back(std::move(type));
  }
  return linkTypes;
}

}  // namespace codepayload::importer
