/* The whole namp-vp firmware HAL. */
#ifndef HAL_HAL_H
#define HAL_HAL_H

#include "hal/csr.h"
#include "hal/mmio.h"
#include "hal/console.h"
#include "hal/tileinfo.h"
#include "hal/simctrl.h"
#include "hal/timer.h"
#include "hal/trap.h"
#include "hal/irq.h"
#include "hal/smp.h"

#endif
