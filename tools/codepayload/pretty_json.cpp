#include "tools/codepayload/pretty_json.h"

namespace codepayload::cli {

void PrettyJson::newLine(std::string& out) const {
  out += '\n';
  out.append(2 * depth_, ' ');
}

void PrettyJson::feed(std::string_view piece, std::string& out) {
  for (const char c : piece) {
    if (inString_) {
      out += c;
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        inString_ = false;
      }
      continue;
    }
    if (afterOpen_) {
      afterOpen_ = false;
      if (c == '}' || c == ']') {
        --depth_;
        out += c;
        continue;
      }
      newLine(out);
    }
    switch (c) {
      case '"':
        inString_ = true;
        out += c;
        break;
      case '{':
      case '[':
        out += c;
        ++depth_;
        afterOpen_ = true;
        break;
      case '}':
      case ']':
        --depth_;
        newLine(out);
        out += c;
        break;
      case ',':
        out += c;
        newLine(out);
        break;
      case ':': out += ": "; break;
      case ' ':
      case '\t':
      case '\n':
      case '\r': break;
      default: out += c;
    }
  }
}

void PrettyJsonSink::write(std::string_view piece) {
  buffer_.clear();
  pretty_.feed(piece, buffer_);
  if (!buffer_.empty()) next_.write(buffer_);
}

}  // namespace codepayload::cli
