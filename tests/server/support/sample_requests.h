// The /codes bodies the HTTP tests send most, with their exact answers.
#pragma once

namespace codepayload::server::testing {

// One GTIN, valid under every release.
inline constexpr const char* kOneItem =
    R"({"codes":[{"primaryKey":{"key":"01","value":"09506000134352"},"ais":[],"extensionParameters":[]}]})";
inline constexpr const char* kOneItemResponse =
    R"({"codes":[{"reference":"0","barcodeText":"(01)09506000134352","hri":"(01)09506000134352"}],"failures":[]})";

// Two good items and one with a wrong check digit.
inline constexpr const char* kMixedBatch =
    R"({"codes":[)"
    R"({"reference":"ok-dl","primaryKey":{"key":"01","value":"9506000134352"},"ais":[{"key":"10","value":"ABC1"}],)"
    R"("extensionParameters":[],"digitalLinkStem":"https://id.example.com/"},)"
    R"({"primaryKey":{"key":"01","value":"09506000134353"},"ais":[],"extensionParameters":[]},)"
    R"({"reference":null,"primaryKey":{"key":"01","value":"09506000134352"},"ais":[],"extensionParameters":[]}]})";

}  // namespace codepayload::server::testing
