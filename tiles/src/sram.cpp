#include "tiles/sram.h"

#include "tiles/atomic_ext.h"

#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/mman.h>
#define SRAM_MMAP 1
#endif

namespace tiles {

// An anonymous private mapping is zero-filled and backed on first touch; without reserving swap
// (MAP_NORESERVE) a mesh of thousands of mostly idle tiles reserves more than it ever touches.
sram::lazy_memory::lazy_memory(uint32_t bytes) : size(bytes) {
#ifdef SRAM_MMAP
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    data = p == MAP_FAILED ? nullptr : static_cast<uint8_t *>(p);
#else
    data = static_cast<uint8_t *>(std::calloc(bytes, 1));
#endif
    if (!data) throw std::bad_alloc();
}

sram::lazy_memory::~lazy_memory() {
#ifdef SRAM_MMAP
    munmap(data, size);
#else
    std::free(data);
#endif
}

sram::sram(sc_core::sc_module_name name, uint32_t physical_base, uint32_t size,
           unsigned read_latency, unsigned write_latency, sc_core::sc_time clock_period,
           rv_reservation_set *reservations)
    : sc_module(name),
      socket("socket"),
      storage_(size),
      read_latency_(read_latency),
      write_latency_(write_latency),
      period_(clock_period),
      reservations_(reservations),
      physical_base_(physical_base) {
    socket.register_b_transport(this, &sram::b_transport);
    socket.register_get_direct_mem_ptr(this, &sram::get_direct_mem_ptr);
    socket.register_transport_dbg(this, &sram::transport_dbg);
}

bool sram::in_range(uint64_t addr, unsigned len) const {
    return addr < storage_.size && len <= storage_.size - addr;
}

bool sram::load(uint32_t offset, const uint8_t *bytes, uint32_t len) {
    if (!in_range(offset, len)) return false;
    if (len == 0) return true;  // bytes may be null then (an ELF segment without file data)
    std::memcpy(storage_.data + offset, bytes, len);
    return true;
}

void sram::b_transport(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    const uint64_t addr = trans.get_address();
    const unsigned len = trans.get_data_length();
    if (!in_range(addr, len) || trans.get_byte_enable_ptr() || trans.get_streaming_width() < len) {
        trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    if (atomic_ext *ax = trans.get_extension<atomic_ext>(); ax && trans.is_write()) {
        // Atomic read-modify-write of one aligned word (tiles/atomic_ext.h).
        if (len != 4 || (addr & 3)) {
            trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        uint32_t old = 0, operand = 0, next = 0;
        std::memcpy(&old, storage_.data + addr, 4);
        std::memcpy(&operand, trans.get_data_ptr(), 4);
        if (ax->kind == atomic_ext::op::cas) {
            ax->success = old == ax->compare;
            next = ax->success ? operand : old;
        } else {
            ax->success = true;
            next = old + operand;
        }
        ax->old_value = old;
        ax->performed = true;
        if (next != old || ax->success) {
            std::memcpy(storage_.data + addr, &next, 4);
            rv_reservations_invalidate(reservations_, physical_base_ + uint32_t(addr), 4);
        }
        delay += period_ * (read_latency_ + write_latency_);
        ++bus_reads_;
        ++bus_writes_;
        ++bus_read_words_;
        ++bus_write_words_;
    } else if (trans.is_read()) {
        std::memcpy(trans.get_data_ptr(), storage_.data + addr, len);
        delay += period_ * read_latency_;
        ++bus_reads_;
        bus_read_words_ += (len + 3) / 4;
    } else if (trans.is_write()) {
        std::memcpy(storage_.data + addr, trans.get_data_ptr(), len);
        rv_reservations_invalidate(reservations_, physical_base_ + uint32_t(addr), len);
        delay += period_ * write_latency_;
        ++bus_writes_;
        bus_write_words_ += (len + 3) / 4;
    }
    trans.set_dmi_allowed(true);
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

bool sram::get_direct_mem_ptr(tlm::tlm_generic_payload &, tlm::tlm_dmi &dmi) {
    dmi.allow_read_write();
    dmi.set_dmi_ptr(storage_.data);
    dmi.set_start_address(0);
    dmi.set_end_address(storage_.size - 1);
    dmi.set_read_latency(period_ * read_latency_);
    dmi.set_write_latency(period_ * write_latency_);
    return true;
}

unsigned sram::transport_dbg(tlm::tlm_generic_payload &trans) {
    const uint64_t addr = trans.get_address();
    if (addr >= storage_.size) return 0;
    const unsigned len =
        unsigned(std::min<uint64_t>(trans.get_data_length(), storage_.size - addr));
    if (trans.is_read())
        std::memcpy(trans.get_data_ptr(), storage_.data + addr, len);
    else if (trans.is_write())
        std::memcpy(storage_.data + addr, trans.get_data_ptr(), len);
    return len;
}

}  // namespace tiles
