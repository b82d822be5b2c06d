// Debugger memory access of a core: virtual addresses through the ISS's side-effect-free
// translation, then the tile bus's debug transport (no time passes, no device side effects beyond
// what transport_dbg of the target does).
#include "tiles/cpu_core.h"

#include <algorithm>

namespace tiles {

unsigned cpu_core::debug_memory(bool write, uint32_t vaddr, uint8_t *data, unsigned len) {
    unsigned done = 0;
    while (done < len) {
        const uint32_t va = vaddr + done;
        uint32_t pa = 0;
        if (!rv_cpu_debug_translate(cpu_, va, &pa)) break;
        // One chunk never crosses a page: the next page may map elsewhere.
        const unsigned chunk = std::min<unsigned>(len - done, 4096 - (va & 4095u));
        tlm::tlm_generic_payload t;
        t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        t.set_address(pa);
        t.set_data_ptr(data + done);
        t.set_data_length(chunk);
        t.set_streaming_width(chunk);
        const unsigned n = socket->transport_dbg(t);
        done += n;
        if (n < chunk) break;
    }
    return done;
}

}  // namespace tiles
