// Tiny RV32IMAC instruction encoder for the ISS unit tests (hand-assembled instruction words).
// Registers are plain numbers (x0..x31); compressed "prime" registers take x8..x15.
#pragma once
#include <cstdint>

namespace enc {

// ---- base formats -------------------------------------------------------------------------
constexpr uint32_t r_type(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd,
                          uint32_t op) {
    return (f7 << 25) | ((rs2 & 31) << 20) | ((rs1 & 31) << 15) | (f3 << 12) | ((rd & 31) << 7) |
           op;
}
constexpr uint32_t i_type(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op) {
    return ((uint32_t(imm) & 0xfff) << 20) | ((rs1 & 31) << 15) | (f3 << 12) | ((rd & 31) << 7) |
           op;
}
constexpr uint32_t s_type(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t op) {
    uint32_t u = uint32_t(imm);
    return (((u >> 5) & 0x7f) << 25) | ((rs2 & 31) << 20) | ((rs1 & 31) << 15) | (f3 << 12) |
           ((u & 31) << 7) | op;
}
constexpr uint32_t b_type(int32_t off, uint32_t rs2, uint32_t rs1, uint32_t f3) {
    uint32_t u = uint32_t(off);
    return (((u >> 12) & 1) << 31) | (((u >> 5) & 0x3f) << 25) | ((rs2 & 31) << 20) |
           ((rs1 & 31) << 15) | (f3 << 12) | (((u >> 1) & 0xf) << 8) | (((u >> 11) & 1) << 7) |
           0x63;
}
constexpr uint32_t u_type(uint32_t imm20, uint32_t rd, uint32_t op) {
    return ((imm20 & 0xfffff) << 12) | ((rd & 31) << 7) | op;
}
constexpr uint32_t j_type(int32_t off, uint32_t rd) {
    uint32_t u = uint32_t(off);
    return (((u >> 20) & 1) << 31) | (((u >> 1) & 0x3ff) << 21) | (((u >> 11) & 1) << 20) |
           (((u >> 12) & 0xff) << 12) | ((rd & 31) << 7) | 0x6f;
}

// ---- RV32I --------------------------------------------------------------------------------
constexpr uint32_t lui(uint32_t rd, uint32_t imm20) { return u_type(imm20, rd, 0x37); }
constexpr uint32_t auipc(uint32_t rd, uint32_t imm20) { return u_type(imm20, rd, 0x17); }
constexpr uint32_t jal(uint32_t rd, int32_t off) { return j_type(off, rd); }
constexpr uint32_t jalr(uint32_t rd, uint32_t rs1, int32_t imm) {
    return i_type(imm, rs1, 0, rd, 0x67);
}
constexpr uint32_t beq(uint32_t a, uint32_t b, int32_t off) { return b_type(off, b, a, 0); }
constexpr uint32_t bne(uint32_t a, uint32_t b, int32_t off) { return b_type(off, b, a, 1); }
constexpr uint32_t blt(uint32_t a, uint32_t b, int32_t off) { return b_type(off, b, a, 4); }
constexpr uint32_t bge(uint32_t a, uint32_t b, int32_t off) { return b_type(off, b, a, 5); }
constexpr uint32_t bltu(uint32_t a, uint32_t b, int32_t off) { return b_type(off, b, a, 6); }
constexpr uint32_t bgeu(uint32_t a, uint32_t b, int32_t off) { return b_type(off, b, a, 7); }
constexpr uint32_t lb(uint32_t rd, uint32_t rs1, int32_t imm) {
    return i_type(imm, rs1, 0, rd, 0x03);
}
constexpr uint32_t lh(uint32_t rd, uint32_t rs1, int32_t imm) {
    return i_type(imm, rs1, 1, rd, 0x03);
}
constexpr uint32_t lw(uint32_t rd, uint32_t rs1, int32_t imm) {
    return i_type(imm, rs1, 2, rd, 0x03);
}
constexpr uint32_t lbu(uint32_t rd, uint32_t rs1, int32_t imm) {
    return i_type(imm, rs1, 4, rd, 0x03);
}
constexpr uint32_t lhu(uint32_t rd, uint32_t rs1, int32_t imm) {
    return i_type(imm, rs1, 5, rd, 0x03);
}
constexpr uint32_t sb(uint32_t rs2, uint32_t rs1, int32_t imm) {
    return s_type(imm, rs2, rs1, 0, 0x23);
}
constexpr uint32_t sh(uint32_t rs2, uint32_t rs1, int32_t imm) {
    return s_type(imm, rs2, rs1, 1, 0x23);
}
constexpr uint32_t sw(uint32_t rs2, uint32_t rs1, int32_t imm) {
    return s_type(imm, rs2, rs1, 2, 0x23);
}
constexpr uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm) {
    return i_type(imm, rs1, 0, rd, 0x13);
}
constexpr uint32_t slti(uint32_t rd, uint32_t rs1, int32_t imm) {
    return i_type(imm, rs1, 2, rd, 0x13);
}
constexpr uint32_t sltiu(uint32_t rd, uint32_t rs1, int32_t imm) {
    return i_type(imm, rs1, 3, rd, 0x13);
}
constexpr uint32_t xori(uint32_t rd, uint32_t rs1, int32_t imm) {
    return i_type(imm, rs1, 4, rd, 0x13);
}
constexpr uint32_t ori(uint32_t rd, uint32_t rs1, int32_t imm) {
    return i_type(imm, rs1, 6, rd, 0x13);
}
constexpr uint32_t andi(uint32_t rd, uint32_t rs1, int32_t imm) {
    return i_type(imm, rs1, 7, rd, 0x13);
}
constexpr uint32_t slli(uint32_t rd, uint32_t rs1, uint32_t sh) {
    return r_type(0, sh, rs1, 1, rd, 0x13);
}
constexpr uint32_t srli(uint32_t rd, uint32_t rs1, uint32_t sh) {
    return r_type(0, sh, rs1, 5, rd, 0x13);
}
constexpr uint32_t srai(uint32_t rd, uint32_t rs1, uint32_t sh) {
    return r_type(0x20, sh, rs1, 5, rd, 0x13);
}
constexpr uint32_t add(uint32_t rd, uint32_t a, uint32_t b) { return r_type(0, b, a, 0, rd, 0x33); }
constexpr uint32_t sub(uint32_t rd, uint32_t a, uint32_t b) {
    return r_type(0x20, b, a, 0, rd, 0x33);
}
constexpr uint32_t sll(uint32_t rd, uint32_t a, uint32_t b) { return r_type(0, b, a, 1, rd, 0x33); }
constexpr uint32_t slt(uint32_t rd, uint32_t a, uint32_t b) { return r_type(0, b, a, 2, rd, 0x33); }
constexpr uint32_t sltu(uint32_t rd, uint32_t a, uint32_t b) {
    return r_type(0, b, a, 3, rd, 0x33);
}
constexpr uint32_t xor_(uint32_t rd, uint32_t a, uint32_t b) {
    return r_type(0, b, a, 4, rd, 0x33);
}
constexpr uint32_t srl(uint32_t rd, uint32_t a, uint32_t b) { return r_type(0, b, a, 5, rd, 0x33); }
constexpr uint32_t sra(uint32_t rd, uint32_t a, uint32_t b) {
    return r_type(0x20, b, a, 5, rd, 0x33);
}
constexpr uint32_t or_(uint32_t rd, uint32_t a, uint32_t b) { return r_type(0, b, a, 6, rd, 0x33); }
constexpr uint32_t and_(uint32_t rd, uint32_t a, uint32_t b) {
    return r_type(0, b, a, 7, rd, 0x33);
}
constexpr uint32_t fence() { return 0x0ff0000f; }
constexpr uint32_t fence_i() { return 0x0000100f; }
constexpr uint32_t ecall() { return 0x00000073; }
constexpr uint32_t ebreak() { return 0x00100073; }
constexpr uint32_t sret() { return 0x10200073; }
constexpr uint32_t mret() { return 0x30200073; }
constexpr uint32_t wfi() { return 0x10500073; }
constexpr uint32_t sfence_vma(uint32_t rs1 = 0, uint32_t rs2 = 0) {
    return r_type(0x09, rs2, rs1, 0, 0, 0x73);
}
constexpr uint32_t nop() { return addi(0, 0, 0); }

