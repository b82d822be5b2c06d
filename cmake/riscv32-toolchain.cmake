# Cross toolchain for the firmware: RV32IMAC, ilp32, picolibc.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR riscv32)
set(CMAKE_C_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_ASM_COMPILER riscv64-unknown-elf-gcc)
set(CMAKE_OBJCOPY riscv64-unknown-elf-objcopy)
set(CMAKE_OBJDUMP riscv64-unknown-elf-objdump)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
# binutils 2.40 wants zicsr/zifencei spelled out for csr*/fence.i under the 20191213 ISA spec, but
# then gcc 12 finds no matching picolibc multilib; ISA spec 2.2 implies both and keeps rv32imac/ilp32.
set(RISCV_ARCH_FLAGS "-march=rv32imac -mabi=ilp32 -misa-spec=2.2")
set(CMAKE_C_FLAGS_INIT "${RISCV_ARCH_FLAGS} --specs=picolibc.specs -ffunction-sections -fdata-sections")
set(CMAKE_ASM_FLAGS_INIT "${RISCV_ARCH_FLAGS} --specs=picolibc.specs")
# The C flags already carry the arch and specs onto the link line (gcc rejects a specs file twice).
set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostartfiles -Wl,--gc-sections")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
