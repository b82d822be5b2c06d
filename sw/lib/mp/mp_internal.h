/* Internal interfaces of the message-passing library, for the API layer (mcapi.c, the
 * collectives) and the kernel's task glue: the endpoint layer and the transport interface. */
#ifndef MP_INTERNAL_H
#define MP_INTERNAL_H

#include "endpoints.h"
#include "transport.h"

#endif
