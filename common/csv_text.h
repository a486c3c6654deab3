// CSV as RFC 4180 writes it: fields separated by commas, a field quoted (its
// quotes doubled) only when it holds a comma, a quote, CR or LF, records ended
// by CRLF. Shared by the offline tool's batches and the dashboard's audit log
// download.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace codepayload::common {

// Appends `field`, quoted when RFC 4180 needs it.
void appendCsvField(std::string& out, std::string_view field);

// Appends the fields separated by commas and ended by CRLF.
void appendCsvRecord(std::string& out, std::span<const std::string_view> fields);

}  // namespace codepayload::common
