// What the engine counts for the service's metrics (D-O1), process-wide:
// items accepted and rejected, rejections by error-code form, and Lua
// failures. Every thread counts with relaxed atomic adds (common/metrics.h):
// PayloadEngine adds a request's items and errors once, when its response is
// complete (a response cut short by an exception counts nothing), a Lua
// failure is added where it happens. The server reads the values when
// scraped. Counted in every program that runs the engine; only the server
// shows them.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "common/metrics.h"
#include "engine/validation_codes.h"

namespace codepayload {

struct EngineMetrics {
  metrics::Counter codesAccepted;  // items generated
  metrics::Counter codesRejected;  // items that failed (each once, however many errors)
  metrics::Counter codesParsed;    // payloads read back and accepted (POST /codes/parse)
  metrics::Counter parseRejected;  // payloads read back that failed
  // Errors of rejected items by form: [i] counts codes::codeForms()[i]; the
  // last, codes of no form (a Lua module's own codes).
  std::array<metrics::Counter, codes::kCodeFormCount + 1> errorsByForm;
  metrics::Counter luaLinterFailures;  // a Lua linter failed (error, budget, memory, bad verdict)
  metrics::Counter luaModuleFailures;  // a Lua rule module failed

  // Counts one error of a rejected item under its form.
  void countError(std::string_view code) noexcept { errorsByForm[codes::codeFormIndex(code)].add(); }
};

// The one block of the process.
EngineMetrics& engineMetrics() noexcept;

}  // namespace codepayload
