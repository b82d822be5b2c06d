// Who watches the NAMP from outside the model (the --log namp category, docs/logging.md): told of
// every NAMP message an adapter receives and every state change of its slots. Optional; the
// model calls it only when one is set (network_adapter::set_observer).
#pragma once

namespace namp {

struct namp_observer {
    virtual ~namp_observer() = default;
    // A NAMP message (sub: NAMP_MSG_*) from tile (src_x, src_y) reached the adapter of tile.
    virtual void message_received(unsigned tile, unsigned src_x, unsigned src_y, unsigned sub) = 0;
    // Slot `slot` of the adapter of tile went from one state to another (slot_state_name).
    virtual void slot_changed(unsigned tile, unsigned slot, const char *from, const char *to) = 0;
};

}  // namespace namp
