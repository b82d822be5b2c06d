/* Register names of the NAMP slot interface used by the driver. The contract is the hardware
 * header in namp/include (slot layout of Table 3.2 at the Table 4.1 addresses); until it exists
 * this file carries the agreed layout (slot n at 0x200000 + 0x4000 n, FLAGS/PARAM1..3/STATUS,
 * RX_COUNT, IRQ sources NAMP_DONE and RX_COUNT) with provisional offsets and bit positions. */
#ifndef NAMP_HW_H
#define NAMP_HW_H

#include "na_registers.h"

#if defined(__has_include)
#if __has_include("namp_structs.h")
#include "namp_structs.h"
#define NAMP_HAVE_CONTRACT 1
#endif
#endif

#ifndef NAMP_SLOT_FLAGS
/* ---- provisional (replaced by the contract header) ---- */
#define NAMP_SLOT_FLAGS    0x00u
#define NAMP_SLOT_PARAM1   0x04u
#define NAMP_SLOT_PARAM2   0x08u
#define NAMP_SLOT_PARAM3   0x0Cu
#define NAMP_SLOT_STATUS   0x10u
#define NAMP_FLAG_COM      (1u << 0)
#define NAMP_FLAG_CON      (1u << 1)
#define NAMP_FLAG_BUF      (1u << 2)
#define NAMP_FLAG_CCM      (1u << 3)
#define NAMP_FLAG_IEN      (1u << 4)
#define NAMP_FLAG_VALID    (1u << 5)
#define NAMP_FLAG_DONE     (1u << 6)
#define NAMP_STATUS_ERROR  (1u << 31)
#define NAMP_STATUS_CODE(s) ((s) & 0xFFu)
#define NA_NAMP_RX_COUNT   0x028u
#define NA_IRQ_SRC_NAMP_DONE (1u << 4)
#define NA_IRQ_SRC_RX_COUNT  (1u << 5)
#define NA_FEATURE_NAMP_MSG  (1u << 8)
#define NA_FEATURE_NAMP_CHAN (1u << 9)
#define NA_FEATURE_NAMP_BUF  (1u << 10)
#define NA_FEATURE_NAMP_CCM  (1u << 11)
#endif

/* Driver-side names. */
#define NAMP_F_COM   NAMP_FLAG_COM
#define NAMP_F_CON   NAMP_FLAG_CON
#define NAMP_F_BUF   NAMP_FLAG_BUF
#define NAMP_F_CCM   NAMP_FLAG_CCM
#define NAMP_F_IEN   NAMP_FLAG_IEN
#define NAMP_F_VALID NAMP_FLAG_VALID
#define NAMP_F_DONE  NAMP_FLAG_DONE

#endif