// ---- Zicsr --------------------------------------------------------------------------------
constexpr uint32_t csrrw(uint32_t rd, uint32_t csr, uint32_t rs1) {
    return i_type(int32_t(csr), rs1, 1, rd, 0x73);
}
constexpr uint32_t csrrs(uint32_t rd, uint32_t csr, uint32_t rs1) {
    return i_type(int32_t(csr), rs1, 2, rd, 0x73);
}
constexpr uint32_t csrrc(uint32_t rd, uint32_t csr, uint32_t rs1) {
    return i_type(int32_t(csr), rs1, 3, rd, 0x73);
}
constexpr uint32_t csrrwi(uint32_t rd, uint32_t csr, uint32_t z) {
    return i_type(int32_t(csr), z, 5, rd, 0x73);
}
constexpr uint32_t csrrsi(uint32_t rd, uint32_t csr, uint32_t z) {
    return i_type(int32_t(csr), z, 6, rd, 0x73);
}
constexpr uint32_t csrrci(uint32_t rd, uint32_t csr, uint32_t z) {
    return i_type(int32_t(csr), z, 7, rd, 0x73);
}
constexpr uint32_t csrr(uint32_t rd, uint32_t csr) { return csrrs(rd, csr, 0); }
constexpr uint32_t csrw(uint32_t csr, uint32_t rs1) { return csrrw(0, csr, rs1); }

