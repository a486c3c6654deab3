// The `message` of a ValidationError: one English sentence saying what was
// wrong and what was expected, built from the error's code and args and a few
// facts the rule that found the fault knows (the value as sent, the check
// digit that would be right, a near miss, the allowed qualifier sequences).
//
// Sentences are data: one table of templates keyed by the code's form and its
// reason token (and one per linter reason token), filled in by one function.
// A message is built only when an error is reported (never for an accepted
// item). Lua rule modules may supply their own message; any other code or
// reason gets a generic sentence made of the code and the args.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace codepayload::messages {

// What the rule knows beyond code and args. Every field may stay empty.
struct MessageFacts {
  std::string_view valueAsSent;    // the AI value at fault, as the caller sent it
  std::string_view expected;       // the characters that would be right (check digit or pair)
  std::string_view suggestion;     // a near miss the caller probably meant: "gs1:pip", "01"
  std::string_view allowed;        // what is allowed instead, already worded ("22, 10, 21 or 235")
  bool elementStringOnly = false;  // notPrimaryKey: the key is a primary key in element strings only
  bool inPadding = false;          // a linter's fault lies in zeros normalisation added
};

// The sentence for one error.
std::string describe(std::string_view code, const std::vector<std::string>& args, const MessageFacts& facts);

// One linter reason token and the sentence template it gets (the message is
// "AI <ai>: <sentence>."). Placeholders: {part} the characters at fault, with
// their place when they are not the whole value ("'13' (characters 3 to 4 of
// '251301')"), {span} those characters alone, {where} "at character 12 of
// '...'", {value} the whole value as sent, {expected} the right characters,
// {linter} the linter's name.
struct ReasonSentence {
  std::string_view reason;
  std::string_view sentence;
};

// Every linter reason with its own sentence, sorted by token.
std::span<const ReasonSentence> linterReasonSentences();

}  // namespace codepayload::messages
