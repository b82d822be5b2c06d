/* The endpoint layer (endpoints.h): the local endpoint table and its lookups, the statistics and
 * the data path in force. */
#include <stdint.h>

#include "endpoints.h"

volatile mp_stats_t mp_stats;
uint32_t mp_data_path = MP_DEFAULT_DATA_PATH;

struct mp_endpoint mp_endpoints[MP_MAX_ENDPOINTS];

struct mp_endpoint *mp_find_port(uint32_t port)
{
    for (uint32_t i = 0; i < MP_MAX_ENDPOINTS; ++i)
        if (mp_endpoints[i].state == MP_EP_READY && mp_endpoints[i].h.port == port)
            return &mp_endpoints[i];
    return NULL;
}

struct mp_endpoint *mp_find_port_any(uint32_t port)
{
    for (uint32_t i = 0; i < MP_MAX_ENDPOINTS; ++i)
        if ((mp_endpoints[i].state == MP_EP_READY || mp_endpoints[i].state == MP_EP_MOVED) &&
            mp_endpoints[i].h.port == port)
            return &mp_endpoints[i];
    return NULL;
}

uint32_t mp_ep_rx_data0(const struct mp_endpoint *ep)
{
    return (uint32_t)(uintptr_t)ep->rx + MP_CB_HEADER_SIZE + (4u << ep->rx_n);
}

struct mp_endpoint *mp_ep_from_addr(uint32_t addr)
{
    uintptr_t a = addr, base = (uintptr_t)mp_endpoints;
    if (a < base || a >= base + sizeof mp_endpoints || (a - base) % sizeof(struct mp_endpoint))
        return NULL;
    return (struct mp_endpoint *)a;
}
