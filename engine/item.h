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

namespace codepayload {

class Snapshot;
struct CompiledAi;

enum class Placement : std::uint8_t {
  Undecided,
  PathQualifier,   // /<ai>/<value> after the primary key
  QueryAttribute,  // ?<ai>=<value>
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

  // "primaryKey" or "ais.<i>"; and the matching error code for AI faults.
  static std::string pathOf(AiSlot slot);
  static std::string aiErrorCode(AiSlot slot);

  void addError(std::string code, std::optional<std::string> path, std::vector<std::string> args);
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
