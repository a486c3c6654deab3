// Bodies that are not a CodesRequest are refused as a whole with a RequestError
// naming the offending field ("" for the body itself); well-formed bodies are
// not. The rules behind the engine do not matter here; the release source is used.
#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "tests/cases/case_rules.h"

namespace codepayload::cases {
namespace {

using Kind = RequestError::Kind;

struct RefusedBody {
  const char* name;
  std::string body;
  std::optional<Kind> kind;  // unset: the kind is not pinned (unknown and repeated fields)
  const char* path;
};

// A definition with every required field, to build bodies around.
const std::string kItem = R"({"primaryKey":{"key":"01","value":"09506000134352"},"ais":[],"extensionParameters":[]})";

std::vector<RefusedBody> refusedBodies() {
  return {
      {"empty_body", "", Kind::InvalidJson, ""},
      {"not_json", "hello", Kind::InvalidJson, ""},
      {"unterminated_object", "{", Kind::InvalidJson, ""},
      {"unterminated_string", R"({"codes":[{"reference":"abc)", Kind::InvalidJson, ""},
      {"invalid_utf8",
       "{\"codes\":[{\"reference\":\"\xff\",\"primaryKey\":{\"key\":\"01\",\"value\":\"1\"},"
       "\"ais\":[],\"extensionParameters\":[]}]}",
       Kind::InvalidJson, ""},
      {"byte_order_mark",
       "\xEF\xBB\xBF"
       R"({"codes":[]})",
       Kind::InvalidJson, ""},
      {"nul_after_body", std::string(R"({"codes":[]})") + std::string(1, '\0'), Kind::InvalidJson, ""},
      {"control_character_in_string",
       std::string(R"({"codes":[{"reference":"a)") + std::string(1, '\x01') +
           R"(b","primaryKey":{"key":"01","value":"1"},"ais":[],"extensionParameters":[]}]})",
       Kind::InvalidJson, ""},
      {"trailing_comma_in_object", R"({"codes":[],})", Kind::InvalidJson, ""},
      {"trailing_comma_in_codes", R"({"codes":[)" + kItem + R"(,]})", Kind::InvalidJson, "codes.1"},
      {"missing_comma_between_definitions", R"({"codes":[)" + kItem + kItem + R"(]})", Kind::InvalidJson, "codes.1"},
      {"bad_escape_in_string",
       R"({"codes":[{"reference":"a\x","primaryKey":{"key":"01","value":"1"},"ais":[],"extensionParameters":[]}]})",
       Kind::InvalidJson, "codes.0.reference"},
      {"lone_surrogate_escape",
       R"({"codes":[{"reference":"\ud800","primaryKey":{"key":"01","value":"1"},"ais":[],"extensionParameters":[]}]})",
       Kind::InvalidJson, "codes.0.reference"},
      {"trailing_word", R"({"codes":[]} x)", Kind::InvalidJson, ""},
      {"trailing_object", R"({"codes":[]}{})", Kind::InvalidJson, ""},
      {"body_is_array", "[]", Kind::WrongType, ""},
      {"body_is_string", R"("codes")", Kind::WrongType, ""},
      {"body_is_null", "null", Kind::WrongType, ""},
      {"missing_codes", "{}", Kind::MissingField, "codes"},
      {"codes_object", R"({"codes":{}})", Kind::WrongType, "codes"},
      {"codes_null", R"({"codes":null})", Kind::WrongType, "codes"},
      {"codes_string", R"({"codes":"[]"})", Kind::WrongType, "codes"},
      {"definition_number", R"({"codes":[1]})", Kind::WrongType, "codes.0"},
      {"definition_null", R"({"codes":[null]})", Kind::WrongType, "codes.0"},
      {"second_definition_array", R"({"codes":[)" + kItem + R"(,[]]})", Kind::WrongType, "codes.1"},
      {"missing_primary_key", R"({"codes":[{"ais":[],"extensionParameters":[]}]})", Kind::MissingField,
       "codes.0.primaryKey"},
      {"missing_ais", R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"extensionParameters":[]}]})",
       Kind::MissingField, "codes.0.ais"},
      {"missing_extension_parameters", R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"ais":[]}]})",
       Kind::MissingField, "codes.0.extensionParameters"},
      {"missing_fields_in_second_definition", R"({"codes":[)" + kItem + R"(,{"primaryKey":{"key":"01","value":"1"}}]})",
       Kind::MissingField, "codes.1.ais"},
      {"missing_primary_key_value", R"({"codes":[{"primaryKey":{"key":"01"},"ais":[],"extensionParameters":[]}]})",
       Kind::MissingField, "codes.0.primaryKey.value"},
      {"missing_ai_key",
       R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"ais":[{"key":"10","value":"A"},{"value":"B"}],"extensionParameters":[]}]})",
       Kind::MissingField, "codes.0.ais.1.key"},
      {"missing_extension_parameter_value",
       R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"ais":[],"extensionParameters":[{"key":"a"}]}]})",
       Kind::MissingField, "codes.0.extensionParameters.0.value"},
      {"primary_key_null", R"({"codes":[{"primaryKey":null,"ais":[],"extensionParameters":[]}]})", Kind::WrongType,
       "codes.0.primaryKey"},
      {"primary_key_key_null",
       R"({"codes":[{"primaryKey":{"key":null,"value":"1"},"ais":[],"extensionParameters":[]}]})", Kind::WrongType,
       "codes.0.primaryKey.key"},
      {"ai_entry_null", R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"ais":[null],"extensionParameters":[]}]})",
       Kind::WrongType, "codes.0.ais.0"},
      {"primary_key_string", R"({"codes":[{"primaryKey":"01","ais":[],"extensionParameters":[]}]})", Kind::WrongType,
       "codes.0.primaryKey"},
      {"primary_key_value_number",
       R"({"codes":[{"primaryKey":{"key":"01","value":9506000134352},"ais":[],"extensionParameters":[]}]})",
       Kind::WrongType, "codes.0.primaryKey.value"},
      {"ai_key_number",
       R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"ais":[{"key":10,"value":"A"}],"extensionParameters":[]}]})",
       Kind::WrongType, "codes.0.ais.0.key"},
      {"ais_null", R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"ais":null,"extensionParameters":[]}]})",
       Kind::WrongType, "codes.0.ais"},
      {"ais_object",
       R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"ais":{"key":"10","value":"A"},"extensionParameters":[]}]})",
       Kind::WrongType, "codes.0.ais"},
      {"ai_entry_string",
       R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"ais":["10"],"extensionParameters":[]}]})", Kind::WrongType,
       "codes.0.ais.0"},
      {"extension_parameters_null",
       R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"ais":[],"extensionParameters":null}]})", Kind::WrongType,
       "codes.0.extensionParameters"},
      {"extension_parameter_value_bool",
       R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"ais":[],"extensionParameters":[{"key":"a","value":true}]}]})",
       Kind::WrongType, "codes.0.extensionParameters.0.value"},
      {"reference_number",
       R"({"codes":[{"reference":7,"primaryKey":{"key":"01","value":"1"},"ais":[],"extensionParameters":[]}]})",
       Kind::WrongType, "codes.0.reference"},
      {"stem_array",
       R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"ais":[],"extensionParameters":[],"digitalLinkStem":[]}]})",
       Kind::WrongType, "codes.0.digitalLinkStem"},
      {"link_type_bool",
       R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"ais":[],"extensionParameters":[],"linkType":false}]})",
       Kind::WrongType, "codes.0.linkType"},
      {"context_object",
       R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"ais":[],"extensionParameters":[],"context":{}}]})",
       Kind::WrongType, "codes.0.context"},
      {"unknown_root_field", R"({"codes":[],"items":[]})", std::nullopt, "items"},
      {"unknown_definition_field",
       R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"ais":[],"extensionParameters":[],"gtin":"1"}]})",
       std::nullopt, "codes.0.gtin"},
      {"unknown_ai_field",
       R"({"codes":[{"primaryKey":{"key":"01","value":"1","title":"GTIN"},"ais":[],"extensionParameters":[]}]})",
       std::nullopt, "codes.0.primaryKey.title"},
      {"field_in_wrong_case",
       R"({"codes":[{"primarykey":{"key":"01","value":"1"},"ais":[],"extensionParameters":[]}]})", std::nullopt,
       "codes.0.primarykey"},
      {"repeated_root_field", R"({"codes":[],"codes":[]})", std::nullopt, "codes"},
      {"repeated_definition_field",
       R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"primaryKey":{"key":"00","value":"1"},"ais":[],"extensionParameters":[]}]})",
       std::nullopt, "codes.0.primaryKey"},
      {"repeated_ai_field",
       R"({"codes":[{"primaryKey":{"key":"01","value":"1"},"ais":[{"key":"10","key":"21","value":"A"}],"extensionParameters":[]}]})",
       std::nullopt, "codes.0.ais.0.key"},
      {"repeated_null_reference",
       R"({"codes":[{"reference":null,"reference":"a","primaryKey":{"key":"01","value":"1"},"ais":[],"extensionParameters":[]}]})",
       std::nullopt, "codes.0.reference"},
  };
}

