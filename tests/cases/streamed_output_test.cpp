// PayloadEngine::generateJson and parseJson with an OutputSink: the pieces, put
// together, are byte for byte the string overload's response, for every body of
// tests/cases/*.json and tests/cases/parse/*.json, and for large batches, whatever the piece size and the
// failure buffer; a refused body writes nothing; a sink that throws leaves the
// engine ready for the next request.
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/payload_engine.h"
#include "tests/cases/case_loader.h"
#include "tests/cases/case_rules.h"

namespace codepayload::cases {
namespace {

// Keeps every piece as written.
class RecordingSink final : public OutputSink {
 public:
  void write(std::string_view piece) override { pieces.emplace_back(piece); }

  std::string joined() const {
    std::string text;
    for (const std::string& piece : pieces) text += piece;
    return text;
  }
  std::size_t largestPiece() const {
    std::size_t largest = 0;
    for (const std::string& piece : pieces) largest = std::max(largest, piece.size());
    return largest;
  }
  bool anyEmpty() const {
    return std::any_of(pieces.begin(), pieces.end(), [](const std::string& piece) { return piece.empty(); });
  }

  std::vector<std::string> pieces;
};

SnapshotHolder& baselineRules() {
  const RuleSource& source = baselineRuleSource();
  if (source.rules == nullptr) throw std::runtime_error("baseline rules: " + source.error);
  return *source.rules;
}

EngineLimits limitsWith(std::size_t pieceBytes, std::size_t bufferedFailureBytes) {
  EngineLimits limits;
  limits.outputPieceBytes = pieceBytes;
  limits.bufferedFailureBytes = bufferedFailureBytes;
  return limits;
}

// The string overload's response and counts, with default limits.
struct WholeResponse {
  std::string text;
  GenerateCounts counts;
};

WholeResponse wholeResponse(const std::string& body, Operation operation = Operation::Generate) {
  PayloadEngine engine(baselineRules());
  WholeResponse whole;
  RequestError error{};
  if (!runOperation(engine, operation, body, whole.text, error, &whole.counts)) {
    throw std::runtime_error("refused at \"" + error.path + "\": " + error.message);
  }
  return whole;
}

void expectStreamedEqualsWhole(const std::string& body, const EngineLimits& limits, RecordingSink& sink,
                               Operation operation = Operation::Generate) {
  const WholeResponse whole = wholeResponse(body, operation);
  PayloadEngine engine(baselineRules(), limits);
  RequestError error{};
  GenerateCounts counts;
  ASSERT_TRUE(runOperation(engine, operation, body, sink, error, &counts)) << error.message;
  EXPECT_EQ(sink.joined(), whole.text);
  EXPECT_EQ(counts.codes, whole.counts.codes);
  EXPECT_EQ(counts.failures, whole.counts.failures);
  EXPECT_FALSE(sink.anyEmpty());
}

class StreamedCase : public ::testing::TestWithParam<PayloadCase> {};

TEST_P(StreamedCase, PiecesJoinToTheStringResponseWithDefaultLimitsInOnePiece) {
  ASSERT_TRUE(GetParam().loadError.empty()) << GetParam().loadError;
  RecordingSink sink;
  expectStreamedEqualsWhole(GetParam().requestText, EngineLimits{}, sink, GetParam().operation);
  EXPECT_EQ(sink.pieces.size(), 1u);  // every case's response is far below 64 KiB
}

TEST_P(StreamedCase, PiecesJoinToTheStringResponseWhenEveryItemIsAPieceAndEveryFailureIsGeneratedAgain) {
  ASSERT_TRUE(GetParam().loadError.empty()) << GetParam().loadError;
  RecordingSink sink;
  expectStreamedEqualsWhole(GetParam().requestText, limitsWith(1, 0), sink, GetParam().operation);
}

TEST_P(StreamedCase, PiecesJoinToTheStringResponseWhenSomeFailuresAreKeptAndSomeGeneratedAgain) {
  ASSERT_TRUE(GetParam().loadError.empty()) << GetParam().loadError;
  RecordingSink sink;
  expectStreamedEqualsWhole(GetParam().requestText, limitsWith(100, 150), sink, GetParam().operation);
}

std::string caseName(const ::testing::TestParamInfo<PayloadCase>& info) { return info.param.testName(); }

INSTANTIATE_TEST_SUITE_P(Cases, StreamedCase, ::testing::ValuesIn(loadPayloadCases(CODEPAYLOAD_CASES_DIR)), caseName);

// `items` definitions: every third one valid, the others failing (a wrong
// check digit, an unknown AI), each with a reference or, every fifth, without.
std::string mixedBatch(std::size_t items) {
  std::string body = R"({"codes":[)";
  for (std::size_t index = 0; index < items; ++index) {
    if (index != 0) body += ',';
    body += '{';
    if (index % 5 != 0) body += R"("reference":"item-)" + std::to_string(index) + R"(",)";
    if (index % 3 == 0) {
      body += R"("primaryKey":{"key":"01","value":"09506000134352"},"ais":[{"key":"10","value":"L)" +
              std::to_string(index) + R"("}],"extensionParameters":[]})";
    } else {
      body += R"("primaryKey":{"key":"01","value":"09506000134353"},"ais":[{"key":"99999","value":"x"}],)"
              R"("extensionParameters":[]})";
    }
  }
  return body + "]}";
}

