/* Groups (MPI-3 6.3): an ordered list of world ranks. What one-sided PSCW needs, and the usual
 * queries. */
#include <stdlib.h>

#include "mpi_internal.h"

struct mpi_group mpi_group_empty_obj = {0, NULL, 1};

static struct mpi_group *group_new(int n)
{
    struct mpi_group *g = calloc(1, sizeof *g);
    if (g && n) {
        g->world = malloc((size_t)n * sizeof *g->world);
        if (!g->world) {
            free(g);
            return NULL;
        }
    }
    if (g)
        g->size = n;
    return g;
}

static int group_ok(MPI_Group g) { return g != MPI_GROUP_NULL && (g->size == 0 || g->world); }

/* The group's rank of a world rank, MPI_UNDEFINED if not a member. */
int mpi_group_rank_of(MPI_Group g, int world)
{
    for (int i = 0; i < g->size; ++i)
        if (g->world[i] == world)
            return i;
    return MPI_UNDEFINED;
}

int MPI_Comm_group(MPI_Comm c, MPI_Group *out)
{
    if (!mpi_comm_ok(c))
        return mpi_err(c, MPI_ERR_COMM, "MPI_Comm_group");
    if (!out)
        return mpi_err(c, MPI_ERR_ARG, "MPI_Comm_group");
    struct mpi_group *g = group_new(c->size);
    if (!g)
        return mpi_err(c, MPI_ERR_NO_MEM, "MPI_Comm_group");
    for (int i = 0; i < c->size; ++i)
        g->world[i] = mpi_world_of(c, i);
    *out = g;
    return MPI_SUCCESS;
}

int MPI_Group_size(MPI_Group g, int *size)
{
    if (!group_ok(g) || !size)
        return mpi_err(MPI_COMM_WORLD, group_ok(g) ? MPI_ERR_ARG : MPI_ERR_GROUP, "MPI_Group_size");
    *size = g->size;
    return MPI_SUCCESS;
}

int MPI_Group_rank(MPI_Group g, int *rank)
{
    if (!group_ok(g) || !rank)
        return mpi_err(MPI_COMM_WORLD, group_ok(g) ? MPI_ERR_ARG : MPI_ERR_GROUP, "MPI_Group_rank");
    *rank = mpi_group_rank_of(g, mpi_world_rank);
    return MPI_SUCCESS;
}

/* incl: members ranks[0..n-1] in that order; excl: the others in group order. Ranks must be
 * valid and distinct (MPI_ERR_RANK). */
static int subset(MPI_Group g, int n, const int *ranks, MPI_Group *out, int excl, const char *call)
{
    if (!group_ok(g))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_GROUP, call);
    if (!out || n < 0 || (n && !ranks))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, call);
    uint8_t *seen = calloc((size_t)g->size + 1u, 1);
    if (!seen)
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call);
    for (int i = 0; i < n; ++i) {
        if (ranks[i] < 0 || ranks[i] >= g->size || seen[ranks[i]]) {
            free(seen);
            return mpi_err(MPI_COMM_WORLD, MPI_ERR_RANK, call);
        }
        seen[ranks[i]] = 1;
    }
    int m = excl ? g->size - n : n;
    struct mpi_group *ng = m ? group_new(m) : NULL;
    if (m && !ng) {
        free(seen);
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, call);
    }
    if (excl) {
        for (int i = 0, k = 0; i < g->size; ++i)
            if (!seen[i])
                ng->world[k++] = g->world[i];
    } else {
        for (int i = 0; i < n; ++i)
            ng->world[i] = g->world[ranks[i]];
    }
    free(seen);
    *out = m ? ng : MPI_GROUP_EMPTY;
    return MPI_SUCCESS;
}

int MPI_Group_incl(MPI_Group g, int n, const int ranks[], MPI_Group *out)
{
    return subset(g, n, ranks, out, 0, "MPI_Group_incl");
}

int MPI_Group_excl(MPI_Group g, int n, const int ranks[], MPI_Group *out)
{
    return subset(g, n, ranks, out, 1, "MPI_Group_excl");
}

int MPI_Group_translate_ranks(MPI_Group g1, int n, const int r1[], MPI_Group g2, int r2[])
{
    if (!group_ok(g1) || !group_ok(g2))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_GROUP, "MPI_Group_translate_ranks");
    if (n < 0 || (n && (!r1 || !r2)))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Group_translate_ranks");
    for (int i = 0; i < n; ++i)
        if (r1[i] != MPI_PROC_NULL && (r1[i] < 0 || r1[i] >= g1->size))
            return mpi_err(MPI_COMM_WORLD, MPI_ERR_RANK, "MPI_Group_translate_ranks");
    for (int i = 0; i < n; ++i)
        r2[i] = r1[i] == MPI_PROC_NULL ? MPI_PROC_NULL : mpi_group_rank_of(g2, g1->world[r1[i]]);
    return MPI_SUCCESS;
}

int MPI_Group_compare(MPI_Group a, MPI_Group b, int *result)
{
    if (!group_ok(a) || !group_ok(b) || !result)
        return mpi_err(MPI_COMM_WORLD, result ? MPI_ERR_GROUP : MPI_ERR_ARG, "MPI_Group_compare");
    *result = MPI_UNEQUAL;
    if (a->size != b->size)
        return MPI_SUCCESS;
    int same_order = 1, same_set = 1;
    for (int i = 0; i < a->size; ++i) {
        same_order &= a->world[i] == b->world[i];
        same_set &= mpi_group_rank_of(b, a->world[i]) != MPI_UNDEFINED;
    }
    *result = same_order ? MPI_IDENT : same_set ? MPI_SIMILAR : MPI_UNEQUAL;
    return MPI_SUCCESS;
}

int MPI_Group_free(MPI_Group *g)
{
    if (!g || !group_ok(*g))
        return mpi_err(MPI_COMM_WORLD, MPI_ERR_GROUP, "MPI_Group_free");
    if (*g != MPI_GROUP_EMPTY) {
        free((*g)->world);
        free(*g);
    }
    *g = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
