/* Register and structure names of the NAMP contract (contract/na_registers.h: slot registers
 * of Table 3.2 at the Table 4.1 addresses, STATUS, RX_COUNT, IRQ sources; namp_structs.h:
 * endpoint and remote-endpoint handle layouts) with the driver's short flag names. */
#ifndef NAMP_HW_H
#define NAMP_HW_H

#include "na_registers.h"
#include "namp_structs.h"

#define NAMP_F_COM   NAMP_FLAG_COM
#define NAMP_F_CON   NAMP_FLAG_CON
#define NAMP_F_BUF   NAMP_FLAG_BUF
#define NAMP_F_CCM   NAMP_FLAG_CCM
#define NAMP_F_IEN   NAMP_FLAG_IEN
#define NAMP_F_VALID NAMP_FLAG_VALID
#define NAMP_F_DONE  NAMP_FLAG_DONE

#endif
