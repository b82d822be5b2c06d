/* Disassembly of RV32 instructions by the ISS's own decoder (the same one that executes them), for
 * instruction logs and messages: what the log shows is what the core did, not what a separate
 * tool thinks the bits mean. */
#ifndef ISS_RV32_DISASM_H
#define ISS_RV32_DISASM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the assembly of the instruction `bits` at `pc` into buf (always NUL-terminated), e.g.
 * "addi a0, sp, 16", "beq a0, a1, 0x80000120", "csrrw zero, mtvec, a5". Compressed instructions
 * (low two bits not 11) are shown as the base instruction they expand to. An encoding the core
 * does not implement is shown as "illegal 0x...", with the extension it belongs to when known
 * (e.g. "illegal 0x0005a007: flw (F extension: single-precision floating point)").
 * Returns the instruction length in bytes (2 or 4). */
unsigned rv_disasm(uint32_t bits, uint32_t pc, char *buf, size_t len);

/* For bits the core does not implement: the instruction and extension it belongs to, e.g.
 * "fadd.d (D extension: double-precision floating point)", or NULL if unknown or implemented. */
const char *rv_missing_extension(uint32_t bits);

/* The name of CSR `csr` as the privileged spec (and Spike's commit log) spells it, e.g. "mstatus",
 * "pmpaddr3", into buf; "0x..." and 0 for a number without one, else 1. */
unsigned rv_csr_name(uint32_t csr, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
