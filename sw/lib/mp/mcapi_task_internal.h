/* What the task build's collectives (mcapi_task_cc.c) use of the task build's core
 * (mcapi_task.c): its state, kernel requests, endpoint lookups and the vif. */
#ifndef MCAPI_TASK_INTERNAL_H
#define MCAPI_TASK_INTERNAL_H

#include <stdint.h>

#include "mcapi.h"
#include "mp/task.h"
#include "na_registers.h"

struct mp_task_ctrl *mptask_ctrl(void);
int mptask_ready(void);
int32_t mptask_request(uint32_t op, uint32_t a1, uint32_t a2); /* >= 0, or MP_TASK_ERR(status) */
struct mp_task_ep *mptask_local(mcapi_endpoint_t e);           /* NULL: not a local endpoint */
struct mp_task_remote *mptask_remote(mcapi_endpoint_t e);      /* NULL: not a looked-up one */
volatile uint32_t *mptask_vif(void);                           /* the vif's interface page */
void mptask_vif_acquire(void);   /* until the queued non-blocking sends are done */
void mptask_vif_wait_done(void); /* until the vif's transfer is DONE */
mcapi_status_t mptask_map_error(uint32_t code, uint32_t flags); /* a slot or vif STATUS code */

#endif
