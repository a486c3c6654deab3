// The one exception type of the database layer (migrations, rule store,
// SQLite access). The message says what was being done and why it failed.
#pragma once

#include <stdexcept>

namespace codepayload {

struct DbError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace codepayload
