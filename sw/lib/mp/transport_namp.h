/* What the NAMP transport (transport_namp.c) offers the rest of the NAMP library besides the
 * transport interface (transport.h): relocation (relocate.c) and the collectives in the adapter
 * (collective_namp.c). */
#ifndef MP_TRANSPORT_NAMP_H
#define MP_TRANSPORT_NAMP_H

#include <stdint.h>

#include "endpoints.h"

/* ep became the receiving side of a channel: the NAMP target refuses connection-less messages to
 * it from now on (NACK NAMP_ERR_CHANNEL). */
void mp_namp_chan_accepted(struct mp_endpoint *ep);
/* No send of the library is waiting or under way: a collective cannot overtake one. */
int mp_namp_sends_idle(void);
/* Runs a collective slot (PARAM1 = descriptor) to completion like a blocking unbuffered send;
 * returns the STATUS code (0: every member done). */
uint32_t mp_namp_run_cc(uint32_t flags, uint32_t desc, const void *buf, uint32_t size);
/* A slot's STATUS error code as an MCAPI status. */
mcapi_status_t mp_namp_map_error(uint32_t code);

#endif
