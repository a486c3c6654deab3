// aiFormat: each AI value (primary key and ais) against its dictionary format:
// components consumed left to right (fixed lengths, the last may vary, optional
// ones may be left out once the value is used up), the character set of each,
// then its linters in dictionary order. The first fault of a value is reported,
// with its offset in the value as sent (normalisation only pads on the left,
// so an offset in the normalised value is mapped back by the padding's length).
#include "engine/item.h"
#include "engine/lua_runtime.h"
#include "engine/snapshot.h"
#include "plugins/rules/rule_modules.h"

namespace codepayload::rules {

namespace {

class AiFormatRule final : public RuleModule {
 public:
  void check(ItemContext& item) const override {
    checkValue(item, AiSlot{true, 0});
    for (std::size_t i = 0; i < item.ais().size(); ++i) checkValue(item, AiSlot{false, i});
  }

 private:
  static void checkValue(ItemContext& item, AiSlot slot) {
    const ItemAi& ai = item.at(slot);
    if (ai.ai == nullptr || ai.valueRejected) return;
    std::string_view value = ai.value();
    std::size_t position = 0;
    for (const CompiledComponent& component : ai.ai->components) {
      std::size_t remaining = value.size() - position;
      if (remaining == 0 && component.optional) break;
      bool fixed = component.minLength == component.maxLength;
      if (remaining < (fixed ? component.maxLength : component.minLength)) {
        formatError(item, slot, "tooShort", value.size());
        return;
      }
      std::size_t length = fixed ? component.maxLength : std::min<std::size_t>(remaining, component.maxLength);
      std::string_view part = value.substr(position, length);
      lint::LintResult charset = component.charsetCheck(part);
      if (!charset.ok()) {
        formatError(item, slot, "invalidCharacter", position + charset.offset);
        return;
      }
      for (const ResolvedLinter& linter : component.linters) {
        lint::LintResult result =
            linter.builtin != nullptr ? linter.builtin(part) : item.rules().lua().runLinter(linter.luaIndex, part);
        if (!result.ok()) {
          SentSpan span = ai.spanAsSent(position + result.offset, result.length);
          messages::MessageFacts facts;
          facts.valueAsSent = ai.sentValue;
          facts.expected = result.expectedText();
          facts.inPadding = span.inPadding;
          item.addError(ItemContext::aiErrorCode(slot), ItemContext::pathOf(slot),
                        {std::string(ai.key), "linter", linter.name, result.reason, std::to_string(span.offset),
                         std::to_string(span.length)},
                        facts);
          return;
        }
      }
      position += length;
    }
    if (position < value.size()) formatError(item, slot, "tooLong", position);
  }

  static void formatError(ItemContext& item, AiSlot slot, const char* reason, std::size_t offset) {
    const ItemAi& ai = item.at(slot);
    messages::MessageFacts facts;
    facts.valueAsSent = ai.sentValue;
    item.addError(
        ItemContext::aiErrorCode(slot), ItemContext::pathOf(slot),
        {std::string(ai.key), "format", ai.ai->formatSpec, reason, std::to_string(ai.spanAsSent(offset, 0).offset)},
        facts);
  }
};

}  // namespace

std::unique_ptr<RuleModule> makeAiFormatRule(const PipelineSettings&) { return std::make_unique<AiFormatRule>(); }

}  // namespace codepayload::rules
