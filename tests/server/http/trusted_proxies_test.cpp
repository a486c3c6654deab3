#include "server/http/trusted_proxies.h"

#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace codepayload::server {
namespace {

using Poco::Net::IPAddress;
using Headers = std::vector<std::string_view>;

std::string clientOf(const TrustedProxies& proxies, const std::string& peer, ForwardedHeader header,
                     const Headers& values) {
  return forwardedClient(proxies, IPAddress(peer), header, values);
}

constexpr ForwardedHeader kXff = ForwardedHeader::XForwardedFor;
constexpr ForwardedHeader kForwarded = ForwardedHeader::Forwarded;

std::string parseError(std::string_view list) {
  try {
    TrustedProxies::parse(list);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "no error";
}

TEST(TrustedProxiesParse, ReadsBlocksAndHostsAndClearsHostBits) {
  const TrustedProxies proxies = TrustedProxies::parse(" 10.1.2.3/8 , 192.168.1.7,fd00::1/8, ::ffff:172.16.0.1/120 ");
  EXPECT_EQ(proxies.text(), (std::vector<std::string>{"10.0.0.0/8", "192.168.1.7/32", "fd00::/8", "172.16.0.0/24"}));
}

TEST(TrustedProxiesParse, EmptyTextTrustsNobody) {
  EXPECT_TRUE(TrustedProxies::parse("").empty());
  EXPECT_TRUE(TrustedProxies::parse("  ").empty());
  EXPECT_FALSE(TrustedProxies::parse("").contains(IPAddress("127.0.0.1")));
}

TEST(TrustedProxiesParse, RefusesWhatIsNoBlock) {
  EXPECT_EQ(parseError("10.0.0.0/33"), "not an IP address or CIDR block: 10.0.0.0/33");
  EXPECT_EQ(parseError("fd00::/129"), "not an IP address or CIDR block: fd00::/129");
  EXPECT_EQ(parseError("proxy.example"), "not an IP address or CIDR block: proxy.example");
  EXPECT_EQ(parseError("10.0.0.0/"), "not an IP address or CIDR block: 10.0.0.0/");
  EXPECT_EQ(parseError("10.0.0.0/8x"), "not an IP address or CIDR block: 10.0.0.0/8x");
  EXPECT_EQ(parseError("10.0.0.1,,10.0.0.2"), "not an IP address or CIDR block: ");
  EXPECT_EQ(parseError("fe80::1%eth0"), "not an IP address or CIDR block: fe80::1%eth0");
  EXPECT_EQ(parseError("::ffff:10.0.0.0/95"), "not an IP address or CIDR block: ::ffff:10.0.0.0/95");
}

TEST(TrustedProxiesContains, MatchesWithinThePrefixOnly) {
  const TrustedProxies proxies = TrustedProxies::parse("10.0.0.0/8, 192.168.1.7, fd00::/8");
  EXPECT_TRUE(proxies.contains(IPAddress("10.255.0.1")));
  EXPECT_FALSE(proxies.contains(IPAddress("11.0.0.1")));
  EXPECT_TRUE(proxies.contains(IPAddress("192.168.1.7")));
  EXPECT_FALSE(proxies.contains(IPAddress("192.168.1.8")));
  EXPECT_TRUE(proxies.contains(IPAddress("fd12:3456::1")));
  EXPECT_FALSE(proxies.contains(IPAddress("fe00::1")));
  EXPECT_TRUE(proxies.contains(IPAddress("::ffff:10.9.8.7")));  // IPv4-mapped: as IPv4
  EXPECT_FALSE(proxies.contains(IPAddress("::ffff:11.9.8.7")));
}

TEST(TrustedProxiesContains, ZeroPrefixTrustsTheWholeFamily) {
  const TrustedProxies proxies = TrustedProxies::parse("0.0.0.0/0");
  EXPECT_TRUE(proxies.contains(IPAddress("203.0.113.9")));
  EXPECT_FALSE(proxies.contains(IPAddress("2001:db8::1")));
}

TEST(ForwardedHeaderNames, AreTheTwoHeadersInAnyLetterCaseAndNothingElse) {
  EXPECT_EQ(forwardedHeaderName(kXff), "X-Forwarded-For");
  EXPECT_EQ(forwardedHeaderName(kForwarded), "Forwarded");
  EXPECT_EQ(forwardedHeaderNamed("X-Forwarded-For"), kXff);
  EXPECT_EQ(forwardedHeaderNamed("x-forwarded-for"), kXff);
  EXPECT_EQ(forwardedHeaderNamed("Forwarded"), kForwarded);
  EXPECT_EQ(forwardedHeaderNamed("FORWARDED"), kForwarded);
  for (const std::string_view other :
       {"", " Forwarded", "Forwarded ", "X-Forwarded", "X-Real-IP", "X-Forwarded-For,", "Forwarded-For", "both"}) {
    EXPECT_EQ(forwardedHeaderNamed(other), std::nullopt) << other;
  }
}

class ForwardedClient : public ::testing::Test {
 protected:
  const TrustedProxies proxies = TrustedProxies::parse("10.0.0.0/8, fd00::/8");
};

TEST_F(ForwardedClient, SpoofedHeadersFromAnUntrustedPeerChangeNothing) {
  EXPECT_EQ(clientOf(proxies, "203.0.113.9", kXff, {"198.51.100.1"}), "203.0.113.9");
  EXPECT_EQ(clientOf(proxies, "203.0.113.9", kXff, {"198.51.100.2, 10.0.0.1"}), "203.0.113.9");
  EXPECT_EQ(clientOf(proxies, "203.0.113.9", kForwarded, {"for=198.51.100.1"}), "203.0.113.9");
  EXPECT_EQ(clientOf(TrustedProxies(), "10.0.0.1", kXff, {"198.51.100.2"}), "10.0.0.1");
  EXPECT_EQ(clientOf(TrustedProxies(), "10.0.0.1", kForwarded, {"for=198.51.100.1"}), "10.0.0.1");
}

TEST_F(ForwardedClient, TrustedPeerWithoutHeadersIsTheClient) {
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kXff, {}), "10.0.0.1");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kForwarded, {}), "10.0.0.1");
}