// ---- M ------------------------------------------------------------------------------------
constexpr uint32_t mul(uint32_t rd, uint32_t a, uint32_t b) { return r_type(1, b, a, 0, rd, 0x33); }
constexpr uint32_t mulh(uint32_t rd, uint32_t a, uint32_t b) {
    return r_type(1, b, a, 1, rd, 0x33);
}
constexpr uint32_t mulhsu(uint32_t rd, uint32_t a, uint32_t b) {
    return r_type(1, b, a, 2, rd, 0x33);
}
constexpr uint32_t mulhu(uint32_t rd, uint32_t a, uint32_t b) {
    return r_type(1, b, a, 3, rd, 0x33);
}
constexpr uint32_t div(uint32_t rd, uint32_t a, uint32_t b) { return r_type(1, b, a, 4, rd, 0x33); }
constexpr uint32_t divu(uint32_t rd, uint32_t a, uint32_t b) {
    return r_type(1, b, a, 5, rd, 0x33);
}
constexpr uint32_t rem(uint32_t rd, uint32_t a, uint32_t b) { return r_type(1, b, a, 6, rd, 0x33); }
constexpr uint32_t remu(uint32_t rd, uint32_t a, uint32_t b) {
    return r_type(1, b, a, 7, rd, 0x33);
}

// ---- A ------------------------------------------------------------------------------------
constexpr uint32_t amo(uint32_t f5, uint32_t rd, uint32_t rs2, uint32_t rs1, bool aq = false,
                       bool rl = false) {
    return r_type((f5 << 2) | (aq ? 2u : 0u) | (rl ? 1u : 0u), rs2, rs1, 2, rd, 0x2f);
}
constexpr uint32_t lr_w(uint32_t rd, uint32_t rs1) { return amo(0x02, rd, 0, rs1); }
constexpr uint32_t sc_w(uint32_t rd, uint32_t rs2, uint32_t rs1) { return amo(0x03, rd, rs2, rs1); }
constexpr uint32_t amoswap_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
    return amo(0x01, rd, rs2, rs1);
}
constexpr uint32_t amoadd_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
    return amo(0x00, rd, rs2, rs1);
}
constexpr uint32_t amoxor_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
    return amo(0x04, rd, rs2, rs1);
}
constexpr uint32_t amoand_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
    return amo(0x0c, rd, rs2, rs1);
}
constexpr uint32_t amoor_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
    return amo(0x08, rd, rs2, rs1);
}
constexpr uint32_t amomin_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
    return amo(0x10, rd, rs2, rs1);
}
constexpr uint32_t amomax_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
    return amo(0x14, rd, rs2, rs1);
}
constexpr uint32_t amominu_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
    return amo(0x18, rd, rs2, rs1);
}
constexpr uint32_t amomaxu_w(uint32_t rd, uint32_t rs2, uint32_t rs1) {
    return amo(0x1c, rd, rs2, rs1);
}

