// The SRAM's atomic read-modify-write extension (tiles/atomic_ext.h), used by the NAMP.
#include <cstring>

#include <gtest/gtest.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "tiles/atomic_ext.h"
#include "tiles/sram.h"

namespace {

struct atomic_master : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<atomic_master> socket;
    explicit atomic_master(sc_core::sc_module_name n) : sc_module(n), socket("socket") {}
    // Returns the response status; fills ext.
    tlm::tlm_response_status op(uint32_t addr, tiles::atomic_ext &ext, uint32_t operand,
                                sc_core::sc_time &delay) {
        tlm::tlm_generic_payload t;
        t.set_command(tlm::TLM_WRITE_COMMAND);
        t.set_address(addr);
        t.set_data_ptr(reinterpret_cast<unsigned char *>(&operand));
        t.set_data_length(4);
        t.set_streaming_width(4);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        t.set_extension(&ext);
        socket->b_transport(t, delay);
        t.clear_extension(&ext);
        return t.get_response_status();
    }
};

}  // namespace

TEST(AtomicExt, CasAndFetchAddInOneAccessBreakReservations) {
    rv_reservation_set res;
    rv_reservations_init(&res);
    const sc_core::sc_time period(10, sc_core::SC_NS);
    tiles::sram mem("mem", 0x80000000u, 4096, 1, 2, period, &res);
    atomic_master m("m");
    m.socket.bind(mem.socket);
    uint32_t v = 5;
    std::memcpy(mem.data() + 0x40, &v, 4);
    res.addr[0] = 0x80000040u;
    res.valid_mask = 1;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    tiles::atomic_ext cas;
    cas.kind = tiles::atomic_ext::op::cas;
    cas.compare = 4;  // mismatch: nothing written, reservation kept
    EXPECT_EQ(m.op(0x40, cas, 9, delay), tlm::TLM_OK_RESPONSE);
    EXPECT_TRUE(cas.performed);
    EXPECT_FALSE(cas.success);
    EXPECT_EQ(cas.old_value, 5u);
    EXPECT_EQ(res.valid_mask, 1u);
    EXPECT_EQ(delay, period * 3.0);  // read + write latency
    cas.compare = 5;
    EXPECT_EQ(m.op(0x40, cas, 9, delay), tlm::TLM_OK_RESPONSE);
    EXPECT_TRUE(cas.success);
    std::memcpy(&v, mem.data() + 0x40, 4);
    EXPECT_EQ(v, 9u);
    EXPECT_EQ(res.valid_mask, 0u) << "the write broke the LR/SC reservation";
    tiles::atomic_ext add;
    EXPECT_EQ(m.op(0x40, add, 0xFFFFFFFFu, delay), tlm::TLM_OK_RESPONSE);  // fetch-add -1
    EXPECT_EQ(add.old_value, 9u);
    std::memcpy(&v, mem.data() + 0x40, 4);
    EXPECT_EQ(v, 8u);
    tiles::atomic_ext bad;
    EXPECT_EQ(m.op(0x42, bad, 1, delay), tlm::TLM_ADDRESS_ERROR_RESPONSE);  // misaligned
    EXPECT_FALSE(bad.performed);
}