TEST_F(ForwardedClient, XForwardedForGivesTheRightMostUntrustedHop) {
  // The left-most entry is whatever the client sent: only the hops trusted
  // proxies appended count.
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kXff, {"1.1.1.1, 198.51.100.7, 10.0.0.2"}), "198.51.100.7");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kXff, {"1.1.1.1", "198.51.100.7,10.0.0.2"}), "198.51.100.7");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kXff, {"198.51.100.7:4711"}), "198.51.100.7");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kXff, {"2001:db8::17"}), "2001:db8::17");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kXff, {"[2001:db8::17]:4711"}), "2001:db8::17");
}

TEST_F(ForwardedClient, AChainOfOnlyTrustedHopsGivesTheLeftMost) {
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kXff, {"10.0.0.3, 10.0.0.2"}), "10.0.0.3");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kForwarded, {"for=10.0.0.3, for=10.0.0.2"}), "10.0.0.3");
}

TEST_F(ForwardedClient, ForwardedGivesTheRightMostUntrustedForParameter) {
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kForwarded, {"for=198.51.100.7;proto=https"}), "198.51.100.7");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kForwarded, {"For=\"[2001:db8:cafe::17]:4711\", for=10.0.0.2"}),
            "2001:db8:cafe::17");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kForwarded, {"for=1.1.1.1", "for=198.51.100.7;by=10.0.0.1"}), "198.51.100.7");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kForwarded, {"proto=https;for=\"198.51.100.7:80\""}), "198.51.100.7");
  // What HAProxy's "option forwarded" (2.7 and later) makes of a client's own
  // Forwarded: its element appended after a comma.
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kForwarded, {"for=203.0.113.1,proto=http;for=198.51.100.7"}), "198.51.100.7");
}

TEST_F(ForwardedClient, EachHeadersValuesAreReadInItsOwnSyntaxOnly) {
  // A Forwarded element is no X-Forwarded-For address, nor the reverse: a
  // proxy writing the other header than the setting names gives no client.
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kXff, {"for=198.51.100.7"}), "10.0.0.1");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kForwarded, {"198.51.100.7"}), "10.0.0.1");
}

TEST_F(ForwardedClient, AnUnreadableHopStopsAtTheLastTrustedOne) {
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kForwarded, {"for=unknown"}), "10.0.0.1");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kForwarded, {"for=_hidden, for=10.0.0.2"}), "10.0.0.2");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kForwarded, {"by=10.0.0.1"}), "10.0.0.1");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kXff, {"198.51.100.7, client.example"}), "10.0.0.1");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kXff, {"198.51.100.7, "}), "10.0.0.1");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", kXff, {"fe80::1%eth0"}), "10.0.0.1");
}

TEST_F(ForwardedClient, IPv4MappedAddressesAreTheirIPv4Form) {
  EXPECT_EQ(clientOf(proxies, "::ffff:10.0.0.1", kXff, {"::ffff:198.51.100.7"}), "198.51.100.7");
  EXPECT_EQ(clientOf(proxies, "::ffff:203.0.113.9", kXff, {"198.51.100.7"}), "::ffff:203.0.113.9");
}

}  // namespace
}  // namespace codepayload::server
