// The transition functions of the NAMP slot (namp/slot.h) and the DMA context
// (namp/dma_context.h): every legal transition of the tables, and illegal ones reported.
#include <gtest/gtest.h>
#include <systemc>

#include "namp/dma_context.h"
#include "namp/slot.h"

using namp::slot;
using S = namp::slot_state;
using E = namp::slot_event;

TEST(SlotFsm, MessageConnectionlessPath) {
    EXPECT_EQ(slot::next(S::idle, E::start), S::ready);
    EXPECT_EQ(slot::next(S::ready, E::request_sent), S::request);
    EXPECT_EQ(slot::next(S::request, E::nack), S::retry);
    EXPECT_EQ(slot::next(S::retry, E::request_sent), S::request);
    EXPECT_EQ(slot::next(S::request, E::ack), S::data);
    EXPECT_EQ(slot::next(S::data, E::dma_started), S::dma);
    EXPECT_EQ(slot::next(S::dma, E::dma_done), S::finalize);
    EXPECT_EQ(slot::next(S::finalize, E::finished), S::done);
    EXPECT_EQ(slot::next(S::done, E::release), S::idle);
}

TEST(SlotFsm, ChannelCreditAndContinuousPaths) {
    EXPECT_EQ(slot::next(S::ready, E::credit_sent), S::done);  // CoM
    EXPECT_EQ(slot::next(S::ready, E::no_credit), S::credit_wait);
    EXPECT_EQ(slot::next(S::credit_wait, E::credit_update), S::ready);
    EXPECT_EQ(slot::next(S::ready, E::direct), S::data);           // fast path
    EXPECT_EQ(slot::next(S::data, E::empty), S::finalize);         // zero bytes
    EXPECT_EQ(slot::next(S::ready, E::send_empty), S::send_wait);  // CCM
    EXPECT_EQ(slot::next(S::send_wait, E::poll), S::ready);
    EXPECT_EQ(slot::next(S::finalize, E::next), S::ready);
    EXPECT_EQ(slot::next(S::send_wait, E::finished), S::done);  // CCM left
    EXPECT_EQ(slot::next(S::credit_wait, E::finished), S::done);
    EXPECT_EQ(slot::next(S::ready, E::finished), S::done);
}

TEST(SlotFsm, ProtectionSwitchingPaths) {
    EXPECT_EQ(slot::next(S::ready, E::ps_sent), S::done);    // PS control slot
    EXPECT_EQ(slot::next(S::request, E::reloc), S::retry);   // NAK_RELOC: ask again, elsewhere
    EXPECT_EQ(slot::next(S::finalize, E::shadow), S::data);  // dualcast: the copy next
    EXPECT_THROW(slot::next(S::dma, E::reloc), sc_core::sc_report);
    EXPECT_THROW(slot::next(S::request, E::shadow), sc_core::sc_report);
}

TEST(SlotFsm, FailFromEveryActiveStateRefuseFromIdle) {
    for (S s : {S::ready, S::request, S::retry, S::credit_wait, S::data, S::finalize, S::send_wait,
                S::dma})
        EXPECT_EQ(slot::next(s, E::fail), S::error) << namp::slot_state_name(s);
    EXPECT_EQ(slot::next(S::idle, E::refuse), S::error);
    EXPECT_EQ(slot::next(S::error, E::release), S::idle);
}

TEST(SlotFsm, IllegalTransitionsAreReported) {
    EXPECT_THROW(slot::next(S::idle, E::ack), sc_core::sc_report);
    EXPECT_THROW(slot::next(S::dma, E::request_sent), sc_core::sc_report);
    EXPECT_THROW(slot::next(S::done, E::fail), sc_core::sc_report);
    EXPECT_THROW(slot::next(S::request, E::dma_done), sc_core::sc_report);
}

TEST(DmaContextFsm, Transitions) {
    using C = namp::dma_context::state;
    using CE = namp::dma_context::event;
    EXPECT_EQ(namp::dma_context::next(C::idle, CE::start), C::reading);
    EXPECT_EQ(namp::dma_context::next(C::reading, CE::read_all), C::draining);
    EXPECT_EQ(namp::dma_context::next(C::draining, CE::drained), C::idle);
    EXPECT_EQ(namp::dma_context::next(C::reading, CE::abort), C::idle);
    EXPECT_THROW(namp::dma_context::next(C::idle, CE::drained), sc_core::sc_report);
    EXPECT_THROW(namp::dma_context::next(C::draining, CE::start), sc_core::sc_report);
}

TEST(DmaContextFsm, FifoFillsToItsDepthAndDrains) {
    namp::dma_context c("ctx", 2);
    namp::dma_job j;
    j.size = 300;
    c.start(j);
    EXPECT_TRUE(c.wants_read());
    c.push(noc::packet{}, 116);
    c.push(noc::packet{}, 116);
    EXPECT_FALSE(c.wants_read()) << "FIFO full";
    c.pop();
    EXPECT_TRUE(c.wants_read());
    c.push(noc::packet{}, 68);
    EXPECT_EQ(c.current(), namp::dma_context::state::draining);
    c.pop();
    c.pop();
    EXPECT_EQ(c.current(), namp::dma_context::state::idle);
}
