// The key limits count an address under: IPv4 as given, IPv6 by its /64.
#include "common/address_key.h"

#include <gtest/gtest.h>

namespace codepayload::common {
namespace {

TEST(AddressKey, GroupsIpv6ByItsSlash64) {
  EXPECT_EQ(addressKey("192.0.2.7"), "192.0.2.7");
  EXPECT_EQ(addressKey("2001:db8:1:2:aaaa::1"), "2001:0db8:0001:0002::/64");
  EXPECT_EQ(addressKey("2001:DB8:1:2:ffff:ffff:ffff:ffff"), "2001:0db8:0001:0002::/64");
  EXPECT_EQ(addressKey("fe80::1%eth0"), "fe80:0000:0000:0000::/64");
  EXPECT_EQ(addressKey("::ffff:192.0.2.7"), "192.0.2.7");
  EXPECT_EQ(addressKey("::1"), "0000:0000:0000:0000::/64");
  EXPECT_EQ(addressKey("not an address"), "not an address");
  EXPECT_EQ(addressKey(""), "");
}

}  // namespace
}  // namespace codepayload::common
