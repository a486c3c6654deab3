#include "auth/form_urlencoded.h"

#include "common/ascii.h"

namespace codepayload::auth {

bool decodeFormComponent(std::string_view encoded, std::string& out) {
  out.clear();
  out.reserve(encoded.size());
  for (std::size_t index = 0; index < encoded.size(); ++index) {
    const char character = encoded[index];
    if (character == '+') {
      out.push_back(' ');
    } else if (character == '%') {
      if (encoded.size() - index < 3) {
        out.clear();
        return false;
      }
      const int high = common::hexDigitValue(encoded[index + 1]);
      const int low = common::hexDigitValue(encoded[index + 2]);
      if (high < 0 || low < 0) {
        out.clear();
        return false;
      }
      out.push_back(static_cast<char>(high * 16 + low));
      index += 2;
    } else {
      out.push_back(character);
    }
  }
  return true;
}

FormError parseForm(std::string_view text, std::size_t maxFields, std::vector<FormField>& fields) {
  fields.clear();
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('&', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view piece = text.substr(start, end - start);
    start = end + 1;
    if (piece.empty()) continue;
    if (fields.size() == maxFields) {
      fields.clear();
      return FormError::TooManyFields;
    }
    const std::size_t equals = piece.find('=');
    FormField field;
    const std::string_view name = piece.substr(0, equals);
    const std::string_view value = equals == std::string_view::npos ? std::string_view() : piece.substr(equals + 1);
    if (!decodeFormComponent(name, field.name) || !decodeFormComponent(value, field.value)) {
      fields.clear();
      return FormError::BadEscape;
    }
    fields.push_back(std::move(field));
  }
  return FormError::None;
}

}  // namespace codepayload::auth
