#include "tools/codepayload/batch_input.h"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "common/edit_distance.h"
#include "common/json_escape.h"
#include "common/utf8.h"

namespace codepayload::cli {

namespace {

constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";

std::string_view withoutByteOrderMark(std::string_view text) {
  return text.starts_with(kByteOrderMark) ? text.substr(kByteOrderMark.size()) : text;
}

// The 1-based character (code point) at which `text` stops being UTF-8;
// nullopt when all of it is.
std::optional<std::size_t> firstBadCharacter(std::string_view text) {
  std::size_t index = 0;
  std::size_t characters = 0;
  char32_t codePoint = 0;
  while (index < text.size()) {
    if (!common::decodeUtf8(text, index, codePoint)) return characters + 1;
    ++characters;
  }
  return std::nullopt;
}

void appendItemStart(std::string& body, std::size_t items) { body += items == 0 ? "{" : ",{"; }

void appendReference(std::string& body, std::string_view given, std::size_t line) {
  body += "\"reference\":";
  if (given.empty()) {
    common::appendJsonString(body, std::to_string(line));
  } else {
    common::appendJsonString(body, given);
  }
}

bool allEmpty(const std::vector<std::string>& fields) {
  return std::all_of(fields.begin(), fields.end(), [](const std::string& field) { return field.empty(); });
}

bool isAiColumn(std::string_view name) {
  return name.size() >= 2 && name.size() <= 4 &&
         std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The columns of a CSV batch, from its header row.
enum class Column { Reference, Data, PrimaryKey, Ai, Extension, DigitalLinkStem, LinkType, Context };

struct HeaderColumn {
  Column kind;
  std::string name;  // as in the header; for an AI its number, for ext:<key> the key
};

struct NamedColumn {
  std::string_view name;
  Column kind;
};

constexpr std::array<NamedColumn, 2> kParseColumns{{{"reference", Column::Reference}, {"data", Column::Data}}};
constexpr std::array<NamedColumn, 5> kGenerateColumns{{{"reference", Column::Reference},
                                                       {"primaryKey", Column::PrimaryKey},
                                                       {"digitalLinkStem", Column::DigitalLinkStem},
                                                       {"linkType", Column::LinkType},
                                                       {"context", Column::Context}}};
constexpr std::string_view kExtensionPrefix = "ext:";

template <std::size_t N>
std::string unknownColumn(std::string_view name, const std::array<NamedColumn, N>& known, bool generate) {
  if (name.empty()) return "a column without a name";
  std::string text = "unknown column ";
  common::appendJsonString(text, name);
  if (generate && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return text + " (an AI's column is named by its 2 to 4 digits, as 01; was a leading 0 lost?)";
  }
  std::array<std::string_view, N> names{};
  for (std::size_t i = 0; i < N; ++i) names[i] = known[i].name;
  const std::string_view nearest = common::nearestWithin(name, names, 2);
  if (!nearest.empty()) return text + " (did you mean \"" + std::string(nearest) + "\"?)";
  text += " (the columns: ";
  for (std::size_t i = 0; i < N; ++i) {
    if (i != 0) text += ", ";
    text += known[i].name;
  }
  return text + (generate ? ", an AI's number such as 01, ext:<key>)" : ")");
}

void checkUtf8(const CsvRecord& record) {
  for (std::size_t i = 0; i < record.fields.size(); ++i) {
    if (firstBadCharacter(record.fields[i])) throw InputError(record.line, i + 1, "not valid UTF-8");
  }
}

// Reads the header row of `reader` into columns.
template <std::size_t N>
std::vector<HeaderColumn> readHeader(CsvReader& reader, const std::array<NamedColumn, N>& known, bool generate) {
  CsvRecord header;
  if (!reader.next(header)) throw InputError(1, 0, "no header row (the first row names the columns)");
  checkUtf8(header);
  std::vector<HeaderColumn> columns;
  for (std::size_t i = 0; i < header.fields.size(); ++i) {
    const std::string& name = header.fields[i];
    for (std::size_t j = 0; j < i; ++j) {
      if (header.fields[j] == name && !name.empty()) {
        std::string text = "column ";
        common::appendJsonString(text, name);
        throw InputError(header.line, i + 1, text + " repeats column " + std::to_string(j + 1));
      }
    }
    const auto named = std::find_if(known.begin(), known.end(), [&](const NamedColumn& c) { return c.name == name; });
    if (named != known.end()) {
      columns.push_back({named->kind, name});
    } else if (generate && isAiColumn(name)) {
      columns.push_back({Column::Ai, name});
    } else if (generate && name.starts_with(kExtensionPrefix)) {
      columns.push_back({Column::Extension, name.substr(kExtensionPrefix.size())});
    } else {
      throw InputError(header.line, i + 1, unknownColumn(name, known, generate));
    }
  }
  return columns;
}

// The first column of `kind`.
std::optional<std::size_t> placeOf(const std::vector<HeaderColumn>& columns, Column kind) {
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].kind == kind) return i;
  }
  return std::nullopt;
}

// The next record that is not all empty, with as many fields as the header.
bool nextRecord(CsvReader& reader, CsvRecord& record, std::size_t columns) {
  while (reader.next(record)) {
    if (allEmpty(record.fields)) continue;
    if (record.fields.size() != columns) {
      throw InputError(record.line, std::min(record.fields.size(), columns) + 1,
                       std::to_string(record.fields.size()) + (record.fields.size() == 1 ? " field" : " fields") +
                           " where the header has " + std::to_string(columns));
    }
    checkUtf8(record);
    return true;
  }
  return false;
}

