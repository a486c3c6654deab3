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
        formatError(item, slot, messages::Sentence::FormatTooShort, "tooShort", value.size());
        return;
      }
      std::size_t length = fixed ? component.maxLength : std::min<std::size_t>(remaining, component.maxLength);
      std::string_view part = value.substr(position, length);
      lint::LintResult charset = component.charsetCheck(part);
      if (!charset.ok()) {
        formatError(item, slot, messages::Sentence::FormatInvalidCharacter, "invalidCharacter",
                    position + charset.offset);
        return;
      }
      for (const ResolvedLinter& linter : component.linters) {
        lint::LintResult result =
            linter.builtin != nullptr ? linter.builtin(part) : item.rules().lua().runLinter(linter.luaIndex, part);
        if (!result.ok()) {
          linterError(item, slot, linter, result, position);
          return;
        }
      }
      position += length;
    }
    if (position < value.size()) formatError(item, slot, messages::Sentence::FormatTooLong, "tooLong", position);
  }

  static void linterError(ItemContext& item, AiSlot slot, const ResolvedLinter& linter, const lint::LintResult& result,
                          std::size_t componentOffset) {
    const ItemAi& ai = item.at(slot);
    SentSpan span = ai.spanAsSent(componentOffset + result.offset, result.length);
    std::string_view sentence = linter.builtin != nullptr
                                    ? lint::sentenceOf(linter.sentences, result.reason)
                                    : item.rules().lua().linterSentence(linter.luaIndex, result.reason);
    messages::Sentence which = span.inPadding     ? messages::Sentence::LinterFaultInPadding
                               : sentence.empty() ? messages::Sentence::LinterReasonWithoutSentence
                                                  : messages::Sentence::LinterReason;
    item.addError(ItemContext::aiErrorCode(slot), ItemContext::pathOf(slot),
                  {std::string(ai.key), "linter", linter.name, result.reason, std::to_string(span.offset),
                   std::to_string(span.length)},
                  messages::Fault{.sentence = which,
                                  .valueAsSent = ai.sentValue,
                                  .offset = span.offset,
                                  .length = span.length,
                                  .inPadding = span.inPadding,
                                  .expected = result.expectedText(),
                                  .linter = linter.name,
                                  .linterSentence = sentence});
  }

  // `sentence` names the fault; `offset` is where it starts in the value (the
  // end of the value for a value too short).
  static void formatError(ItemContext& item, AiSlot slot, messages::Sentence sentence, const char* reason,
                          std::size_t offset) {
    const ItemAi& ai = item.at(slot);
    std::size_t sentOffset = ai.spanAsSent(offset, 0).offset;
    item.addError(
        ItemContext::aiErrorCode(slot), ItemContext::pathOf(slot),
        {std::string(ai.key), "format", ai.ai->formatSpec, reason, std::to_string(sentOffset)},
        messages::Fault{.sentence = sentence, .valueAsSent = ai.sentValue, .offset = sentOffset, .length = 1});
  }
};

}  // namespace

RuleModuleStart makeAiFormatRule(const ModuleSettings&) { return {std::make_unique<AiFormatRule>(), {}}; }

}  // namespace codepayload::rules
