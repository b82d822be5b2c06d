// The slave interface: status block, interrupt controller, NoC buffers and DMA slot registers
// (na_registers.h). 32-bit aligned accesses only; anything else, an unpopulated offset, a write to a
// read-only register or a bad value is a bus error.
#include "na_registers.h"
#include "namp/network_adapter.h"
#include "tiles/initiator_id.h"
#include "namp_structs.h"
#include "noc/packet.h"

#include <cstring>

namespace namp {

namespace {
constexpr uint32_t irq_sources =
    NA_IRQ_SRC_RX0 | NA_IRQ_SRC_RX1 | NA_IRQ_SRC_DMA | NA_IRQ_SRC_RMA_ERROR;
constexpr uint32_t version = (1u << 16) | 0u;
}  // namespace

void network_adapter::b_transport_regs(tlm::tlm_generic_payload &trans, sc_core::sc_time &delay) {
    // Synchronize first: the access takes effect at the initiator's time, as the NoC sees it.
    tiles::sync_to_initiator(trans, delay);
    ++stats_.register_accesses;
    const uint64_t addr = trans.get_address();
    bool ok = trans.get_data_length() == 4 && (addr & 3) == 0 && !trans.get_byte_enable_ptr() &&
              trans.get_streaming_width() >= 4;
    if (ok) {
        uint32_t value = 0;
        if (trans.is_read()) {
            ok = read_reg(uint32_t(addr), value, true);
            if (ok) std::memcpy(trans.get_data_ptr(), &value, 4);
        } else if (trans.is_write()) {
            std::memcpy(&value, trans.get_data_ptr(), 4);
            ok = write_reg(uint32_t(addr), value);
        }
    }
    delay += cycles(cfg_.register_latency);
    if (!ok) ++stats_.bus_errors;
    trans.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

// Debug reads have no side effects: RX_FLIT is not readable this way.
unsigned network_adapter::transport_dbg_regs(tlm::tlm_generic_payload &trans) {
    if (!trans.is_read() || trans.get_data_length() != 4 || (trans.get_address() & 3)) return 0;
    uint32_t value = 0;
    if (!read_reg(uint32_t(trans.get_address()), value, false)) return 0;
    std::memcpy(trans.get_data_ptr(), &value, 4);
    return 4;
}

bool network_adapter::read_reg(uint32_t off, uint32_t &v, bool side_effects) {
    if (off <= NA_NAMP_STATUS_LAST) return read_status(off, v);
    if (off >= NA_IRQ_BASE && off < NA_IRQ_BASE + 0x2000) {
        switch (off - NA_IRQ_BASE) {
        case NA_IRQ_PENDING: v = irq_pending(); return true;
        case NA_IRQ_MASK: v = irq_mask_; return true;
        case NA_IRQ_ACTIVE: v = irq_pending() & irq_mask_; return true;
        case NA_IRQ_TARGET: v = irq_target_; return true;
        default: return false;
        }
    }
    if (off >= NA_NOCBUF_BASE(0) && off < NA_NOCBUF_BASE(NA_NOCBUF_COUNT)) {
        const unsigned b = (off - NA_NOCBUF_BASE(0)) / 0x2000;
        return read_nocbuf(buffers_[b], off - NA_NOCBUF_BASE(b), v, side_effects);
    }
    if (off >= NA_DMA_BASE(0) && off < NA_DMA_BASE(slots_.size())) {
        const unsigned s = (off - NA_DMA_BASE(0)) / 0x2000;
        return read_dma(slots_[s], off - NA_DMA_BASE(s), v);
    }
    if (off >= NA_OSQM_BASE && off < NA_OSQM_BASE + 0x2000)
        return osqm_ && osqm_->read_reg(off - NA_OSQM_BASE, v, side_effects);
    if (off >= NA_NAMP_SLOT_BASE(0)) return namp_on() && namp_->read_reg(off, v);
    return false;  // includes absent DMA slots
}

bool network_adapter::write_reg(uint32_t off, uint32_t v) {
    if (off == NA_RMA_ERRORS) {
        rma_errors_ = 0;
        update_irq();
        return true;
    }
    if (namp_on() && (off == NA_NAMP_RX_COUNT || off == NA_NAMP_ARBITRATION ||
                      off == NA_NAMP_REFUSED || off >= NA_NAMP_SLOT_BASE(0)))
        return namp_->write_reg(off, v);
    if (off >= NA_OSQM_BASE && off < NA_OSQM_BASE + 0x2000)
        return osqm_ && osqm_->write_reg(off - NA_OSQM_BASE, v);
    if (off == NA_IRQ_BASE + NA_IRQ_TARGET) {
        if (v >= irq.size()) return false;  // no such core: refused, target unchanged
        irq_target_ = v;
        update_irq();
        return true;
    }
    if (off == NA_IRQ_BASE + NA_IRQ_MASK) {
        const uint32_t sources = irq_sources | (osqm_ ? NA_IRQ_SRC_OSQM : 0u) |
                                 (namp_on() ? NA_IRQ_SRC_NAMP_DONE | NA_IRQ_SRC_RX_COUNT : 0u);
        if (v & ~sources) return false;  // undefined sources: refused, mask unchanged
        irq_mask_ = v;
        update_irq();
        return true;
    }
    if (off >= NA_NOCBUF_BASE(0) && off < NA_NOCBUF_BASE(NA_NOCBUF_COUNT)) {
        const unsigned b = (off - NA_NOCBUF_BASE(0)) / 0x2000;
        return write_nocbuf(buffers_[b], off - NA_NOCBUF_BASE(b), v);
    }
    if (off >= NA_DMA_BASE(0) && off < NA_DMA_BASE(slots_.size())) {
        const unsigned s = (off - NA_DMA_BASE(0)) / 0x2000;
        return write_dma(s, off - NA_DMA_BASE(s), v);
    }
    return false;  // read-only or unpopulated
}

bool network_adapter::read_status(uint32_t off, uint32_t &v) const {
    switch (off) {
    case NA_VERSION: v = version; return true;
    case NA_FEATURES:
        v = NA_FEATURE_NOC_BUFFERS | NA_FEATURE_DMA | NA_FEATURE_RMA |
            (namp_on() ? namp_->features() : 0u);
        return true;
    case NA_DMA_SLOTS: v = uint32_t(slots_.size()); return true;
    case NA_NAMP_SLOTS: v = namp_on() ? uint32_t(namp_->slots().size()) : 0u; return true;
    case NA_TILE_ID: v = geo_.tile_id; return true;
    case NA_MAX_PACKET_FLITS: v = geo_.max_packet_flits; return true;
    case NA_RX_BUFFER_FLITS: v = cfg_.rx_buffer_flits; return true;
    case NA_RMA_OUTSTANDING: v = rma_outstanding_; return true;
    case NA_RMA_ERRORS: v = rma_errors_; return true;
    case NA_MESH_SIZE: v = (geo_.mesh_height << 16) | geo_.mesh_width; return true;
    case NA_NAMP_RX_COUNT:
    case NA_NAMP_ARBITRATION:
    case NA_NAMP_ATOMICS:
    case NA_NAMP_DONE_SLOTS:
    case NA_NAMP_SLOTS_VIRT:
    case NA_NAMP_REFUSED: return namp_on() && namp_->read_reg(off, v);
    default: return false;
    }
}

bool network_adapter::read_nocbuf(noc_buffer &b, uint32_t off, uint32_t &v, bool side_effects) {
    switch (off) {
    case NOCBUF_TX_STATUS:
        v = (b.tx_idle() ? 1u : 0u) | (std::min(b.tx_expected(), 255u) << 8);
        return true;
    case NOCBUF_RX_STATUS:
        v = (b.rx_waiting() ? 1u : 0u) | (std::min(b.rx_flits_left(), 255u) << 8) |
            (std::min(b.rx_packets(), 0xFFFFu) << 16);
        return true;
    case NOCBUF_RX_FLIT: {
        if (!side_effects || !b.rx_waiting()) return false;
        const unsigned before = b.rx_packets();
        v = b.rx_next();
        if (b.rx_packets() != before) {  // a packet was read completely: space is free
            const unsigned c = noc::index_of(b.channel());
            if (refused_[c]) {
                refused_[c] = false;
                port_.sink_ready(b.channel());
            }
            update_irq();
        }
        return true;
    }
    default: return false;
    }
}

bool network_adapter::write_nocbuf(noc_buffer &b, uint32_t off, uint32_t v) {
    if (off == NOCBUF_RX_DISCARD) {
        if (!b.rx_waiting()) return false;
        b.rx_discard();
        const unsigned c = noc::index_of(b.channel());
        if (refused_[c]) {
            refused_[c] = false;
            port_.sink_ready(b.channel());
        }
        update_irq();
        return true;
    }
    if (off != NOCBUF_TX_FLIT) return false;
    if (!b.tx_idle()) return false;  // the previous packet has not been taken by the network yet
    const unsigned index = b.channel() == noc::channel::control_request ? 0 : 1;
    if (b.tx_expected() == 0) {
        noc::packet_header h = noc::decode_header(v);
        if (namp_on() && h.type == NAMP_NOC_TYPE) {  // reserved for the NAMP protocol
            ++stats_.namp_raw_refused;
            return false;
        }
        if (h.dst_x >= geo_.mesh_width || h.dst_y >= geo_.mesh_height) return false;
        if (h.length > geo_.max_packet_flits) return false;
        h.src_x = geo_.x;
        h.src_y = geo_.y;
        h.ch = b.channel();
        b.tx_begin(h);
    } else {
        b.tx_add(v);
    }
    if (b.outgoing()) tx_event_[index].notify(sc_core::SC_ZERO_TIME);
    return true;
}

bool network_adapter::read_dma(dma_slot &s, uint32_t off, uint32_t &v) const {
    switch (off) {
    case DMA_LOCAL_ADDR: v = s.local; return true;
    case DMA_REMOTE_TILE: v = s.remote_tile; return true;
    case DMA_REMOTE_ADDR: v = s.remote; return true;
    case DMA_SIZE: v = s.size; return true;
    case DMA_CONTROL: v = s.control; return true;
    case DMA_STATUS: v = s.status; return true;
    default: return false;
    }
}

bool network_adapter::write_dma(unsigned index, uint32_t off, uint32_t v) {
    dma_slot &s = slots_[index];
    const bool busy = s.status & DMA_STAT_BUSY;
    switch (off) {
    case DMA_LOCAL_ADDR:
        if (busy) return false;
        s.local = v;
        return true;
    case DMA_REMOTE_TILE:
        if (busy) return false;
        s.remote_tile = v;
        return true;
    case DMA_REMOTE_ADDR:
        if (busy) return false;
        s.remote = v;
        return true;
    case DMA_SIZE:
        if (busy) return false;
        s.size = v;
        return true;
    case DMA_CONTROL:
        if (v & ~(DMA_CTRL_START | DMA_CTRL_IEN)) return false;
        s.control = v;
        if (v & DMA_CTRL_START) {
            if (busy)
                s.status |= DMA_STAT_ERROR;  // the running transfer goes on
            else
                dma_start(index);
        }
        update_irq();
        return true;
    case DMA_STATUS:
        s.status &= ~(v & (DMA_STAT_DONE | DMA_STAT_ERROR));
        update_irq();
        return true;
    default: return false;
    }
}

}  // namespace namp

namespace namp {

// ---- user DMA slots: transfers of the data engine ----

void network_adapter::dma_start(unsigned index) {
    dma_slot &s = slots_[index];
    ++stats_.dma_transfers;
    s.status = DMA_STAT_BUSY;
    const bool local_ok = geo_.in_sram(s.local, s.size);
    // Every tile has the same SRAM: the destination range is checked before anything is sent, so
    // a bad transfer writes nothing. The remote adapter checks every packet again.
    const bool remote_ok = geo_.in_sram(s.remote, s.size);
    if (!local_ok || !remote_ok || !tile_exists(s.remote_tile)) {
        dma_finish(index, true);
        return;
    }
    if (s.size == 0) {
        dma_finish(index, false);
        return;
    }
    dma_job j;
    j.src = s.local;
    j.tile = s.remote_tile;
    j.dst = s.remote;
    j.size = s.size;
    j.tag = index;
    j.setup_cycles = cfg_.dma_setup_cycles;
    dma_->submit(j, *this);
}

// The read failed: nothing more is sent; the remote state resets with the next first packet.
void network_adapter::dma_read_failed(unsigned tag) {
    if (tag < slots_.size() && (slots_[tag].status & DMA_STAT_BUSY)) dma_finish(tag, true);
}

void network_adapter::dma_finish(unsigned index, bool error) {
    dma_slot &s = slots_[index];
    s.status = (s.status & ~DMA_STAT_BUSY) | (error ? DMA_STAT_ERROR : DMA_STAT_DONE);
    if (error) ++stats_.dma_errors;
    update_irq();
}

}  // namespace namp
