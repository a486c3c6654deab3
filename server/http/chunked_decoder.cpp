#include "server/http/chunked_decoder.h"

#include <algorithm>

#include "common/ascii.h"
#include "server/http/http_head.h"

namespace codepayload::server {

namespace {

// 15 hex digits are far past any body limit and cannot overflow.
constexpr std::size_t kMaxSizeDigits = 15;

}  // namespace

std::size_t ChunkedDecoder::feed(std::string_view input, std::string* out, std::size_t limit) {
  std::size_t index = 0;
  while (index < input.size() && state_ == State::NeedMore) {
    if (step_ == Step::Data) {
      const auto take = static_cast<std::size_t>(std::min<std::uint64_t>(remaining_, input.size() - index));
      if (out != nullptr) out->append(input.data() + index, take);
      index += take;
      remaining_ -= take;
      bodyBytes_ += take;
      if (remaining_ == 0) step_ = Step::DataCr;
      continue;
    }
    const char c = input[index++];
    switch (step_) {
      case Step::Size:
      case Step::Extension:
      case Step::SizeLf: sizeLine(c, limit); break;
      case Step::TrailerStart:
      case Step::Trailer:
      case Step::TrailerLf: trailers(c); break;
      case Step::Data:
      case Step::DataCr:
      case Step::DataLf:
      case Step::FinalLf: lineEnd(c); break;
    }
  }
  return index;
}

void ChunkedDecoder::sizeLine(char c, std::size_t limit) {
  switch (step_) {
    case Step::Size: {
      const int digit = common::hexDigitValue(c);
      if (digit >= 0) {
        if (++sizeDigits_ > kMaxSizeDigits) {
          fail();
          return;
        }
        chunkSize_ = chunkSize_ * 16 + static_cast<std::uint64_t>(digit);
      } else if (sizeDigits_ > 0 && (c == ';' || c == ' ' || c == '\t')) {
        step_ = Step::Extension;
      } else if (sizeDigits_ > 0 && c == '\r') {
        step_ = Step::SizeLf;
      } else {
        fail();
      }
      lineBytes_ = sizeDigits_;
      return;
    }
    case Step::Extension:
      if (c == '\r') {
        step_ = Step::SizeLf;
      } else if (!isFieldValueChar(c) || ++lineBytes_ > kMaxSizeLine) {
        fail();
      }
      return;
    default:  // Step::SizeLf
      if (c != '\n') {
        fail();
      } else if (chunkSize_ == 0) {
        step_ = Step::TrailerStart;
        lineBytes_ = 0;
      } else if (chunkSize_ > limit - std::min<std::uint64_t>(bodyBytes_, limit)) {
        state_ = State::TooLarge;
      } else {
        remaining_ = chunkSize_;
        step_ = Step::Data;
      }
      return;
  }
}

void ChunkedDecoder::trailers(char c) {
  switch (step_) {
    case Step::TrailerStart:
      if (c == '\r') {
        step_ = Step::FinalLf;
      } else if (isTokenChar(c)) {
        step_ = Step::Trailer;
        trailerNameDone_ = false;
      } else {
        fail();
      }
      return;
    case Step::Trailer:
      if (++lineBytes_ > kMaxTrailerBytes) {
        fail();
      } else if (!trailerNameDone_) {
        if (c == ':') {
          trailerNameDone_ = true;
        } else if (!isTokenChar(c)) {
          fail();
        }
      } else if (c == '\r') {
        step_ = Step::TrailerLf;
      } else if (!isFieldValueChar(c)) {
        fail();
      }
      return;
    default:  // Step::TrailerLf
      if (c == '\n') {
        step_ = Step::TrailerStart;
      } else {
        fail();
      }
      return;
  }
}

void ChunkedDecoder::lineEnd(char c) {
  switch (step_) {
    case Step::DataCr:
      if (c == '\r') {
        step_ = Step::DataLf;
      } else {
        fail();
      }
      return;
    case Step::DataLf:
      if (c == '\n') {
        step_ = Step::Size;
        chunkSize_ = 0;
        sizeDigits_ = 0;
      } else {
        fail();
      }
      return;
    default:  // Step::FinalLf (Step::Data never gets here)
      if (c == '\n') {
        state_ = State::Complete;
      } else {
        fail();
      }
      return;
  }
}

}  // namespace codepayload::server
