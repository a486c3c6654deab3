// Strict application/x-www-form-urlencoded decoding (RFC 6749 Appendix B; the
// WHATWG urlencoded parser minus its error recovery). Used for the token
// endpoint's body and query string and for the two parts of an HTTP Basic
// credential (RFC 6749 §2.3.1). Names are case-sensitive.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace codepayload::auth {

// Decodes one component: '+' -> space, %XX (either hex case) -> byte. Any '%'
// not followed by two hex digits is an error (returns false). Appends nothing
// on error; `out` is cleared first.
bool decodeFormComponent(std::string_view encoded, std::string& out);

struct FormField {
  std::string name;
  std::string value;

  bool operator==(const FormField&) const = default;
};

enum class FormError {
  None,
  BadEscape,      // a '%' not followed by two hex digits, in a name or value
  TooManyFields,  // more than the allowed number of fields
};

// Splits `text` at '&', each piece at its first '=' (no '=' -> empty value),
// and decodes both sides. Empty pieces ("a=1&&b=2", a trailing '&') are
// skipped. Fields keep their order; duplicates are kept. `fields` is cleared
// first.
FormError parseForm(std::string_view text, std::size_t maxFields, std::vector<FormField>& fields);

}  // namespace codepayload::auth
