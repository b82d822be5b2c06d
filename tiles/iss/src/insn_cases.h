/* The instructions the interpreter (execute.c) and the block interpreter (block_exec.c) execute
 * alike, as cases of a switch over the op: branches, loads and stores through the includer's
 * BRANCH(cond), LOAD(len, convert) and STORE(len), and the computational instructions. The
 * includer has `x` (the registers) and `in` (an instruction with rd, rs1, rs2, imm) in scope, and
 * COUNT_MUL / COUNT_DIV (the interpreter counts each; a block counts them once per block). No
 * include guard: it is included once per switch. */
case RV_OP_BEQ: BRANCH(x[in->rs1] == x[in->rs2]); break;
case RV_OP_BNE: BRANCH(x[in->rs1] != x[in->rs2]); break;
case RV_OP_BLT: BRANCH((int32_t)x[in->rs1] < (int32_t)x[in->rs2]); break;
case RV_OP_BGE: BRANCH((int32_t)x[in->rs1] >= (int32_t)x[in->rs2]); break;
case RV_OP_BLTU: BRANCH(x[in->rs1] < x[in->rs2]); break;
case RV_OP_BGEU: BRANCH(x[in->rs1] >= x[in->rs2]); break;
case RV_OP_LB: LOAD(1, RV_SEXT8); break;
case RV_OP_LH: LOAD(2, RV_SEXT16); break;
case RV_OP_LW: LOAD(4, RV_AS_IS); break;
case RV_OP_LBU: LOAD(1, RV_ZEXT8); break;
case RV_OP_LHU: LOAD(2, RV_ZEXT16); break;
case RV_OP_SB: STORE(1); break;
case RV_OP_SH: STORE(2); break;
case RV_OP_SW: STORE(4); break;
case RV_OP_ADDI: x[in->rd] = x[in->rs1] + (uint32_t)in->imm; break;
case RV_OP_SLTI: x[in->rd] = (int32_t)x[in->rs1] < in->imm; break;
case RV_OP_SLTIU: x[in->rd] = x[in->rs1] < (uint32_t)in->imm; break;
case RV_OP_XORI: x[in->rd] = x[in->rs1] ^ (uint32_t)in->imm; break;
case RV_OP_ORI: x[in->rd] = x[in->rs1] | (uint32_t)in->imm; break;
case RV_OP_ANDI: x[in->rd] = x[in->rs1] & (uint32_t)in->imm; break;
case RV_OP_SLLI: x[in->rd] = x[in->rs1] << in->imm; break;
case RV_OP_SRLI: x[in->rd] = x[in->rs1] >> in->imm; break;
case RV_OP_SRAI: x[in->rd] = (uint32_t)((int32_t)x[in->rs1] >> in->imm); break;
case RV_OP_ADD: x[in->rd] = x[in->rs1] + x[in->rs2]; break;
case RV_OP_SUB: x[in->rd] = x[in->rs1] - x[in->rs2]; break;
case RV_OP_SLL: x[in->rd] = x[in->rs1] << (x[in->rs2] & 31u); break;
case RV_OP_SLT: x[in->rd] = (int32_t)x[in->rs1] < (int32_t)x[in->rs2]; break;
case RV_OP_SLTU: x[in->rd] = x[in->rs1] < x[in->rs2]; break;
case RV_OP_XOR: x[in->rd] = x[in->rs1] ^ x[in->rs2]; break;
case RV_OP_SRL: x[in->rd] = x[in->rs1] >> (x[in->rs2] & 31u); break;
case RV_OP_SRA: x[in->rd] = (uint32_t)((int32_t)x[in->rs1] >> (x[in->rs2] & 31u)); break;
case RV_OP_OR: x[in->rd] = x[in->rs1] | x[in->rs2]; break;
case RV_OP_AND: x[in->rd] = x[in->rs1] & x[in->rs2]; break;
case RV_OP_MUL:
COUNT_MUL;
x[in->rd] = x[in->rs1] * x[in->rs2];
break;
case RV_OP_MULH:
COUNT_MUL;
x[in->rd] = (uint32_t)(((int64_t)(int32_t)x[in->rs1] * (int64_t)(int32_t)x[in->rs2]) >> 32);
break;
case RV_OP_MULHSU:
COUNT_MUL;
x[in->rd] = (uint32_t)(((int64_t)(int32_t)x[in->rs1] * (int64_t)(uint64_t)x[in->rs2]) >> 32);
break;
case RV_OP_MULHU:
COUNT_MUL;
x[in->rd] = (uint32_t)(((uint64_t)x[in->rs1] * x[in->rs2]) >> 32);
break;
case RV_OP_DIV:
COUNT_DIV;
x[in->rd] = rv_div(x[in->rs1], x[in->rs2]);
break;
case RV_OP_DIVU:
COUNT_DIV;
x[in->rd] = rv_divu(x[in->rs1], x[in->rs2]);
break;
case RV_OP_REM:
COUNT_DIV;
x[in->rd] = rv_rem(x[in->rs1], x[in->rs2]);
break;
case RV_OP_REMU:
COUNT_DIV;
x[in->rd] = rv_remu(x[in->rs1], x[in->rs2]);
break;
