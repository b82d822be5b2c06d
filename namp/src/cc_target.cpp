// NAMP-CC reduction in the target (thesis 3.3.2.4, Fig. 3.28): the receiving endpoint's NAMP_EP_CC
// descriptor keeps, per element of its receive buffer, the reduction combined in it and how many
// contributions were finalized. The first contribution of a reduction reserves an element and
// fills it with the op's identity; the others get the same element; the receiving DMA combines
// every data packet into it (network_adapter::reduce_into); the last FINAL commits it.
// docs/namp.md, "Reduction".
#include <vector>

#include "cbuffer_layout.h"
#include "namp/cc_reduce.h"
#include "namp/namp_target.h"
#include "namp_cc.h"
#include "namp_structs.h"

namespace namp {

namespace {
// the endpoint's reduction descriptor: its address and contributions per reduction, or 0
uint32_t rx_descriptor(bus_port &port, uint32_t ep, uint32_t cap_log2, uint32_t &contrib,
                       const na_geometry &geo, uint32_t kind = NAMP_CC_K_REDUCE,
                       uint32_t *msg_size = nullptr, uint32_t *members = nullptr) {
    uint32_t cc = 0, hdr[4] = {};
    const uint32_t limit = kind == NAMP_CC_K_GATHER ? NAMP_CC_MAX_PARTS : 0xFFFFu;
    if (!port.read_word(ep + NAMP_EP_CC, cc) || !cc || (cc & 3) ||
        cap_log2 > NAMP_CC_RX_MAX_CAP_LOG2 || !geo.in_sram(cc, NAMP_CC_RX_SIZE(cap_log2)) ||
        !port.read(cc, hdr, sizeof hdr) || hdr[0] != kind || hdr[1] == 0 || hdr[1] > limit)
        return 0;
    contrib = hdr[1];
    if (msg_size) *msg_size = hdr[2];
    if (members) *members = hdr[NAMP_CC_RX_MEMBERS / 4];
    return cc;
}
}  // namespace

// The root's member table (NAMP_CC_RX_MEMBERS, written by the root's software) against the
// contributor's key: its index, -1 not a member (or an unusable table), -2 open (no table, or no
// namp.identity). One burst of the table; the compares run in parallel in hardware (1 charge).
int namp_target::member_index(uint32_t table, const member_key &key, uint32_t limit) {
    if (!key.present || !table) return -2;
    uint32_t w[1 + 2 * 15] = {};
    sc_core::wait(cycles(cfg_.namp.identity_cycles));
    if ((table & 3) || !geo_.in_sram(table, 4) || !port.read_word(table, w[0]) || w[0] == 0 ||
        w[0] > limit || !geo_.in_sram(table, 4 + 8ull * w[0]) ||
        !port.read(table + 4, w + 1, 8 * w[0]))
        return -1;
    for (uint32_t i = 0; i < w[0]; ++i)
        if (w[1 + 2 * i] == key.tile && w[2 + 2 * i] == key.id) return int(i);
    return -1;
}

namespace {
uint32_t not_member(na_stats &stats) {
    ++stats.namp_member_refusals;
    return NAMP_ERR_NOT_MEMBER;
}
}  // namespace

uint32_t namp_target::reduce_alloc(uint32_t ep, uint32_t b, const uint32_t *d, uint32_t size,
                                   uint32_t id, uint32_t optype, const member_key &key,
                                   uint32_t &elem, uint32_t &data, bool &ack) {
    const uint32_t n = d[0], m = d[1], op = cc::reduce_op(optype), type = cc::reduce_type(optype);
    uint32_t contrib = 0, members = 0;
    const uint32_t cc =
        rx_descriptor(port, ep, n, contrib, geo_, NAMP_CC_K_REDUCE, nullptr, &members);
    if (!cc || !cc::reduce_valid(op, type) || size % NAMP_CC_TYPE_BYTES(type))
        return NAMP_ERR_BAD_PARAM;
    // a root with a member table admits its members only, each once per reduction
    const int mi = member_index(members, key, NAMP_CC_RX_MAX_MEMBERS);
    if (mi == -1) return not_member(stats_);
    const uint32_t bit = mi >= 0 ? NAMP_CC_RX_MEMBER_BIT(mi) : 0u;
    uint32_t tab[2u << NAMP_CC_RX_MAX_CAP_LOG2];
    if (!port.read(cc + NAMP_CC_RX_ENTRY(0), tab, 8u << n)) return NAMP_ERR_LOCAL_BUS;
    for (uint32_t k = 0; k < (1u << n); ++k)
        if ((tab[2 * k + 1] & NAMP_CC_RX_VALID) && tab[2 * k] == id) {  // reduction under way
            if (!element_in_window(b, d, k)) return window_refused();
            if (tab[2 * k + 1] & bit) return not_member(stats_);  // this member's second one
            if (bit && !port.write_word(cc + NAMP_CC_RX_ENTRY(k) + 4, tab[2 * k + 1] | bit))
                return NAMP_ERR_LOCAL_BUS;
            elem = k;
            data = b + d[MP_CB_OFF_DATA_OFS / 4] + (k << m);
            ack = true;
            return NAMP_ERR_NONE;
        }
    if (const uint32_t c = reserve(b, d, elem, data, ack); !ack) return c;  // full: NACK, retry
    ack = false;
    const uint32_t k = elem & ((1u << n) - 1u);
    std::vector<uint8_t> init(size);
    cc::reduce_identity(op, type, init.data(), size);
    const uint32_t entry[2] = {id, NAMP_CC_RX_VALID | bit};
    if ((size && !port.write(data, init.data(), size)) ||
        !port.write(cc + NAMP_CC_RX_ENTRY(k), entry, 8)) {
        // the element is reserved: commit it VOID so that nothing waits for it
        port.write_word(b + d[MP_CB_OFF_SIZE_OFS / 4] + 4 * k, MP_CB_COMMITTED | MP_CB_VOID);
        return NAMP_ERR_LOCAL_BUS;
    }
    ack = true;
    return NAMP_ERR_NONE;
}

void namp_target::reduce_final(uint32_t ep, const uint32_t *e, uint32_t b, const uint32_t *d,
                               uint32_t k, uint32_t size, bool void_elem) {
    uint32_t contrib = 0;
    const uint32_t cc = rx_descriptor(port, ep, d[0], contrib, geo_);
    uint32_t st = 0;
    if (!cc || !port.read_word(cc + NAMP_CC_RX_ENTRY(k) + 4, st) || !(st & NAMP_CC_RX_VALID)) {
        ++stats_.namp_dropped;
        return;
    }
    // the member bits stay (a late second contribution of a member is refused until the end)
    st = (st & ~0xFFFFu) | ((NAMP_CC_RX_ARRIVED(st) + 1) & 0xFFFFu) |
         (void_elem ? NAMP_CC_RX_POISONED : 0u);
    if (NAMP_CC_RX_ARRIVED(st) < contrib) {
        port.write_word(cc + NAMP_CC_RX_ENTRY(k) + 4, st);
        return;
    }
    // the last contribution: the element is the reduced message (VOID if one contribution failed)
    port.write_word(cc + NAMP_CC_RX_ENTRY(k) + 4, 0);
    const bool poisoned = st & NAMP_CC_RX_POISONED;
    const uint32_t word = MP_CB_COMMITTED | (poisoned ? MP_CB_VOID : (size & MP_CB_SIZE_MASK));
    if (!port.write_word(b + d[MP_CB_OFF_SIZE_OFS / 4] + 4 * k, word)) return;
    if (poisoned) {
        ++stats_.namp_voided;
        return;
    }
    port.fetch_add(ep + NAMP_EP_RX_MESSAGES, 1, cfg_.namp.atomics);
    ++stats_.namp_rx_completed;
    events_.message_delivered(ep, e[NAMP_EP_FLAGS / 4]);
}

// Gather: the element collecting gather `id` (its part's allocated bit set), or a new one.
uint32_t namp_target::gather_alloc(uint32_t ep, uint32_t b, const uint32_t *d, uint32_t id,
                                   uint32_t part, const member_key &key, uint32_t &elem,
                                   uint32_t &data, bool &ack) {
    const uint32_t n = d[0], m = d[1];
    uint32_t parts = 0, msg = 0, members = 0;
    const uint32_t cc = rx_descriptor(port, ep, n, parts, geo_, NAMP_CC_K_GATHER, &msg, &members);
    if (!cc || part >= parts || msg > (1u << m)) return NAMP_ERR_BAD_PARAM;
    // a root with a member table: member p sends part p, once per gather
    const int mi = member_index(members, key, parts);
    if (mi == -1 || (mi >= 0 && uint32_t(mi) != part)) return not_member(stats_);
    uint32_t tab[2u << NAMP_CC_RX_MAX_CAP_LOG2];
    if (!port.read(cc + NAMP_CC_RX_ENTRY(0), tab, 8u << n)) return NAMP_ERR_LOCAL_BUS;
    for (uint32_t k = 0; k < (1u << n); ++k)
        if (NAMP_CC_RX_G_ALLOCATED(tab[2 * k + 1]) && tab[2 * k] == id) {
            if (!element_in_window(b, d, k)) return window_refused();
            if (mi >= 0 && (tab[2 * k + 1] & (1u << (16 + part)))) return not_member(stats_);
            if (!port.write_word(cc + NAMP_CC_RX_ENTRY(k) + 4,
                                 tab[2 * k + 1] | (1u << (16 + part))))
                return NAMP_ERR_LOCAL_BUS;
            elem = k;
            data = b + d[MP_CB_OFF_DATA_OFS / 4] + (k << m);
            ack = true;
            return NAMP_ERR_NONE;
        }
    if (const uint32_t c = reserve(b, d, elem, data, ack); !ack) return c;  // full: NACK, retry
    ack = false;
    const uint32_t k = elem & ((1u << n) - 1u);
    const uint32_t entry[2] = {id, 1u << (16 + part)};
    if (!port.write(cc + NAMP_CC_RX_ENTRY(k), entry, 8)) {
        port.write_word(b + d[MP_CB_OFF_SIZE_OFS / 4] + 4 * k, MP_CB_COMMITTED | MP_CB_VOID);
        return NAMP_ERR_LOCAL_BUS;
    }
    ack = true;
    return NAMP_ERR_NONE;
}

// Gather: the part's finalized bit; when every part is in, the element is one message of the
// descriptor's size (VOID if a part failed).
void namp_target::gather_final(uint32_t ep, const uint32_t *e, uint32_t b, const uint32_t *d,
                               uint32_t k, uint32_t part, bool void_elem) {
    uint32_t parts = 0, msg = 0, st = 0;
    const uint32_t cc = rx_descriptor(port, ep, d[0], parts, geo_, NAMP_CC_K_GATHER, &msg);
    if (!cc || part >= parts || !port.read_word(cc + NAMP_CC_RX_ENTRY(k) + 4, st) ||
        !NAMP_CC_RX_G_ALLOCATED(st)) {
        ++stats_.namp_dropped;
        return;
    }
    st |= (1u << part) | (void_elem ? NAMP_CC_RX_G_POISONED : 0u);
    const uint32_t all = (1u << parts) - 1u;
    if (NAMP_CC_RX_G_FINISHED(st) != all) {
        port.write_word(cc + NAMP_CC_RX_ENTRY(k) + 4, st);
        return;
    }
    port.write_word(cc + NAMP_CC_RX_ENTRY(k) + 4, 0);
    const bool poisoned = st & NAMP_CC_RX_G_POISONED;
    const uint32_t word = MP_CB_COMMITTED | (poisoned ? MP_CB_VOID : (msg & MP_CB_SIZE_MASK));
    if (!port.write_word(b + d[MP_CB_OFF_SIZE_OFS / 4] + 4 * k, word)) return;
    if (poisoned) {
        ++stats_.namp_voided;
        return;
    }
    port.fetch_add(ep + NAMP_EP_RX_MESSAGES, 1, cfg_.namp.atomics);
    ++stats_.namp_rx_completed;
    events_.message_delivered(ep, e[NAMP_EP_FLAGS / 4]);
}

}  // namespace namp
