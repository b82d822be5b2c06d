// NAMP-SV (thesis 3.4, 4.2.3.3): the virtual interfaces of the highest namp.slots_virt slots.
// Each vif has a configuration page for the kernel (endpoint-table base and bound, IEN, READY)
// and an interface page for one task (the slot interface with endpoint virtual IDs). Setting
// VALID in the interface page makes the vif translate the vIDs through the task's endpoint table
// in tile memory (bus reads through the vif's own port, with their cost, plus
// namp.vif_cycles), write the physical addresses and the flags into its slot and start it. A vID
// out of bound is refused before any table access; an empty entry or one of the wrong kind, BUF=0
// data transfers (other than collectives) and starts before READY are error statuses. The send
// buffer's window from its table entry goes into the slot (NAMP_SLOT_WIN_*): the initiator checks
// every address it derives from the buffer's header, which the task can write. A collective names
// a collective area (descriptor and data inside it) and its members by vID: the vif gives the slot
// the area as its window and the table for the members. docs/namp.md "NAMP-SV", "SV isolation",
// "Collectives through a vif".
#pragma once
#include <cstdint>
#include <deque>
#include <vector>
#include <systemc>

#include "namp/bus_port.h"
#include "namp/na_config.h"
#include "namp/namp_unit.h"

namespace namp {

class vif_unit : public sc_core::sc_module, public vif_attachment {
public:
    vif_unit(sc_core::sc_module_name name, const na_config &cfg, const na_geometry &geo,
             namp_unit &unit, sc_core::sc_time clock_period);

    bus_port port;  // endpoint-table reads

    bool vif_read(unsigned slot, uint32_t offset, uint32_t &v) override;
    bool vif_write(unsigned slot, uint32_t offset, uint32_t v) override;

    unsigned first_slot() const { return first_; }
    uint64_t translations() const { return translations_; }
    uint64_t refusals() const { return refusals_; }

private:
    // One virtual interface: kernel configuration, the task's registers, the translation state.
    struct vif {
        uint32_t et_base = 0, et_bound = 0, ctrl = 0, translations = 0;
        uint32_t flags = 0, p1 = 0, p2 = 0, p3 = 0;  // as the task wrote them (vIDs)
        uint32_t held = 0;        // STATUS the task reads while a refusal or a parked finish holds
        uint32_t generation = 0;  // READY withdrawn: bumped (drops a start)
        bool translating = false;
    };
    vif *find(unsigned slot, uint32_t offset, uint32_t page);
    bool write_flags(unsigned slot, vif &x, uint32_t v);
    uint32_t slot_reg(unsigned slot, uint32_t reg) const;
    void slot_write(unsigned slot, uint32_t reg, uint32_t v);
    uint32_t lookup(const vif &x, uint32_t vid, uint32_t kind, uint32_t &addr, uint32_t &limit);
    uint32_t translate_cc(const vif &x, uint32_t &p1, uint32_t &p2, uint32_t &win,
                          uint32_t &win_size);
    void refuse(vif &x, uint32_t code);
    void reset_task_side(vif &x);
    void translate_thread();

    const na_config &cfg_;
    const na_geometry &geo_;
    namp_unit &unit_;
    sc_core::sc_time period_;
    unsigned first_;
    std::vector<vif> vifs_;
    std::deque<unsigned> pending_;  // slots whose start waits for translation
    sc_core::sc_event kick_;
    uint64_t translations_ = 0, refusals_ = 0;
};

}  // namespace namp
