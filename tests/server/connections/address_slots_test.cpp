#include "server/connections/address_slots.h"

#include <gtest/gtest.h>

namespace codepayload::server {
namespace {

TEST(AddressSlots, AnAddressHoldsAtMostItsLimitOthersAreNotAffected) {
  AddressSlots slots(2);
  EXPECT_TRUE(slots.admit(10, "192.0.2.1"));
  EXPECT_TRUE(slots.admit(11, "192.0.2.1"));
  EXPECT_FALSE(slots.admit(12, "192.0.2.1"));
  EXPECT_TRUE(slots.admit(12, "192.0.2.2"));
  EXPECT_EQ(slots.held("192.0.2.1"), 2);
  EXPECT_EQ(slots.held("192.0.2.2"), 1);
  EXPECT_EQ(slots.held("192.0.2.3"), 0);
  EXPECT_EQ(slots.connections(), 3u);
}

TEST(AddressSlots, AnEndedConnectionGivesItsSlotBack) {
  AddressSlots slots(1);
  ASSERT_TRUE(slots.admit(10, "192.0.2.1"));
  EXPECT_FALSE(slots.admit(11, "192.0.2.1"));
  slots.release(10);
  EXPECT_EQ(slots.held("192.0.2.1"), 0);
  EXPECT_TRUE(slots.admit(11, "192.0.2.1"));
  EXPECT_EQ(slots.connections(), 1u);
}

TEST(AddressSlots, ReleasingAConnectionWithoutASlotChangesNothing) {
  AddressSlots slots(1);
  ASSERT_TRUE(slots.admit(10, "192.0.2.1"));
  slots.release(11);
  slots.release(10);
  slots.release(10);
  EXPECT_EQ(slots.held("192.0.2.1"), 0);
  EXPECT_EQ(slots.connections(), 0u);
}

TEST(AddressSlots, AnIdentityAdmittedAgainReleasesTheSlotLeftUnderIt) {
  // A connection dropped between accept and its worker never gives its slot
  // back; its identity, reused by the next connection, does.
  AddressSlots slots(1);
  ASSERT_TRUE(slots.admit(10, "192.0.2.1"));
  EXPECT_TRUE(slots.admit(10, "192.0.2.1"));
  EXPECT_EQ(slots.held("192.0.2.1"), 1);
  EXPECT_TRUE(slots.admit(10, "192.0.2.2"));
  EXPECT_EQ(slots.held("192.0.2.1"), 0);
  EXPECT_EQ(slots.held("192.0.2.2"), 1);
  EXPECT_EQ(slots.connections(), 1u);
}

TEST(AddressSlots, ZeroMeansNoLimit) {
  AddressSlots slots(0);
  for (AddressSlots::Connection connection = 0; connection < 1000; ++connection) {
    ASSERT_TRUE(slots.admit(connection, "192.0.2.1")) << connection;
  }
  EXPECT_EQ(slots.held("192.0.2.1"), 1000);
}

}  // namespace
}  // namespace codepayload::server
