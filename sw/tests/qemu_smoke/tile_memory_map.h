/* The tile memory map as the QEMU smoke test sees it: the real map, except that the simulation
 * control and tile information blocks (which QEMU's virt machine does not have; virtio devices sit
 * there) are moved to plain RAM above the firmware. The console stays at 0x10000000, where virt's
 * 16550 UART takes the byte written to CONSOLE_TX as its transmit register. The CLINT layout is the
 * same. Found before the real header through the include path; includes it and patches it. */
#include_next "tile_memory_map.h"

#undef TILE_SIMCTRL_BASE
#define TILE_SIMCTRL_BASE 0x80F00000u
#undef TILE_INFO_BASE
#define TILE_INFO_BASE 0x80F01000u