void PrintTo(const RefusedBody& refused, std::ostream* out) { *out << refused.name; }

class RefusedBodyTest : public ::testing::TestWithParam<RefusedBody> {};

TEST_P(RefusedBodyTest, IsRefusedWithThePathOfTheFault) {
  const RuleSource& source = releaseRuleSource();
  ASSERT_NE(source.engine, nullptr) << source.error;
  const RefusedBody& refused = GetParam();
  std::string out = "left over";
  RequestError error{};
  ASSERT_FALSE(source.engine->generateJson(refused.body, out, error)) << "accepted, response: " << out;
  EXPECT_EQ(error.path, refused.path) << error.message;
  if (refused.kind) {
    EXPECT_EQ(error.kind, *refused.kind) << error.message;
  }
  EXPECT_FALSE(error.message.empty());
  EXPECT_EQ(out, "");
}

std::string refusedBodyName(const ::testing::TestParamInfo<RefusedBody>& body) { return body.param.name; }

INSTANTIATE_TEST_SUITE_P(Bodies, RefusedBodyTest, ::testing::ValuesIn(refusedBodies()), refusedBodyName);

TEST(RequestBodies, TooManyDefinitionsAreRefusedAtCodes) {
  const RuleSource& source = releaseRuleSource();
  ASSERT_NE(source.rules, nullptr) << source.error;
  PayloadEngine engine(*source.rules, EngineLimits{2});
  std::string out;
  RequestError error{};
  ASSERT_FALSE(engine.generateJson(R"({"codes":[)" + kItem + "," + kItem + "," + kItem + "]}", out, error));
  EXPECT_EQ(error.kind, Kind::TooManyItems);
  EXPECT_EQ(error.path, "codes");
}

