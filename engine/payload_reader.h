// Reading a payload back: the text a scanner or a decoder delivers, or that
// /codes wrote, split into its AIs, its Digital Link stem and its other query
// parameters, each with the place of its value in the text. Syntax only:
// whether the AIs and values are valid is the pipeline's question, as it is
// for /codes. Three forms:
//   - a GS1 Digital Link URI (uncompressed), any stem;
//   - a bracketed element string, "(01)09506000134352(10)AB^040C^041", with
//     the ^040 and ^041 escapes /codes writes for parentheses in values;
//   - scanner data: AIs without brackets, a variable-length value ended by a
//     GS (0x1D) unless it is the last, optionally after an AIM symbology
//     identifier ("]d2", "]Q3", "]C1", "]e0", "]J1" for GS1 data; "]Q1" and
//     "]d1" for a symbol holding a Digital Link URI).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace codepayload {

class Snapshot;

enum class PayloadForm { DigitalLink, BracketedElementString, ScannerData };

// A key and its value as read, with the place of the value in the text (in
// bytes; the forms are ASCII, so bytes are characters). The views point into
// the text read or, for a value that decoding changed, into the payload's
// own buffer: a ReadPayload is good while both live.
struct ReadField {
  std::string_view key;
  std::string_view value;  // decoded: percent escapes, ^040 and ^041 resolved
  std::size_t offset = 0;  // of the value's first byte in the text
  std::size_t length = 0;  // of the value as written in the text

  bool operator==(const ReadField&) const = default;
};

struct ReadPayload {
  PayloadForm form = PayloadForm::ScannerData;
  std::string_view symbologyIdentifier;  // "]d2"; empty when the text starts without one
  // The AIs in the order of the text. A Digital Link: the primary key, the
  // path's qualifiers, then the query's AIs; pathAis says how many came from
  // the path.
  std::vector<ReadField> ais;
  std::size_t pathAis = 0;
  std::string_view stem;  // a Digital Link: the text before the primary key's "/<ai>/"
  std::vector<ReadField> extensionParameters;
  std::optional<ReadField> linkType;
  std::optional<ReadField> context;

  ReadPayload() = default;
  ReadPayload(ReadPayload&&) = default;
  ReadPayload& operator=(ReadPayload&&) = default;
  // A copy's decoded values would still point into this payload's buffer.
  ReadPayload(const ReadPayload&) = delete;
  ReadPayload& operator=(const ReadPayload&) = delete;

  bool operator==(const ReadPayload& other) const;

  // Room for the decoded values of a text of `textSize` bytes (decoding never
  // lengthens a value), kept from payload to payload; and a value placed in it.
  void makeRoomForDecoding(std::size_t textSize);
  char* decodedEnd() { return decoded_.get() + decodedUsed_; }
  std::string_view keepDecoded(std::size_t size) {
    const std::string_view value(decoded_.get() + decodedUsed_, size);
    decodedUsed_ += size;
    return value;
  }

 private:
  // Moves keep the heap block, so views into it survive a move.
  std::unique_ptr<char[]> decoded_;
  std::size_t decodedCapacity_ = 0;
  std::size_t decodedUsed_ = 0;
};

// Why a text is none of the forms. `offset` is where reading stopped;
// `detail` names what was found there (an AI, an identifier, a parameter).
struct ReadFault {
  enum class Kind {
    Empty,                  // no text at all
    Unrecognised,           // text that starts as none of the forms (no scheme, '(' or digit)
    SymbologyIdentifier,    // "]" not followed by a letter and a digit, or one that names no GS1 data
    CompressedDigitalLink,  // a Digital Link URI whose path is compressed (binary, base64url)
    NoPrimaryKey,           // a URI with no /<primary key>/<value> at the end of its path
    UriSyntax,              // a character no URI holds, a malformed %XX escape or one decoding to no UTF-8 text,
                            // a query parameter without a key or '=', one not an AI given twice (a fragment is
                            // read past, as a resolver does)
    UnknownAi,              // digits at `offset` that begin no AI of the dictionary
    Bracket,                // text before the first '(', a '(' without ')', no digits between them
    Truncated,              // a value shorter than its AI's fixed length at the end of the text
    EmptyValue,             // an AI with no value
  };
  Kind kind = Kind::Empty;
  std::size_t offset = 0;
  std::string detail;

  bool operator==(const ReadFault&) const = default;
};

// Reads `text` with the AIs of `rules` into `payload` (its buffers reused);
// false with `fault` set when the text is none of the forms (`payload` then
// holds what was read before the fault).
bool readPayload(const Snapshot& rules, std::string_view text, ReadPayload& payload, ReadFault& fault);

// The same into a new ReadPayload; nullopt when the text is none of the forms.
std::optional<ReadPayload> readPayload(const Snapshot& rules, std::string_view text, ReadFault& fault);

}  // namespace codepayload