TEST(StreamedOutput, LargeBatchComesInPiecesOfAboutThePieceSizeAndJoinsToTheStringResponse) {
  const std::string body = mixedBatch(12000);
  const WholeResponse whole = wholeResponse(body);
  ASSERT_EQ(whole.counts.codes, 4000u);
  ASSERT_EQ(whole.counts.failures, 8000u);
  ASSERT_GT(whole.text.size(), 2u * 1024 * 1024);  // more failure text than the 1 MiB kept

  RecordingSink sink;
  expectStreamedEqualsWhole(body, EngineLimits{}, sink);
  // Pieces are cut at item boundaries once 64 KiB wait (so at most one item
  // more), and the kept failures in slices of 64 KiB.
  EXPECT_LE(sink.largestPiece(), 64u * 1024 + 1024);
  EXPECT_GE(sink.pieces.size(), whole.text.size() / (64 * 1024 + 1024));
}

TEST(StreamedOutput, RefusedBodiesWriteNothing) {
  EngineLimits limits;
  limits.maxItems = 2;
  PayloadEngine engine(baselineRules(), limits);
  const std::string item = R"({"primaryKey":{"key":"01","value":"09506000134352"},"ais":[],"extensionParameters":[]})";
  struct Refused {
    std::string body;
    RequestError::Kind kind;
  };
  for (const Refused& refused :
       {Refused{"{\"codes\":[" + item + "," + item + "," + item + "]}", RequestError::Kind::TooManyItems},
        Refused{"{\"codes\":[" + item + "," + item + "] x", RequestError::Kind::InvalidJson},
        Refused{"{\"codes\":[" + item + ",{\"ais\":[]}]}", RequestError::Kind::MissingField},
        Refused{"{\"codes\":[" + item + ",{\"reference\":1}]}", RequestError::Kind::WrongType}}) {
    RecordingSink sink;
    RequestError error{};
    EXPECT_FALSE(engine.generateJson(refused.body, sink, error)) << refused.body;
    EXPECT_EQ(error.kind, refused.kind) << refused.body;
    EXPECT_TRUE(sink.pieces.empty()) << refused.body;
  }
}

// Stops the response after a number of pieces, as a sink whose peer went away.
class FailingSink final : public OutputSink {
 public:
  explicit FailingSink(int piecesBeforeFailing) : left_(piecesBeforeFailing) {}
  void write(std::string_view) override {
    if (left_-- == 0) throw std::runtime_error("peer gone");
  }

 private:
  int left_;
};

TEST(StreamedOutput, ASinkThatThrowsEndsTheRequestAndTheNextRequestIsWhole) {
  const std::string body = mixedBatch(3000);
  PayloadEngine engine(baselineRules(), limitsWith(1024, 4096));
  FailingSink failing(3);
  RequestError error{};
  EXPECT_THROW(engine.generateJson(body, failing, error), std::runtime_error);

  RecordingSink sink;
  expectStreamedEqualsWhole(body, limitsWith(1024, 4096), sink);
}

}  // namespace
}  // namespace codepayload::cases
