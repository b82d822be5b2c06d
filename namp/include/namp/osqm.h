// HW-OSQM (thesis 3.5, 4.2.3.4, Fig. 3.33, 3.34, 4.8): puts a waiting thread back into the OS's
// ready queue (or a separate wake-up queue) in tile memory when its NAMP transfer completes
// (initiator: per-slot QUEUE/THREAD) or a message is delivered to its endpoint (target: the
// endpoint's OSQM words). The insertion honours the configured list TYPE, DIR and layouts, may
// also set a priority bitmap bit, or (READY_FLAG, a bitmap scheduler) only sets the thread's bit
// in a bit field; it runs under the OS's own lock, taken with an atomic bus access (LOCK_KIND
// word or ticket), so it is atomic against the kernel's queue operations on every core. A
// critical event (OSQM_Q_CRITICAL in its QUEUE, or MODE DEMAND_IRQ for all) then raises the
// demand interrupt and queues its THREAD for the OS (OSQM_IRQ_THREAD). docs/namp.md "HW-OSQM".
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>
#include <systemc>

#include "namp/bus_port.h"
#include "namp/na_config.h"
#include "namp/namp_unit.h"

namespace namp {

class osqm_unit : public sc_core::sc_module, public osqm_attachment {
public:
    osqm_unit(sc_core::sc_module_name name, const na_config &cfg, unsigned slots,
              sc_core::sc_time clock_period, std::function<void()> irq_changed);

    bus_port port;

    // slave interface: offsets inside the OSQM page
    bool read_reg(uint32_t off, uint32_t &v, bool side_effects = true);
    bool write_reg(uint32_t off, uint32_t v);
    uint32_t irq_pending() const;  // NA_IRQ_SRC_OSQM while demand interrupts are pending

    // osqm_attachment
    void transfer_finished(const slot &s) override;
    void message_delivered(uint32_t ep, uint32_t ep_flags) override;

    uint64_t insertions() const { return insertions_; }
    uint64_t lock_retries() const { return lock_retries_; }
    uint64_t critical_events() const { return critical_; }

private:
    struct request {
        uint32_t queue, thread;  // queue == 0: an endpoint whose words are still to be read
        uint32_t ep;
        bool critical;
    };
    void thread();
    bool take_lock();
    void give_lock();
    bool insert(uint32_t queue, uint32_t thread);
    bool set_flag(uint32_t field, uint32_t bit);
    void critical_event(uint32_t thread);
    bool ready_flag() const { return mode_ & OSQM_MODE_READY_FLAG; }
    bool fixed_refuses(uint32_t off, uint32_t v) const;
    bool rd(uint32_t a, uint32_t &v) { return port.read_word(a, v); }
    bool wr(uint32_t a, uint32_t v) { return port.write_word(a, v); }

    const na_config &cfg_;
    sc_core::sc_time period_;
    std::function<void()> irq_changed_;
    uint32_t type_ = 1, dir_ = 0, q_layout_ = 0x00040000u, e_layout_ = 0x00040000u, mode_ = 0;
    uint32_t bitmap_addr_ = 0, bitmap_qbase_ = 0, bitmap_qstride_ = 8, wakeup_ = 0;
    uint32_t lock_addr_ = 0, lock_kind_ = 0, irq_ = 0;
    bool irq_overflow_ = false;
    std::deque<uint32_t> irq_threads_;  // critical THREADs, at most OSQM_IRQ_FIFO_DEPTH
    std::vector<uint32_t> slot_queue_, slot_thread_;
    std::deque<request> pending_;
    sc_core::sc_event kick_;
    uint64_t insertions_ = 0, lock_retries_ = 0, critical_ = 0;
};

}  // namespace namp
