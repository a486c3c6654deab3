#include "auth/http_answer.h"

namespace codepayload::auth {

const std::string& HttpAnswer::header(const std::string& name) const {
  static const std::string kAbsent;
  for (const HttpHeader& entry : headers) {
    if (entry.name == name) return entry.value;
  }
  return kAbsent;
}

}  // namespace codepayload::auth