// ---- C (16-bit) ---------------------------------------------------------------------------
constexpr uint32_t cr(uint32_t r) { return (r - 8) & 7; }  // x8..x15 -> 3-bit field
constexpr uint16_t bit(uint32_t v, unsigned b) { return uint16_t((v >> b) & 1); }

constexpr uint16_t c_addi4spn(uint32_t rdp, uint32_t nzuimm) {
    return uint16_t((bit(nzuimm, 5) << 12) | (bit(nzuimm, 4) << 11) | (((nzuimm >> 6) & 0xf) << 7) |
                    (bit(nzuimm, 2) << 6) | (bit(nzuimm, 3) << 5) | (cr(rdp) << 2) | 0x0);
}
constexpr uint16_t c_lw(uint32_t rdp, uint32_t rs1p, uint32_t uimm) {
    return uint16_t((2u << 13) | (((uimm >> 3) & 7) << 10) | (cr(rs1p) << 7) | (bit(uimm, 2) << 6) |
                    (bit(uimm, 6) << 5) | (cr(rdp) << 2) | 0x0);
}
constexpr uint16_t c_sw(uint32_t rs2p, uint32_t rs1p, uint32_t uimm) {
    return uint16_t((6u << 13) | (((uimm >> 3) & 7) << 10) | (cr(rs1p) << 7) | (bit(uimm, 2) << 6) |
                    (bit(uimm, 6) << 5) | (cr(rs2p) << 2) | 0x0);
}
// CI format with 6-bit signed immediate: imm[5] at bit 12, imm[4:0] at bits 6:2
constexpr uint16_t ci(uint32_t f3, uint32_t rd, int32_t imm, uint32_t op) {
    uint32_t u = uint32_t(imm);
    return uint16_t((f3 << 13) | (bit(u, 5) << 12) | ((rd & 31) << 7) | ((u & 31) << 2) | op);
}
constexpr uint16_t c_nop() { return ci(0, 0, 0, 1); }
constexpr uint16_t c_addi(uint32_t rd, int32_t nzimm) { return ci(0, rd, nzimm, 1); }
constexpr uint16_t c_li(uint32_t rd, int32_t imm) { return ci(2, rd, imm, 1); }
constexpr uint16_t c_lui(uint32_t rd, int32_t nzimm6) {
    return ci(3, rd, nzimm6, 1);
}  // imm[17:12]
constexpr uint16_t c_addi16sp(int32_t nzimm) {
    uint32_t u = uint32_t(nzimm);
    return uint16_t((3u << 13) | (bit(u, 9) << 12) | (2u << 7) | (bit(u, 4) << 6) |
                    (bit(u, 6) << 5) | (((u >> 7) & 3) << 3) | (bit(u, 5) << 2) | 1);
}
constexpr uint16_t cj_imm(int32_t off) {
    uint32_t u = uint32_t(off);
    return uint16_t((bit(u, 11) << 12) | (bit(u, 4) << 11) | (((u >> 8) & 3) << 9) |
                    (bit(u, 10) << 8) | (bit(u, 6) << 7) | (bit(u, 7) << 6) |
                    (((u >> 1) & 7) << 3) | (bit(u, 5) << 2));
}
constexpr uint16_t c_jal(int32_t off) { return uint16_t((1u << 13) | cj_imm(off) | 1); }
constexpr uint16_t c_j(int32_t off) { return uint16_t((5u << 13) | cj_imm(off) | 1); }
constexpr uint16_t cb_br(uint32_t f3, uint32_t rs1p, int32_t off) {
    uint32_t u = uint32_t(off);
    return uint16_t((f3 << 13) | (bit(u, 8) << 12) | (((u >> 3) & 3) << 10) | (cr(rs1p) << 7) |
                    (((u >> 6) & 3) << 5) | (((u >> 1) & 3) << 3) | (bit(u, 5) << 2) | 1);
}
constexpr uint16_t c_beqz(uint32_t rs1p, int32_t off) { return cb_br(6, rs1p, off); }
constexpr uint16_t c_bnez(uint32_t rs1p, int32_t off) { return cb_br(7, rs1p, off); }
constexpr uint16_t cb_alu(uint32_t f2, uint32_t rdp, int32_t imm) {
    uint32_t u = uint32_t(imm);
    return uint16_t((4u << 13) | (bit(u, 5) << 12) | (f2 << 10) | (cr(rdp) << 7) | ((u & 31) << 2) |
                    1);
}
constexpr uint16_t c_srli(uint32_t rdp, uint32_t sh) { return cb_alu(0, rdp, int32_t(sh)); }
constexpr uint16_t c_srai(uint32_t rdp, uint32_t sh) { return cb_alu(1, rdp, int32_t(sh)); }
constexpr uint16_t c_andi(uint32_t rdp, int32_t imm) { return cb_alu(2, rdp, imm); }
constexpr uint16_t ca(uint32_t f2, uint32_t rdp, uint32_t rs2p) {
    return uint16_t((0x23u << 10) | (cr(rdp) << 7) | (f2 << 5) | (cr(rs2p) << 2) | 1);
}
constexpr uint16_t c_sub(uint32_t rdp, uint32_t rs2p) { return ca(0, rdp, rs2p); }
constexpr uint16_t c_xor(uint32_t rdp, uint32_t rs2p) { return ca(1, rdp, rs2p); }
constexpr uint16_t c_or(uint32_t rdp, uint32_t rs2p) { return ca(2, rdp, rs2p); }
constexpr uint16_t c_and(uint32_t rdp, uint32_t rs2p) { return ca(3, rdp, rs2p); }
constexpr uint16_t c_slli(uint32_t rd, uint32_t sh) { return ci(0, rd, int32_t(sh), 2); }
constexpr uint16_t c_lwsp(uint32_t rd, uint32_t uimm) {
    return uint16_t((2u << 13) | (bit(uimm, 5) << 12) | ((rd & 31) << 7) |
                    (((uimm >> 2) & 7) << 4) | (((uimm >> 6) & 3) << 2) | 2);
}
constexpr uint16_t c_swsp(uint32_t rs2, uint32_t uimm) {
    return uint16_t((6u << 13) | (((uimm >> 2) & 0xf) << 9) | (((uimm >> 6) & 3) << 7) |
                    ((rs2 & 31) << 2) | 2);
}
constexpr uint16_t c_jr(uint32_t rs1) { return uint16_t((4u << 13) | ((rs1 & 31) << 7) | 2); }
constexpr uint16_t c_mv(uint32_t rd, uint32_t rs2) {
    return uint16_t((4u << 13) | ((rd & 31) << 7) | ((rs2 & 31) << 2) | 2);
}
constexpr uint16_t c_ebreak() { return uint16_t((4u << 13) | (1u << 12) | 2); }
constexpr uint16_t c_jalr(uint32_t rs1) {
    return uint16_t((4u << 13) | (1u << 12) | ((rs1 & 31) << 7) | 2);
}
constexpr uint16_t c_add(uint32_t rd, uint32_t rs2) {
    return uint16_t((4u << 13) | (1u << 12) | ((rd & 31) << 7) | ((rs2 & 31) << 2) | 2);
}

}  // namespace enc
