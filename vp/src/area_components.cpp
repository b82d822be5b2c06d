// The structural inventory of the network adapter's components (docs/area.md, "The model"): one
// builder per component, each a list of named parts with what they are built of, from the
// configuration and the register maps (na_registers.h, namp_structs.h) and protocol steps of this
// platform's models. A new hardware block is a new builder and one row of `components` below.
#include "vp/area_components.h"

#include <cmath>

#include "na_registers.h"

namespace vp {

namespace {

unsigned bits_for(uint64_t values) {  // bits to tell `values` things apart (at least 1)
    unsigned b = 1;
    while ((uint64_t(1) << b) < values) ++b;
    return b;
}

constexpr double W = 32;  // word and address width
constexpr double A = 30;  // a word-aligned address (the two low bits are 0)

// shorthand for one part
struct p {
    std::vector<area_part> &v;
    void add(const char *name, area_structure s, bool ext = false) { v.push_back({name, s, ext}); }
};
area_structure ff(double b) {
    area_structure s;
    s.ff_bits = b;
    return s;
}
area_structure states(double n) {
    area_structure s;
    s.states = n;
    return s;
}
// n protocol steps that each access the bus or build a message: their control states and one
// input each on the bus-address and the write-data multiplexers (or the message-word select)
area_structure steps(double n) {
    area_structure s;
    s.states = n;
    s.mux_bits = n * 2 * W;
    return s;
}

struct features {
    bool msg, chan, buf, ccm, mc, sg, red, cc, osqm, osqm_static, ps, sv, id;
    unsigned slots, virt, tile_bits, timer_bits, slot_bits;
};
features features_of(const platform_config &c) {
    const auto &m = c.na.namp;
    features f{};
    f.msg = m.messages;
    f.chan = m.channels;
    f.buf = m.buffered;
    f.ccm = m.ccm;
    f.mc = m.cc_multicast;
    f.sg = m.cc_scattergather;
    f.red = m.cc_reduction;
    f.cc = f.mc || f.sg || f.red;
    f.osqm = m.osqm;
    f.osqm_static = m.osqm_static;
    f.ps = m.ps;
    f.id = m.identity;
    f.slots = m.slots;
    f.virt = m.slots_virt;
    f.sv = f.virt > 0;
    f.tile_bits = bits_for(c.mesh_width) + bits_for(c.mesh_height);
    f.timer_bits = bits_for(uint64_t(m.retry_max_cycles) + 1);
    f.slot_bits = bits_for(m.slots);
    return f;
}

// ---- baseline adapter (thesis 4.4: NoC buffers and DMA, present without the NAMP too) ----

void noc_buffer(const platform_config &c, std::vector<area_part> &v) {
    const double P = c.noc.max_packet_flits, R = c.na.rx_buffer_flits;
    p a{v};
    a.add("receive storage (na.rx_buffer_flits)", {0, R * W});
    a.add("send storage (one packet)", {0, P * W});
    area_structure ctl = ff(2 * (bits_for(R) + bits_for(P)) + 2 * 16);
    ctl.inc_bits = 2 * (bits_for(R) + bits_for(P));
    ctl.eq_bits = 2 * bits_for(R);
    a.add("pointers, flit counts, status", ctl);
    a.add("packet assembly and flow control", states(6));
}

void data_request_queue(const platform_config &c, std::vector<area_part> &v) {
    const double Q =
        c.na.target_queue_flits ? c.na.target_queue_flits : 2.0 * c.noc.max_packet_flits;
    p a{v};
    a.add("storage (na.target_queue_flits)", {0, Q * W});
    area_structure ctl = ff(2 * bits_for(uint64_t(Q)));
    ctl.inc_bits = 2 * bits_for(uint64_t(Q));
    a.add("pointers", ctl);
    a.add("request decode and the memory write", states(4));
}

void dma_engine(const platform_config &c, std::vector<area_part> &v) {
    const unsigned ctx = c.na.dma_contexts;
    p a{v};
    area_structure hdr = ff(2 * W);
    hdr.mux_bits = (ctx - 1) * 2 * W;  // the serving context's addresses
    a.add("packet header, context select", hdr);
    a.add("reader, injector, completions", states(8));
}

void dma_slot(const platform_config &c, std::vector<area_part> &v) {
    features f = features_of(c);
    p a{v};
    area_structure r =
        ff(W + f.tile_bits + W + 21 + 3 + 3);  // LOCAL, TILE, REMOTE, SIZE, CTRL, STATUS
    r.mux_bits = 5 * W;                        // bus read of six registers
    a.add("registers LOCAL_ADDR, REMOTE_TILE, REMOTE_ADDR, SIZE, CONTROL, STATUS", r);
}

void dma_context(const platform_config &c, std::vector<area_part> &v) {
    features f = features_of(c);
    const double P = c.noc.max_packet_flits;
    p a{v};
    area_structure prog = ff(2 * W + 21 + f.tile_bits + 8);  // addresses, bytes left, tile, tag
    prog.inc_bits = 2 * W + 21;  // both addresses advance, bytes count down
    prog.eq_bits = 21;
    a.add("transfer progress: addresses, bytes left, tile, tag", prog);
    a.add("read-ahead FIFO (na.dma_fifo_packets packets)", {0, c.na.dma_fifo_packets * P * W});
    a.add("context FSM", states(4));
    if (f.sg && c.na.namp.enabled) {
        area_structure sg = ff(16 + 16 + 16);  // chunk size, stride, chunks left
        sg.add_bits = W;                       // next chunk address
        sg.inc_bits = 16;
        a.add("NAMP-CC scatter/gather address generation", sg);
    }
    if (f.red && c.na.namp.enabled) a.add("NAMP-CC reduction op and type", ff(6));
}

// ---- NAMP (thesis 4.2) ----

// One slot (Fig. 4.5, Table 3.2): configuration registers, the transfer's state, its timer and
// the tiny FSM of its implicit transitions.
void namp_slot(const platform_config &c, std::vector<area_part> &v) {
    features f = features_of(c);
    p a{v};
    const double flag_bits = 3 /* VALID DONE IEN */ + (f.chan ? 2 : 0) /* COM CON */ +
                             (f.buf ? 1 : 0) + (f.ccm ? 1 : 0) + (f.cc ? 1 : 0) + (f.ps ? 1 : 0);
    area_structure cfg = ff(flag_bits + 3 * W);
    cfg.mux_bits = 4 * W;  // bus read: FLAGS, PARAM1..3, STATUS
    a.add("FLAGS, PARAM1..3 and their bus read", cfg);
    area_structure st = ff(4 + 4 + 8);  // state, error code, NACK retries
    st.inc_bits = 8;
    a.add("STATUS: state, error code, retries", st);
    a.add("transfer: destination tile and endpoint, size", ff(f.tile_bits + A + 21));
    if (f.msg || f.chan) a.add("remote element: index and data address", ff(16 + A));
    if (f.msg || f.ccm) {
        area_structure t = ff(f.timer_bits);
        t.inc_bits = f.timer_bits;
        t.eq_bits = f.timer_bits;
        a.add("back-off / poll timer (namp.retry_max_cycles)", t);
    }
    if (f.buf) a.add("send-buffer element: index and size-word address", ff(16 + A));
    unsigned n = 7 /* idle ready data dma finalize done error */ +
                 (f.msg ? 2 : 0) /* request retry */ + (f.chan ? 1 : 0) /* credit_wait */ +
                 (f.ccm ? 1 : 0) /* send_wait */ + (f.cc ? 1 : 0);
    a.add("slot FSM (implicit transitions, timer)", states(n));
    if (f.cc) {
        area_structure cc = ff(2 + 8 + 8 + 6 + 8);  // kind, id, member index, failed, ended
        cc.inc_bits = 8 + 6 + 8;
        a.add("NAMP-CC: descriptor kind, member index, failed and ended counts", cc);
        // NAMP_SLOT_MEMBER(i) for the kernel (docs/security.md row 16): a read multiplexer over
        // the members' handles and a test of each member's state (the member contexts are the
        // slot's already)
        area_structure mr;
        mr.mux_bits = (NAMP_SLOT_MEMBERS - 1) * A;
        mr.eq_bits = NAMP_SLOT_MEMBERS * 4;
        a.add("NAMP-CC: MEMBER(i) read of a member's handle while it writes", mr, true);
    }
    if (f.sg) a.add("NAMP-CC scatter/gather: chunk count, stride, part", ff(16 + 16 + 8));
    if (f.red) a.add("NAMP-CC reduction: op and type", ff(6));
    if (f.ps)
        a.add("NAMP-PS dualcast copy: destination and element", ff(f.tile_bits + A + 16 + A + 3));
    if (f.osqm) a.add("HW-OSQM: QUEUE and THREAD (Fig. 3.34)", ff(A + 1 + A));
    area_structure prio = ff(8);
    prio.mux_bits = W;
    a.add("PRIORITY (QoS arbitration)", prio, true);
}

// A slot with a virtual interface has more registers (the vif writes them).
void namp_vif_slot(const platform_config &c, std::vector<area_part> &v) {
    features f = features_of(c);
    p a{v};
    area_structure win = ff(2 * W);
    win.mux_bits = 2 * W;
    a.add("SV isolation: WIN_BASE, WIN_SIZE", win, true);
    if (f.cc) {
        area_structure et = ff(A + 13);
        et.mux_bits = 2 * W;
        a.add("collectives through a vif: ET_BASE, ET_BOUND", et, true);
    }
}

// The initiator (4.2.3.2): egress FSM, ingress FSM, arbiters, the selected slot's registers.
void namp_initiator(const platform_config &c, std::vector<area_part> &v) {
    features f = features_of(c);
    p a{v};
    // egress steps: arbitrate, read the handle, program a DMA context, finalize (FINAL), update
    // the slot, give back after a failure
    a.add("egress FSM: arbitration, handle read, DMA set-up, FINAL, slot update, give-back",
          steps(6));
    a.add("ingress FSM: DMA completion, idle", states(2));
    // the handle's words go into the slot's destination registers and messages are streamed to
    // the NoC buffer word by word (the steps' word select): only the bus port and one word latch
    area_structure work = ff(3 * W);
    work.add_bits = W;      // element data address = buffer data + (index << max_msg_log2)
    work.mux_bits = 5 * W;  // its shift
    a.add("bus port address and data, word latch, element address", work);
    if (f.msg) {
        a.add("messages: ALLOC_REQ; ALLOC_RESP ACK / NACK", steps(3));
        area_structure bo = ff(16);                                   // jitter LFSR
        bo.mux_bits = double(bits_for(f.timer_bits)) * f.timer_bits;  // back-off exponent shift
        a.add("messages: exponential back-off with jitter", bo);
    }
    if (f.chan) {
        a.add(
            "channels: credit read and CAS, fast-path element, CoM CREDIT; CREDIT update, "
            "CREDIT_NACK",
            steps(7));
        area_structure ch = ff(2 * W);  // rdata, wr_idx of the fast path
        ch.inc_bits = 2 * W;            // credit decrement, wr_idx increment
        a.add("channels: credit and fast-path arithmetic", ch);
    }
    if (f.buf) {
        a.add("buffered: send-buffer peek, rd_idx CAS, element free", steps(3));
        area_structure b = ff(2 * W);
        b.inc_bits = W;
        b.eq_bits = W;  // committed element at rd_idx
        a.add("buffered: send-buffer indices", b);
    }
    if (f.ccm) a.add("CCM: next element, poll, leave", steps(2));
    if (f.mc) {
        a.add("NAMP-CC multicast: descriptor read, member walk, member status; member responses",
              steps(4));
        a.add("NAMP-CC multicast: member handle pointer, count", ff(A + 8));
    }
    if (f.sg) a.add("NAMP-CC scatter/gather: member chunk, gather packing", steps(2));
    if (f.red) a.add("NAMP-CC reduction: op word", steps(1));
    if (f.ps) {
        a.add("NAMP-PS: RELOC/MIGRATE, handle update, dualcast copy; NAK_RELOC", steps(5));
        a.add("NAMP-PS: relocation data", ff(f.tile_bits + A));
    }
    if (f.osqm) a.add("HW-OSQM trigger", steps(1));
    if (f.id) {
        // docs/security.md "Endpoint identity": the handle's ID word rides in ALLOC_REQ, FINAL
        // and CREDIT, a member handle's key (tile, id) in a contribution's ALLOC_REQ
        area_structure id = steps(1);
        id += ff(W + f.tile_bits + W);
        a.add("identity: the handle's ID word, a member handle's key (namp.identity)", id, true);
    }
    if (f.sv) {
        area_structure g = steps(1);
        g.cmp_bits = 2 * W;
        a.add("SV isolation: window compares of a guarded set-up", g, true);
        if (f.cc) {
            area_structure e;
            e.cmp_bits = 13;
            a.add("collectives through a vif: member vID bound compare", e, true);
        }
    }
}

// Per slot in the initiator: one arbiter input per progress state, the slot's share of the
// select multiplexer that brings the chosen slot's registers to the egress FSM.
void namp_initiator_port(const platform_config &c, std::vector<area_part> &v) {
    features f = features_of(c);
    p a{v};
    const unsigned progress =
        3 /* ready data finalize */ + (f.msg ? 1 : 0) + (f.ccm ? 1 : 0) + (f.cc ? 1 : 0);
    area_structure arb = ff(f.slot_bits);  // least-recently-served rank
    arb.cmp_bits = f.slot_bits * progress;
    a.add("arbiter inputs (one per progress state), LRS rank", arb);
    std::vector<area_part> slot;
    namp_slot(c, slot);
    double bits = 0;
    for (const area_part &s : slot)
        if (!s.extension) bits += s.s.ff_bits;
    area_structure sel;
    sel.mux_bits = bits;  // (slots - 1) inputs of this width overall: about one per slot
    a.add("select multiplexer share (the slot's registers)", sel);
    area_structure q;
    q.cmp_bits = 8;
    a.add("QoS priority compare", q, true);
}

// The target (4.2.3.2): stateless, serves incoming requests.
void namp_target(const platform_config &c, std::vector<area_part> &v) {
    features f = features_of(c);
    p a{v};
    a.add("FSM: decode, endpoint read, FINAL commit, RX_MESSAGES, response", steps(5));
    // the request's endpoint, element / size and source; the endpoint's buffer address and flags
    a.add("request and endpoint words", ff(A + W + 16 + f.tile_bits + A + 6));
    if (f.msg || f.chan) {
        area_structure r = ff(16);  // RX_COUNT
        r.inc_bits = 16 + W;        // RX_COUNT, RX_MESSAGES
        a.add("receive counters", r);
    }
    if (f.msg) {
        a.add("messages: buffer header read, size word, CAS wr_idx", steps(3));
        area_structure al = ff(5 + 5 + 2 * W);  // capacity_log2, max_msg_log2, wr_idx, rd_idx
        al.eq_bits = W;                         // full
        al.cmp_bits = W;                        // too large
        al.inc_bits = W;                        // wr_idx + 1
        al.add_bits = W;                        // element data address
        al.mux_bits = 5 * W;                    // index << max_msg_log2
        a.add("messages: allocation arithmetic", al);
    }
    if (f.chan) {
        a.add("channels: CREDIT add, CREDIT_NACK, FINAL advance, revoke", steps(4));
        area_structure ch;
        ch.add_bits = W;
        ch.inc_bits = W;
        a.add("channels: credit add, wr_idx advance", ch);
    }
    if (f.sg) {
        a.add("NAMP-CC gather: descriptor, chunk placement", steps(2));
        area_structure g = ff(2 * W);
        g.add_bits = W;
        g.mux_bits = 5 * W;
        a.add("NAMP-CC gather: chunk address", g);
    }
    if (f.red) a.add("NAMP-CC reduction: entry read-modify-write", steps(2));
    if (f.ps) {
        area_structure r = steps(4);
        r.eq_bits = W;  // RELOC != 0
        a.add("NAMP-PS: relocation check, NAK_RELOC, RELOC / MIGRATE handle update", r);
    }
    if (f.osqm) a.add("HW-OSQM trigger: endpoint words", steps(1));
    if (f.id) {
        // docs/security.md "Endpoint identity": the endpoint's ID word read with its state and
        // compared with the one the request carries (allocation, FINAL, CREDIT)
        area_structure g = steps(1);
        g += ff(W);
        g.eq_bits = W;
        a.add("identity: endpoint ID word and its compare (namp.identity)", g, true);
        if (f.red || f.sg) {
            // "Collective membership": the root's member table read entry by entry (at most 15),
            // each compared with the contribution's key; the index is the gather part
            area_structure m = steps(2);
            m += ff(4 + f.tile_bits + W);
            m.eq_bits = f.tile_bits + W;
            m.inc_bits = 4;
            m.cmp_bits = 4;
            a.add("collective membership: member-table walk and key compare (namp.identity)", m,
                  true);
        }
    }
    if (f.sv) {
        area_structure g = steps(2);
        g.cmp_bits = 2 * W;
        g.inc_bits = W;
        a.add("SV isolation: window compares, INFLIGHT count", g, true);
    }
}

// The receive-side refusal counter (NA_NAMP_REFUSED) and the other status registers.
void namp_top(const platform_config &c, std::vector<area_part> &v) {
    features f = features_of(c);
    p a{v};
    area_structure glue = ff(2 /* ARBITRATION */);
    glue.mux_bits = 6 * W;  // status page read
    glue.eq_bits = f.slot_bits + 8;
    a.add("top level: register decode, status page, IRQ aggregation", glue);
    area_structure refused = ff(W);
    refused.inc_bits = W;
    a.add("NA_NAMP_REFUSED: allocations refused for a full buffer", refused, true);
}

// NAMP-SV virtual interface (4.2.3.3, Fig. 4.7, Table 3.32).
void namp_vif(const platform_config &c, std::vector<area_part> &v) {
    (void)c;
    p a{v};
    area_structure kcfg = ff(29 + 13 + 2);  // ET_BASE (8-byte aligned), ET_BOUND, CTRL
    kcfg.mux_bits = 2 * W;
    a.add("task configuration: ET_BASE, ET_BOUND, CTRL", kcfg);
    // 4.2.3.3: the task's writes go through to the slot's registers, where the vIDs are
    // translated in place; this platform keeps the task's own values (it reads its vIDs back,
    // and a refused start leaves the slot untouched), so the copy is an extension
    area_structure task = ff(6 + 12 + 12 + W);  // FLAGS, vID, vID, PARAM3
    task.mux_bits = 3 * W;
    a.add("task interface registers FLAGS, PARAM1..3 (vIDs) of its own", task, true);
    area_structure tr = steps(3);
    tr.states += 2;    // idle, refuse
    tr.cmp_bits = 13;  // vID < bound
    tr.add_bits = W;   // table entry address
    a.add("translation FSM, bound compare, entry address", tr);
    area_structure ext = ff(W + W);
    ext.inc_bits = W;
    ext.mux_bits = 2 * W;
    a.add("TRANSLATIONS, PARK", ext, true);
}

// HW-OSQM (4.2.3.4, Fig. 4.8): configuration, the insertion FSM, its address arithmetic.
void osqm(const platform_config &c, std::vector<area_part> &v) {
    features f = features_of(c);
    p a{v};
    area_structure req = ff(A + A);  // the request being served
    req.mux_bits = 2 * A;            // initiator or target
    a.add("request: QUEUE, THREAD (from the initiator or the target)", req);
    // Fig. 3.33a: the tail read in step 1 is the address of step 2's write and the data of step 3's,
    // so it is held across step 2's use of the bus port.
    a.add("the tail read in step 1, held for steps 2 and 3", ff(A));
    a.add("insertion FSM: tail read, link, back link, tail update, empty queue", steps(6));
    if (!f.osqm_static) {
        area_structure cfg = ff(1 + 1 + 2 * 10 + 2 * 10);  // TYPE, DIR, Q_LAYOUT, E_LAYOUT
        cfg.mux_bits = 4 * W;
        a.add("run-time configuration: TYPE, DIR, Q_LAYOUT, E_LAYOUT", cfg);
        area_structure ar;
        ar.add_bits = 2 * W;  // queue + offset, element + offset
        ar.mux_bits = 2 * W;  // TYPE / DIR select of the pointer
        a.add("pointer addresses: base + configured offset", ar);
    } else {
        area_structure ar;
        ar.inc_bits = 2 * (W - 2);  // base + a constant offset
        a.add("pointer addresses: base + fixed offset", ar);
    }
    area_structure ext = steps(5);          // lock take / give, bitmap bit, demand IRQ
    ext += ff(4 + A + A + 16 + A + A + 2);  // MODE, BITMAP_*, WAKEUP, LOCK_*
    a.add("MODE, bitmap, wake-up queue, OS lock", ext, true);
    area_structure fifo;
    fifo.storage_bits = 8 * A;  // critical THREADs (OSQM_IRQ_FIFO_DEPTH)
    fifo.ff_bits = W + 8;       // INSERTIONS, OSQM_IRQ
    fifo.inc_bits = W + 8;
    a.add("demand interrupt FIFO, INSERTIONS", fifo, true);
}

// NAMP-CC reduction (3.3.3, Fig. 3.28): the ALU in the receiving DMA's data path.
void cc_reduce_alu(const platform_config &c, std::vector<area_part> &v) {
    (void)c;
    p a{v};
    area_structure alu = ff(2 * W);  // operand and result
    alu.add_bits = W;                // sum (byte lanes split)
    alu.cmp_bits = W;                // min, max (signed, unsigned)
    alu.mux_bits = 4 * W;            // and, or, xor, logical, result select
    alu.states = 2;
    a.add("reduction ALU: sum, min, max, logic ops on 8/16/32-bit lanes", alu);
}

unsigned one(const platform_config &) { return 1; }
unsigned two(const platform_config &) { return 2; }
unsigned namp_on(const platform_config &c) { return c.na.namp.enabled ? 1 : 0; }

}  // namespace

const std::vector<area_component_def> &area_component_defs() {
    static const std::vector<area_component_def> defs = {
        {"noc_buffer", "noc_buffers",
         "NoC buffer (request and response channel): storage, pointers, assembly", noc_buffer, two},
        {"data_request_queue", "noc_buffers", "data-request input queue of the target DMA side",
         data_request_queue, one},
        {"dma_engine", "dma", "DMA: reader, injector, completions", dma_engine, one},
        {"dma_slot", "dma", "DMA user slot registers", dma_slot,
         [](const platform_config &c) { return c.na.dma_slots; }},
        {"dma_context", "dma", "DMA context: transfer progress, read-ahead FIFO", dma_context,
         [](const platform_config &c) { return c.na.dma_contexts; }},
        {"namp_top", "namp", "NAMP top level: decode, status page, counters", namp_top, namp_on},
        {"namp_slot", "namp", "NAMP slot: registers, transfer state, timer, FSM", namp_slot,
         [](const platform_config &c) { return c.na.namp.enabled ? c.na.namp.slots : 0u; }},
        {"namp_initiator", "namp", "NAMP initiator: egress and ingress FSMs, datapath",
         namp_initiator, namp_on},
        {"namp_initiator_port", "namp",
         "NAMP initiator per slot: arbiter inputs, select multiplexer", namp_initiator_port,
         [](const platform_config &c) { return c.na.namp.enabled ? c.na.namp.slots : 0u; }},
        {"namp_target", "namp", "NAMP target: request FSM, allocation arithmetic", namp_target,
         namp_on},
        {"namp_vif", "namp", "NAMP-SV virtual interface", namp_vif,
         [](const platform_config &c) { return c.na.namp.enabled ? c.na.namp.slots_virt : 0u; }},
        {"namp_vif_slot", "namp", "registers of a slot a virtual interface drives", namp_vif_slot,
         [](const platform_config &c) { return c.na.namp.enabled ? c.na.namp.slots_virt : 0u; }},
        {"osqm", "namp", "HW-OSQM: insertion FSM, configuration, requests", osqm,
         [](const platform_config &c) { return c.na.namp.enabled && c.na.namp.osqm ? 1u : 0u; }},
        {"cc_reduce_alu", "namp", "NAMP-CC reduction ALU in the receiving DMA", cc_reduce_alu,
         [](const platform_config &c) {
             return c.na.namp.enabled && c.na.namp.cc_reduction ? 1u : 0u;
         }},
    };
    return defs;
}

}  // namespace vp
