/* Predefined reduction operations (MPI-3 5.9.2) on the supported types. Bitwise ops are defined
 * for the integer types only, like MPI; MPI_CHAR takes part as a signed 8-bit integer (as
 * MPI_SIGNED_CHAR would: the issue asks for reductions on MPI_CHAR). */
#include "mpi_internal.h"

int mpi_op_check(MPI_Op op, MPI_Datatype t)
{
    if (op <= MPI_OP_NULL || op >= MPIX_NUM_OPS)
        return MPI_ERR_OP;
    if (!mpi_type_size(t) || t == MPI_BYTE)
        return MPI_ERR_TYPE;
    int fp = t == MPI_FLOAT || t == MPI_DOUBLE;
    if (fp && (op == MPI_BAND || op == MPI_BOR || op == MPI_BXOR))
        return MPI_ERR_OP;
    return MPI_SUCCESS;
}

/* W: the type the arithmetic is done in (unsigned for integers: wrap-around, no overflow UB) */
#define ARITH(T, W)                            \
    do {                                       \
        const T *a = in;                       \
        T *b = inout;                          \
        switch (op) {                          \
        case MPI_SUM:                          \
            for (int i = 0; i < n; ++i)        \
                b[i] = (T)((W)b[i] + (W)a[i]); \
            break;                             \
        case MPI_PROD:                         \
            for (int i = 0; i < n; ++i)        \
                b[i] = (T)((W)b[i] * (W)a[i]); \
            break;                             \
        case MPI_MIN:                          \
            for (int i = 0; i < n; ++i)        \
                if (a[i] < b[i])               \
                    b[i] = a[i];               \
            break;                             \
        case MPI_MAX:                          \
            for (int i = 0; i < n; ++i)        \
                if (a[i] > b[i])               \
                    b[i] = a[i];               \
            break;                             \
        case MPI_LAND:                         \
            for (int i = 0; i < n; ++i)        \
                b[i] = (T)(b[i] && a[i]);      \
            break;                             \
        case MPI_LOR:                          \
            for (int i = 0; i < n; ++i)        \
                b[i] = (T)(b[i] || a[i]);      \
            break;                             \
        default: BITS(T); break;               \
        }                                      \
    } while (0)
#define BITWISE(T)                   \
    switch (op) {                    \
    case MPI_BAND:                   \
        for (int i = 0; i < n; ++i)  \
            b[i] = (T)(b[i] & a[i]); \
        break;                       \
    case MPI_BOR:                    \
        for (int i = 0; i < n; ++i)  \
            b[i] = (T)(b[i] | a[i]); \
        break;                       \
    case MPI_BXOR:                   \
        for (int i = 0; i < n; ++i)  \
            b[i] = (T)(b[i] ^ a[i]); \
        break;                       \
    default: break;                  \
    }

int mpi_op_apply(MPI_Op op, MPI_Datatype t, const void *in, void *inout, int n)
{
    int rc = mpi_op_check(op, t);
    if (rc != MPI_SUCCESS)
        return rc;
#define BITS(T) BITWISE(T)
    switch (t) {
    case MPI_CHAR: ARITH(int8_t, uint32_t); break;
    case MPI_SHORT: ARITH(int16_t, uint32_t); break;
    case MPI_INT: ARITH(int32_t, uint32_t); break;
    case MPI_UNSIGNED: ARITH(uint32_t, uint32_t); break;
    case MPI_LONG_LONG: ARITH(int64_t, uint64_t); break;
    case MPI_LONG: ARITH(long, unsigned long); break;
    case MPI_UNSIGNED_LONG: ARITH(unsigned long, unsigned long); break;
    case MPI_AINT: ARITH(MPI_Aint, uintptr_t); break;
#undef BITS
#define BITS(T) (void)0
    case MPI_FLOAT: ARITH(float, float); break;
    case MPI_DOUBLE: ARITH(double, double); break;
    default: return MPI_ERR_TYPE;
    }
    return MPI_SUCCESS;
}
