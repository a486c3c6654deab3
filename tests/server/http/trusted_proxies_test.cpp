#include "server/trusted_proxies.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace codepayload::server {
namespace {

using Poco::Net::IPAddress;
using Headers = std::vector<std::string_view>;

std::string clientOf(const TrustedProxies& proxies, const std::string& peer, const Headers& forwarded,
                     const Headers& xForwardedFor) {
  return forwardedClient(proxies, IPAddress(peer), forwarded, xForwardedFor);
}

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

class ForwardedClient : public ::testing::Test {
 protected:
  const TrustedProxies proxies = TrustedProxies::parse("10.0.0.0/8, fd00::/8");
};

TEST_F(ForwardedClient, SpoofedHeadersFromAnUntrustedPeerChangeNothing) {
  EXPECT_EQ(clientOf(proxies, "203.0.113.9", {}, {"198.51.100.1"}), "203.0.113.9");
  EXPECT_EQ(clientOf(proxies, "203.0.113.9", {"for=198.51.100.1"}, {"198.51.100.2, 10.0.0.1"}), "203.0.113.9");
  EXPECT_EQ(clientOf(TrustedProxies(), "10.0.0.1", {"for=198.51.100.1"}, {"198.51.100.2"}), "10.0.0.1");
}

TEST_F(ForwardedClient, TrustedPeerWithoutHeadersIsTheClient) {
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {}, {}), "10.0.0.1");
}

TEST_F(ForwardedClient, XForwardedForGivesTheRightMostUntrustedHop) {
  // The left-most entry is whatever the client sent: only the hops trusted
  // proxies appended count.
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {}, {"1.1.1.1, 198.51.100.7, 10.0.0.2"}), "198.51.100.7");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {}, {"1.1.1.1", "198.51.100.7,10.0.0.2"}), "198.51.100.7");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {}, {"198.51.100.7:4711"}), "198.51.100.7");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {}, {"2001:db8::17"}), "2001:db8::17");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {}, {"[2001:db8::17]:4711"}), "2001:db8::17");
}

TEST_F(ForwardedClient, AChainOfOnlyTrustedHopsGivesTheLeftMost) {
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {}, {"10.0.0.3, 10.0.0.2"}), "10.0.0.3");
}

TEST_F(ForwardedClient, ForwardedWinsOverXForwardedFor) {
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {"for=198.51.100.7;proto=https"}, {"198.51.100.99"}), "198.51.100.7");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {"For=\"[2001:db8:cafe::17]:4711\", for=10.0.0.2"}, {}), "2001:db8:cafe::17");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {"for=1.1.1.1", "for=198.51.100.7;by=10.0.0.1"}, {}), "198.51.100.7");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {"proto=https;for=\"198.51.100.7:80\""}, {}), "198.51.100.7");
}

TEST_F(ForwardedClient, AnUnreadableHopStopsAtTheLastTrustedOne) {
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {"for=unknown"}, {}), "10.0.0.1");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {"for=_hidden, for=10.0.0.2"}, {}), "10.0.0.2");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {"by=10.0.0.1"}, {}), "10.0.0.1");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {}, {"198.51.100.7, client.example"}), "10.0.0.1");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {}, {"198.51.100.7, "}), "10.0.0.1");
  EXPECT_EQ(clientOf(proxies, "10.0.0.1", {}, {"fe80::1%eth0"}), "10.0.0.1");
}

TEST_F(ForwardedClient, IPv4MappedAddressesAreTheirIPv4Form) {
  EXPECT_EQ(clientOf(proxies, "::ffff:10.0.0.1", {}, {"::ffff:198.51.100.7"}), "198.51.100.7");
  EXPECT_EQ(clientOf(proxies, "::ffff:203.0.113.9", {}, {"198.51.100.7"}), "::ffff:203.0.113.9");
}

}  // namespace
}  // namespace codepayload::server
