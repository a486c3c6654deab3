// fuzz_payload_reader: arbitrary bytes as the text of a scanned or printed
// code through engine/payload_reader.h over a snapshot of the shipped
// baseline: Digital Link URIs, bracketed element strings, scanner data with
// AIM identifiers and GS separators.
//
// Invariants (abort on violation):
//  - a refusal says where reading stopped, inside the text;
//  - every field read lies inside the text, and its value is what the text
//    holds there: the same bytes for scanner data, the bytes with ^040/^041
//    resolved for a bracketed element string;
//  - every AI read is in the dictionary; a Digital Link has its primary key
//    first and its stem is the text before it (after an AIM identifier);
//  - the same text read again gives the same result.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/payload_reader.h"
#include "engine/snapshot.h"
#include "tests/fuzz/baseline_snapshot.h"
#include "tests/fuzz/fuzz_check.h"

namespace codepayload::fuzz {
namespace {

const Snapshot* snapshot = nullptr;

std::string unescapeParentheses(std::string_view written) {
  std::string value;
  for (std::size_t i = 0; i < written.size(); ++i) {
    if (written.compare(i, 4, "^040") == 0 || written.compare(i, 4, "^041") == 0) {
      value += written[i + 3] == '0' ? '(' : ')';
      i += 3;
    } else {
      value += written[i];
    }
  }
  return value;
}

void checkField(std::string_view text, const ReadField& field, PayloadForm form) {
  require(field.offset <= text.size() && field.length <= text.size() - field.offset, "a field lies inside the text",
          text);
  require(field.length > 0 || form == PayloadForm::DigitalLink, "an AI value is never empty", text);
  const std::string_view written = text.substr(field.offset, field.length);
  if (form == PayloadForm::ScannerData) require(field.value == written, "scanner data is read as it is", text);
  if (form == PayloadForm::BracketedElementString) {
    require(field.value == unescapeParentheses(written), "a bracketed value is read with ^040/^041 resolved", text);
  }
}

void checkPayload(std::string_view text, const ReadPayload& payload) {
  require(!payload.ais.empty(), "a payload holds at least one AI", text);
  for (const ReadField& ai : payload.ais) {
    require(snapshot->findAi(ai.key) != nullptr, "every AI read is in the dictionary", text);
    checkField(text, ai, payload.form);
  }
  if (payload.form != PayloadForm::DigitalLink) {
    require(payload.pathAis == 0 && payload.stem.empty(), "only a Digital Link has a path and a stem", text);
    return;
  }
  require(payload.pathAis >= 1 && payload.pathAis <= payload.ais.size(), "a Digital Link has a path", text);
  require(snapshot->findAi(payload.ais.front().key)->definition->digitalLinkPrimaryKey,
          "a Digital Link's first AI is a primary key", text);
  const std::size_t begin = payload.symbologyIdentifier.size();
  require(text.substr(begin).starts_with(payload.stem), "the stem is the text before the primary key", text);
  for (const ReadField& parameter : payload.extensionParameters) checkField(text, parameter, payload.form);
  if (payload.linkType) checkField(text, *payload.linkType, payload.form);
  if (payload.context) checkField(text, *payload.context, payload.form);
}

}  // namespace
}  // namespace codepayload::fuzz

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  static const std::shared_ptr<const codepayload::Snapshot> built = codepayload::fuzz::baselineSnapshot();
  codepayload::fuzz::snapshot = built.get();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace codepayload;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ReadFault fault;
  const std::optional<ReadPayload> payload = readPayload(*fuzz::snapshot, text, fault);
  ReadFault again;
  const std::optional<ReadPayload> second = readPayload(*fuzz::snapshot, text, again);
  fuzz::require(payload == second && (payload || fault == again), "the same text reads the same way", text);
  if (!payload) {
    fuzz::require(fault.offset <= text.size(), "a refusal says where reading stopped, inside the text", text);
    return 0;
  }
  fuzz::checkPayload(text, *payload);
  return 0;
}