void appendPair(std::string& body, bool first, std::string_view key, std::string_view value) {
  body += first ? "{\"key\":" : ",{\"key\":";
  common::appendJsonString(body, key);
  body += ",\"value\":";
  common::appendJsonString(body, value);
  body += '}';
}

void appendOptional(std::string& body, std::string_view field, std::string_view value) {
  if (value.empty()) return;
  body += ",\"";
  body += field;
  body += "\":";
  common::appendJsonString(body, value);
}

}  // namespace

InputFormat detectParseInput(std::string_view text) {
  text = withoutByteOrderMark(text);
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '{' ? InputFormat::Json : InputFormat::Lines;
}

std::string parseRequestFromLines(std::string_view text) {
  text = withoutByteOrderMark(text);
  std::string body = "{\"codes\":[";
  std::size_t items = 0;
  std::size_t line = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    ++line;
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view data = text.substr(start, end - start);
    start = end + 1;
    if (data.ends_with('\r')) data.remove_suffix(1);
    if (data.empty()) continue;
    if (const auto bad = firstBadCharacter(data)) throw InputError(line, *bad, "not valid UTF-8");
    appendItemStart(body, items++);
    appendReference(body, "", line);
    body += ",\"data\":";
    common::appendJsonString(body, data);
    body += '}';
  }
  body += "]}";
  return body;
}

std::string parseRequestFromCsv(std::string_view text) {
  CsvReader reader(text);
  const std::vector<HeaderColumn> columns = readHeader(reader, kParseColumns, false);
  const auto place = [&columns](Column kind) { return placeOf(columns, kind); };
  const std::optional<std::size_t> reference = place(Column::Reference);
  const std::optional<std::size_t> data = place(Column::Data);
  if (!data) throw InputError(1, 0, "no data column (the columns: reference, data)");
  std::string body = "{\"codes\":[";
  std::size_t items = 0;
  CsvRecord record;
  while (nextRecord(reader, record, columns.size())) {
    appendItemStart(body, items++);
    appendReference(body, reference ? std::string_view(record.fields[*reference]) : "", record.line);
    body += ",\"data\":";
    common::appendJsonString(body, record.fields[*data]);
    body += '}';
  }
  body += "]}";
  return body;
}

std::string codesRequestFromCsv(std::string_view text, const IsPrimaryKey& isPrimaryKey) {
  CsvReader reader(text);
  const std::vector<HeaderColumn> columns = readHeader(reader, kGenerateColumns, true);
  const auto place = [&columns](Column kind) { return placeOf(columns, kind); };
  const std::optional<std::size_t> reference = place(Column::Reference);
  const std::optional<std::size_t> primaryKey = place(Column::PrimaryKey);
  const std::optional<std::size_t> stem = place(Column::DigitalLinkStem);
  const std::optional<std::size_t> linkType = place(Column::LinkType);
  const std::optional<std::size_t> context = place(Column::Context);
  if (!place(Column::Ai)) throw InputError(1, 0, "no AI column (name an AI's column by its number, as 01)");
  const auto cell = [&](const CsvRecord& record, std::optional<std::size_t> column) -> std::string_view {
    return column ? std::string_view(record.fields[*column]) : std::string_view();
  };

  std::string body = "{\"codes\":[";
  std::size_t items = 0;
  CsvRecord record;
  while (nextRecord(reader, record, columns.size())) {
    // The column of the primary key.
    std::optional<std::size_t> key;
    if (const std::string_view named = cell(record, primaryKey); !named.empty()) {
      for (std::size_t i = 0; i < columns.size(); ++i) {
        if (columns[i].kind == Column::Ai && columns[i].name == named) key = i;
      }
      std::string ai;
      common::appendJsonString(ai, named);
      if (!key) throw InputError(record.line, *primaryKey + 1, "primaryKey " + ai + " names no AI column");
      if (record.fields[*key].empty()) {
        throw InputError(record.line, *primaryKey + 1,
                         "primaryKey " + ai + " names an empty cell (column " + std::to_string(*key + 1) + ")");
      }
    } else {
      std::optional<std::size_t> first;
      for (std::size_t i = 0; i < columns.size() && !key; ++i) {
        if (columns[i].kind != Column::Ai || record.fields[i].empty()) continue;
        if (!first) first = i;
        if (isPrimaryKey(columns[i].name)) key = i;
      }
      if (!key) key = first;
      if (!key) throw InputError(record.line, 0, "no AI in this row (a row needs at least its primary key)");
    }

    appendItemStart(body, items++);
    appendReference(body, cell(record, reference), record.line);
    body += ",\"primaryKey\":{\"key\":";
    common::appendJsonString(body, columns[*key].name);
    body += ",\"value\":";
    common::appendJsonString(body, record.fields[*key]);
    body += "},\"ais\":[";
    bool first = true;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (columns[i].kind != Column::Ai || i == *key || record.fields[i].empty()) continue;
      appendPair(body, first, columns[i].name, record.fields[i]);
      first = false;
    }
    body += "],\"extensionParameters\":[";
    first = true;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (columns[i].kind != Column::Extension || record.fields[i].empty()) continue;
      appendPair(body, first, columns[i].name, record.fields[i]);
      first = false;
    }
    body += ']';
    appendOptional(body, "digitalLinkStem", cell(record, stem));
    appendOptional(body, "linkType", cell(record, linkType));
    appendOptional(body, "context", cell(record, context));
    body += '}';
  }
  body += "]}";
  return body;
}

}  // namespace codepayload::cli