TEST(RequestBodies, TheLimitItselfIsAccepted) {
  const RuleSource& source = releaseRuleSource();
  ASSERT_NE(source.rules, nullptr) << source.error;
  PayloadEngine engine(*source.rules, EngineLimits{2});
  std::string out;
  RequestError error{};
  ASSERT_TRUE(engine.generateJson(R"({"codes":[)" + kItem + "," + kItem + "]}", out, error)) << error.message;
  EXPECT_EQ(out, R"({"codes":[{"reference":"0","barcodeText":"(01)09506000134352","hri":"(01)09506000134352"},)"
                 R"({"reference":"1","barcodeText":"(01)09506000134352","hri":"(01)09506000134352"}],"failures":[]})");
}

TEST(RequestBodies, AnEmptyBatchIsAValidRequest) {
  const RuleSource& source = releaseRuleSource();
  ASSERT_NE(source.engine, nullptr) << source.error;
  std::string out;
  RequestError error{};
  ASSERT_TRUE(source.engine->generateJson(" {\"codes\" : [ ]}\n\t ", out, error)) << error.message;
  EXPECT_EQ(out, R"({"codes":[],"failures":[]})");
}

TEST(RequestBodies, EscapedFieldNamesAndNullOptionalsAreAccepted) {
  const RuleSource& source = releaseRuleSource();
  ASSERT_NE(source.engine, nullptr) << source.error;
  std::string out;
  RequestError error{};
  ASSERT_TRUE(source.engine->generateJson(
      R"({"co\u0064es":[{"reference":null,"primaryKey":{"key":"01","value":"09506000134352"},"ais":[],)"
      R"("extensionParameters":[],"digitalLinkStem":null,"linkType":null,"context":null}]})",
      out, error))
      << error.message;
  EXPECT_EQ(
      out,
      R"({"codes":[{"reference":"0","barcodeText":"(01)09506000134352","hri":"(01)09506000134352"}],"failures":[]})");
}

}  // namespace
}  // namespace codepayload::cases
