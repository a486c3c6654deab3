#include "engine/dictionary.h"

namespace codepayload {

std::string formatSpecText(const AiDefinition& ai) {
  std::string text;
  for (const ComponentSpec& component : ai.components) {
    if (!text.empty()) text += ' ';
    if (component.optional) text += '[';
    text += static_cast<char>(component.charset);
    if (component.minLength != component.maxLength) {
      text += "..";
      if (component.minLength != 1) {
        // The dictionary only writes "X..20" (1..20); other minimums never occur,
        // but say so rather than print a wrong spec.
        text += std::to_string(component.minLength) + "-";
      }
    }
    text += std::to_string(component.maxLength);
    if (component.optional) text += ']';
  }
  return text;
}

}  // namespace codepayload
