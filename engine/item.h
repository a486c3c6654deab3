// The state of one code definition while the pipeline runs over it.
//
// Before the first rule module runs, the engine resolves every AI against the
// snapshot (known or not) and fixes the output paths; modules then add errors,
// normalised values and Digital Link placement. Generation reads the result.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model.h"
#include "engine/validation_messages.h"

namespace codepayload {

class Snapshot;
struct CompiledAi;

enum class Placement : std::uint8_t {
  Undecided,
  PathQualifier,   // /<ai>/<value> after the primary key
  QueryAttribute,  // ?<ai>=<value>
};

// A span of an AI value in the value as the caller sent it.
struct SentSpan {
  std::size_t offset;
  std::size_t length;
  bool inPadding;  // wholly in characters normalisation added (offset and length are then 0)
};

struct ItemAi {
  std::string_view key;
  std::string_view sentValue;
  const CompiledAi* ai = nullptr;  // null: unknown AI
  std::int32_t slot = -1;          // aiSlot(key); -1 when the key is not 2 to 4 digits
  std::string normalisedValue;     // used when `normalised` is set
  bool normalised = false;
  bool usable = true;          // false: unknown, a duplicate, or repeating the primary key
  bool valueRejected = false;  // a normalisation step already reported the value
  Placement placement = Placement::Undecided;
  std::uint16_t qualifierRank = 0;  // position in the chosen qualifier sequence

  std::string_view value() const { return normalised ? std::string_view(normalisedValue) : sentValue; }

  // A span of value() mapped to the value as sent. Normalisation only pads on
  // the left (GTINs and temperatures get leading zeros), so offsets move back
  // by the padding's length; a span reaching into the padding is cut to the
  // characters the caller typed, and one wholly inside it has none.
  SentSpan spanAsSent(std::size_t offset, std::size_t length) const;
};

// Whether two AIs of an item have the same key: by slot (one per 2- to 4-digit
// key), by text only for keys that have none.
inline bool sameKey(const ItemAi& first, const ItemAi& second) {
  return (first.slot >= 0 || second.slot >= 0) ? first.slot == second.slot : first.key == second.key;
}

// Where an AI of the item sits in the request: the primary key or ais.<index>.
struct AiSlot {
  bool primary;
  std::size_t index;  // into ais when !primary
};

class ItemContext {
 public:
  // `aiStorage` is reused from item to item (its capacity survives).
  ItemContext(const Snapshot& rules, const CodeDefinition& definition, std::size_t position,
              std::vector<ValidationError>& errors, std::vector<ItemAi>& aiStorage);

  const Snapshot& rules() const { return rules_; }
  const CodeDefinition& definition() const { return definition_; }
  std::size_t position() const { return position_; }
  bool hasStem() const { return definition_.digitalLinkStem.has_value(); }

  ItemAi& primaryKey() { return primaryKey_; }
  const ItemAi& primaryKey() const { return primaryKey_; }
  std::vector<ItemAi>& ais() { return ais_; }
  const std::vector<ItemAi>& ais() const { return ais_; }
  ItemAi& at(AiSlot slot) { return slot.primary ? primaryKey_ : ais_[slot.index]; }

  // The stem checked once per item (checkDigitalLinkStem): the normalised stem,
  // or an empty view with `reason` set to the fault.
  std::string_view normalisedStem(const char*& reason);

  // Set by the primary-key module when the key is acceptable for this item.
  bool primaryKeyAccepted = false;
  // Set for an element string read back: its values are what a symbol holds,
  // so normalisation (a convenience of definitions) does not apply.
  bool valuesAsPrinted = false;

  // "primaryKey" or "ais.<i>"; and the matching error code for AI faults.
  static std::string pathOf(AiSlot slot);
  static std::string aiErrorCode(AiSlot slot);

  // Adds an error; its message is `fault`'s sentence (engine/validation_messages.h).
  void addError(std::string code, std::optional<std::string> path, std::vector<std::string> args,
                const messages::Fault& fault);
  // Adds an error a Lua rule module reported, with its own message or, when
  // `message` is empty, a generic one made of the code and the args.
  void addError(std::string code, std::optional<std::string> path, std::vector<std::string> args, std::string message);
  bool hasErrors() const { return errors_.size() > firstError_; }

 private:
  const Snapshot& rules_;
  const CodeDefinition& definition_;
  std::size_t position_;
  std::vector<ValidationError>& errors_;
  std::size_t firstError_;
  ItemAi primaryKey_;
  std::vector<ItemAi>& ais_;
  bool stemChecked_ = false;
  const char* stemReason_ = nullptr;
  std::string_view stem_;
};

}  // namespace codepayload
