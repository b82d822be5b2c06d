/* What every NAMP-CC firmware of this folder shares: the start on core 0 of each tile (root on
 * tile 0, members elsewhere) and the fatal-error report. */
#ifndef NAMP_CC_APP_H
#define NAMP_CC_APP_H

#include <stdint.h>

#include "mcapi.h"

/* Prints "<name> FAIL: tile T: <what>: <status>" and ends the run with exit code 1. */
__attribute__((noreturn)) void cc_app_die(const char *name, const char *what, mcapi_status_t st);

/* Core 0 of every tile: checks that the mesh has at least `tiles` tiles (tile 0 reports and fails
 * otherwise), initializes MCAPI with the tile id as node, then runs root() on tile 0 and
 * member(tile) elsewhere; other cores return 0 at once. */
int cc_app_run(const char *name, uint32_t tiles, int (*root)(void), int (*member)(uint32_t));

#endif
