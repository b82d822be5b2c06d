/* The start the NAMP-SV test firmware shares: the kernel on core 0 of each tile, then a main
 * thread that checks for NAMP-SV and runs tile0() on tile 0 and tile1() on tile 1 (or one role
 * per tile for up to four). */
#ifndef SV_MAIN_H
#define SV_MAIN_H

int sv_main(void (*tile0)(void), void (*tile1)(void));
/* The same for up to four tiles: tiles[i] runs on tile i. */
int sv_main_tiles(void (*const tiles[])(void), unsigned n);

#endif
