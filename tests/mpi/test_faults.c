/*
 * test_faults.c -- injected faults: the k-th call of an MPI function, or the
 * k-th allocation, fails inside a public call; swept over k.
 *
 * For each scenario (plan creation of several shapes and methods, plan
 * execution, redistribution and halo creation and execution, array file
 * write and read, gather and scatter with a layout,
 * layouts from boxes, reshapes between layouts and a plan taking a
 * caller's layout, wisdom file export and import, a cost-model import,
 * the destroy calls, and the release calls with
 * distfft_collect) a dry run counts this rank's calls of every function
 * that tests/support/mpi_fault.c can fail. Then, for each function and
 * each k (all of 1..n with --long, else up to --per-kind values spread
 * over 1..n), the scenario runs again with that call failing:
 *   - collectives (and MPI_Comm_dup, _split, Cart_*, Win_allocate_shared,
 *     File_*) fail at the same k on every rank, as an MPI error every rank
 *     sees (where every rank makes as many);
 *   - local calls (datatype constructors and commits, Info_create,
 *     MPI_Comm_rank, _size and _set_errhandler, allocations) fail on every
 *     rank at its k-th call, and separately on the last rank only -- the
 *     library must then agree on the failure.
 * Frees and releases (MPI_Comm_free, _Type_free, _Win_free, _Info_free,
 * _File_close, _Win_unlock_all) made to fail still free: the sweep checks
 * that the rest of the call goes on and frees everything else.
 * Each injection must give: the same error code on every rank (success
 * where the armed call was not reached on any rank) -- for a destroy call,
 * which agrees with no other rank, an error exactly on the ranks where the
 * fault fired (docs/reliability.md) --, no MPI object left
 * (PMPI counter: the live counts as before), no hang (CTest timeout), and
 * a next plan that works. Memory leaks: the sanitizer build with
 * -DDISTFFT_SANITIZE_LEAKS=ON (LeakSanitizer at exit).
 *
 *   usage: test_faults [--long] [--per-kind K] [--only SCENARIO] [--verbose] [DIR]
 * (--verbose: rank 0 names each injection before it runs)
 * Linked with the STATIC library, mpi_handle_counter.c, mpi_fault.c and
 * -Wl,--wrap=malloc,calloc,realloc,strdup,fftw_malloc; this file's own
 * allocations go to the real ones (compiled with malloc=__real_malloc ...).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distfft.h"
#include "mpi_fault.h"
#include "mpi_handle_counter.h"

static int me, P, per_kind = 3, long_run, injections, failures, verbose;
static const char *dir = ".", *only;

/* ---- what can fail ------------------------------------------------------------ */

typedef enum { EVERY_RANK, LOCAL } fault_kind;
typedef struct {
    const char *name;
    fault_kind kind;
} fault_site;

static const fault_site sites[] = {
    {"MPI_Comm_dup", EVERY_RANK},        {"MPI_Comm_split", EVERY_RANK},
    {"MPI_Comm_split_type", EVERY_RANK}, {"MPI_Cart_create", EVERY_RANK},
    {"MPI_Cart_sub", EVERY_RANK},        {"MPI_Allreduce", EVERY_RANK},
    {"MPI_Allgather", EVERY_RANK},       {"MPI_Bcast", EVERY_RANK},
    {"MPI_Gather", EVERY_RANK},          {"MPI_Barrier", EVERY_RANK},
    {"MPI_Alltoall", EVERY_RANK},        {"MPI_Alltoallv", EVERY_RANK},
    {"MPI_Alltoallw", EVERY_RANK},       {"MPI_Win_allocate_shared", EVERY_RANK},
    {"MPI_File_open", EVERY_RANK},       {"MPI_File_set_view", EVERY_RANK},
    {"MPI_File_write_all", EVERY_RANK},  {"MPI_File_read_all", EVERY_RANK},
    {"MPI_File_close", EVERY_RANK},      {"MPI_Comm_free", EVERY_RANK},
    {"MPI_Win_free", EVERY_RANK},        {"MPI_Win_unlock_all", EVERY_RANK},
    {"MPI_Comm_create_group", EVERY_RANK}, {"MPI_Scatter", EVERY_RANK},
    {"MPI_Comm_group", LOCAL},           {"MPI_Group_incl", LOCAL},
    {"MPI_Group_free", LOCAL},
    {"MPI_Comm_rank", LOCAL},            {"MPI_Comm_size", LOCAL},
    {"MPI_Comm_set_errhandler", LOCAL},
    {"MPI_Type_free", LOCAL},            {"MPI_Info_free", LOCAL},
    {"MPI_Type_contiguous", LOCAL},      {"MPI_Type_vector", LOCAL},
    {"MPI_Type_create_hvector", LOCAL},  {"MPI_Type_create_struct", LOCAL},
    {"MPI_Type_create_subarray", LOCAL}, {"MPI_Type_create_resized", LOCAL},
    {"MPI_Type_commit", LOCAL},          {"MPI_Info_create", LOCAL},
    {"alloc", LOCAL},
    /* Not the point-to-point calls of an exchange (MPI_Isend, _Irecv,
     * _Ialltoallw, _Wait*): after one fails mid-exchange, the messages in
     * flight between the ranks have no state MPI defines (a receive
     * cancelled before its message came, a peer's send never matched).
     * distfft then cancels and frees its requests (requests_abandon) and
     * returns the error, but no library can promise the next exchange:
     * observed under Open MPI 4.1, the next plan's MPI_Alltoallw hangs on
     * one of 3 or 4 ranks after such a failure. */
};
#define N_SITES (int)(sizeof sites / sizeof sites[0])

/* ---- scenarios: setup (not armed), body (armed), teardown (not armed) ------------ */

typedef struct {
    distfft_plan plan;
    distfft_redist redist;
    distfft_halo halo;
    distfft_layout layout_in, layout_out;
    distfft_reshape reshape;
    distfft_layout layout;
    void *a, *b, *c;
    size_t bytes_a, bytes_b;
} state;

typedef struct {
    const char *name;
    distfft_method method;
    int kind_last;      /* distfft_kind of the last axis */
    int grid_ndims;
    int64_t batch;
    distfft_overlap overlap;
    int what;           /* see run_body */
} scenario;

enum { PLAN_CREATE, PLAN_EXECUTE, REDIST_CREATE, REDIST_EXECUTE, HALO_CREATE, HALO_EXECUTE,
       FILE_WRITE, FILE_READ, LAYOUT_GATHER, LAYOUT_CREATE, RESHAPE_CREATE,
       RESHAPE_EXECUTE, PLAN_LAYOUTS_CREATE, WISDOM_FILES, MODEL_IMPORT, PLAN_DESTROY, REDIST_DESTROY, HALO_DESTROY,
       LAYOUT_DESTROY, RESHAPE_DESTROY, PLAN_RELEASE, REDIST_RELEASE };
#define DESTROYS(what) ((what) >= PLAN_DESTROY)

static const scenario scenarios[] = {
    {"plan create c2c pencil alltoallw", DISTFFT_METHOD_ALLTOALLW, DISTFFT_C2C, 2, 1,
     DISTFFT_OVERLAP_OFF, PLAN_CREATE},
    {"plan create r2c slab alltoallv", DISTFFT_METHOD_ALLTOALLV, DISTFFT_R2C, 1, 1,
     DISTFFT_OVERLAP_OFF, PLAN_CREATE},
    {"plan create dct2 shm", DISTFFT_METHOD_SHM, DISTFFT_DCT2, 1, 1, DISTFFT_OVERLAP_OFF,
     PLAN_CREATE},
    {"plan create hierarchical batch 2 overlap on", DISTFFT_METHOD_HIERARCHICAL, DISTFFT_C2C,
     1, 2, DISTFFT_OVERLAP_ON, PLAN_CREATE},
    {"plan create vector", DISTFFT_METHOD_VECTOR, DISTFFT_C2C, 1, 1, DISTFFT_OVERLAP_OFF,
     PLAN_CREATE},
    {"plan execute alltoallw", DISTFFT_METHOD_ALLTOALLW, DISTFFT_R2C, 2, 1,
     DISTFFT_OVERLAP_OFF, PLAN_EXECUTE},
    {"plan execute alltoallv", DISTFFT_METHOD_ALLTOALLV, DISTFFT_C2C, 1, 1,
     DISTFFT_OVERLAP_OFF, PLAN_EXECUTE},
    {"plan execute isend-waitall", DISTFFT_METHOD_ISEND_WAITALL, DISTFFT_C2C, 1, 1,
     DISTFFT_OVERLAP_OFF, PLAN_EXECUTE},
    {"plan execute isend-waitsome", DISTFFT_METHOD_ISEND_WAITSOME, DISTFFT_C2C, 1, 1,
     DISTFFT_OVERLAP_OFF, PLAN_EXECUTE},
    {"plan execute sendrecv", DISTFFT_METHOD_SENDRECV, DISTFFT_C2C, 1, 1,
     DISTFFT_OVERLAP_OFF, PLAN_EXECUTE},
    {"plan execute shm", DISTFFT_METHOD_SHM, DISTFFT_C2C, 1, 1, DISTFFT_OVERLAP_OFF,
     PLAN_EXECUTE},
    {"plan execute vector", DISTFFT_METHOD_VECTOR, DISTFFT_C2C, 1, 1, DISTFFT_OVERLAP_OFF,
     PLAN_EXECUTE},
    {"plan execute batch 2 overlap on", DISTFFT_METHOD_ALLTOALLW, DISTFFT_C2C, 1, 2,
     DISTFFT_OVERLAP_ON, PLAN_EXECUTE},
    {"redistribution create alltoallw", DISTFFT_METHOD_ALLTOALLW, 0, 0, 2, 0, REDIST_CREATE},
    {"redistribution create shm", DISTFFT_METHOD_SHM, 0, 0, 1, 0, REDIST_CREATE},
    {"redistribution execute alltoallv", DISTFFT_METHOD_ALLTOALLV, 0, 0, 2, 0,
     REDIST_EXECUTE},
    {"halo create datatypes", 0, DISTFFT_HALO_DATATYPES, 0, 2, 0, HALO_CREATE},
    {"halo create pack", 0, DISTFFT_HALO_PACK, 0, 1, 0, HALO_CREATE},
    {"halo execute datatypes", 0, DISTFFT_HALO_DATATYPES, 0, 1, 0, HALO_EXECUTE},
    {"halo execute pack", 0, DISTFFT_HALO_PACK, 0, 2, 0, HALO_EXECUTE},
    {"array file write", 0, 0, 0, 2, 0, FILE_WRITE},
    {"array file read", 0, 0, 0, 2, 0, FILE_READ},
    {"layout gather and scatter", 0, 0, 0, 2, 0, LAYOUT_GATHER},
    {"plan destroy c2c pencil alltoallw", DISTFFT_METHOD_ALLTOALLW, DISTFFT_C2C, 2, 1,
     DISTFFT_OVERLAP_OFF, PLAN_DESTROY},
    {"plan destroy r2c slab alltoallv", DISTFFT_METHOD_ALLTOALLV, DISTFFT_R2C, 1, 1,
     DISTFFT_OVERLAP_OFF, PLAN_DESTROY},
    {"plan destroy shm", DISTFFT_METHOD_SHM, DISTFFT_C2C, 1, 1, DISTFFT_OVERLAP_OFF,
     PLAN_DESTROY},
    {"plan destroy vector", DISTFFT_METHOD_VECTOR, DISTFFT_C2C, 1, 1, DISTFFT_OVERLAP_OFF,
     PLAN_DESTROY},
    {"redistribution destroy alltoallw", DISTFFT_METHOD_ALLTOALLW, 0, 0, 2, 0, REDIST_DESTROY},
    {"halo destroy datatypes", 0, DISTFFT_HALO_DATATYPES, 0, 2, 0, HALO_DESTROY},
    {"layout from box", 0, 0, 0, 1, 0, LAYOUT_CREATE},
    {"reshape create alltoallw", DISTFFT_METHOD_ALLTOALLW, 0, 0, 2, 0, RESHAPE_CREATE},
    {"reshape create isend-waitall", DISTFFT_METHOD_ISEND_WAITALL, 0, 0, 1, 0, RESHAPE_CREATE},
    {"reshape execute alltoallv", DISTFFT_METHOD_ALLTOALLV, 0, 0, 2, 0, RESHAPE_EXECUTE},
    {"reshape execute alltoallw", DISTFFT_METHOD_ALLTOALLW, 0, 0, 1, 0, RESHAPE_EXECUTE},
    {"plan create with a caller's layout", DISTFFT_METHOD_ALLTOALLW, DISTFFT_C2C, 0, 1, 0,
     PLAN_LAYOUTS_CREATE},
    {"wisdom file export and import", 0, 0, 0, 1, 0, WISDOM_FILES},
    {"model import", 0, 0, 0, 1, 0, MODEL_IMPORT},
    {"layout destroy", 0, 0, 0, 1, 0, LAYOUT_DESTROY},
    {"reshape destroy alltoallv", DISTFFT_METHOD_ALLTOALLV, 0, 0, 1, 0, RESHAPE_DESTROY},
    {"plan release and collect shm", DISTFFT_METHOD_SHM, DISTFFT_C2C, 1, 1, DISTFFT_OVERLAP_OFF,
     PLAN_RELEASE},
    {"redistribution release and collect shm", DISTFFT_METHOD_SHM, 0, 0, 1, 0, REDIST_RELEASE},
};
#define N_SCENARIOS (int)(sizeof scenarios / sizeof scenarios[0])

static const int64_t plan_shape[3] = {12, 12, 8};

static void *zeros(size_t bytes)
{
    void *p = distfft_malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "[rank %d] test_faults: out of memory\n", me);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    memset(p, 0, bytes ? bytes : 1);
    return p;
}

static int64_t product(int n, const int64_t *shape)
{
    int64_t p = 1;
    for (int i = 0; i < n; i++) p *= shape[i];
    return p;
}

static int create_plan(const scenario *s, distfft_plan *plan)
{
    distfft_options o;
    distfft_options_init(&o);
    o.rigor = DISTFFT_ESTIMATE;
    o.method = s->method;
    o.kinds[2] = (distfft_kind)s->kind_last;
    o.grid_ndims = s->grid_ndims;
    o.batch = s->batch;
    o.overlap = s->overlap;
    return distfft_plan_create(MPI_COMM_WORLD, 3, plan_shape, DISTFFT_DOUBLE, &o, plan);
}

static void redist_shapes(int64_t *in_shape, int64_t *out_shape)
{
    const int64_t whole[3] = {12, 12, 3};
    memcpy(in_shape, whole, sizeof whole);
    memcpy(out_shape, whole, sizeof whole);
    distfft_decompose(12, P, me, &in_shape[1], NULL);
    distfft_decompose(12, P, me, &out_shape[0], NULL);
}

static int create_redist(const scenario *s, distfft_redist *redist)
{
    int64_t in_shape[3], out_shape[3];
    redist_shapes(in_shape, out_shape);
    return distfft_redist_create(MPI_COMM_WORLD, DISTFFT_COMPLEX_DOUBLE, 3, in_shape, 0,
                                 out_shape, 1, s->batch, s->method, redist);
}

static const int64_t halo_shape[3] = {9, 5, 4}, halo_low[3] = {2, 1, 1},
                     halo_high[3] = {1, 2, 0};
static const int halo_periodic[3] = {1, 0, 1};

/* The halo's layout (slabs along axis 0) into st->layout, made in setup. */
static int create_halo_layout(state *st)
{
    int64_t local[3] = {9, 5, 4}, start[3] = {0, 0, 0};
    distfft_decompose(9, P, me, &local[0], &start[0]);
    return distfft_layout_from_box(MPI_COMM_WORLD, 3, halo_shape, start, local, &st->layout);
}

static int create_halo(const scenario *s, state *st)
{
    return distfft_layout_halo_create(st->layout, DISTFFT_REAL_DOUBLE, halo_low, halo_high, halo_periodic,
                                      s->batch, (distfft_halo_variant)s->kind_last, &st->halo);
}

/* Layouts of a 7x5x6 array: uneven boxes split along axis 0 (in) and along
 * axis 2 (out); a reshape between them moves most of every box. */
static const int64_t box_global[3] = {7, 5, 6};

static int create_layout(int axis, distfft_layout *layout)
{
    int64_t start[3] = {0, 0, 0}, shape[3] = {7, 5, 6};
    distfft_decompose(box_global[axis], P, me, &shape[axis], &start[axis]);
    return distfft_layout_from_box(MPI_COMM_WORLD, 3, box_global, start, shape, layout);
}

static int create_layouts(state *st)
{
    int rc = create_layout(0, &st->layout_in);
    return rc ? rc : create_layout(2, &st->layout_out);
}

static int create_reshape(const scenario *s, state *st)
{
    distfft_reshape_options o;
    distfft_reshape_options_init(&o);
    o.method = s->method;
    return distfft_reshape_create(st->layout_in, st->layout_out, DISTFFT_COMPLEX_DOUBLE,
                                  s->batch, &o, &st->reshape);
}

/* A plan of the 7x5x6 array whose input is in layout_in, an uneven split
 * of axis 0 the plan's own blocks do not have on more than one rank. */
static int create_plan_with_layout(const scenario *s, state *st)
{
    distfft_options o;
    distfft_options_init(&o);
    o.rigor = DISTFFT_ESTIMATE;
    o.method = s->method;
    o.grid_ndims = 1;
    return distfft_plan_create_layouts(MPI_COMM_WORLD, 3, box_global, DISTFFT_DOUBLE, &o,
                                       st->layout_in, NULL, &st->plan);
}

static const int64_t file_shape[2] = {10, 7};

static int file_block(int64_t *local, int64_t *start)
{
    local[0] = 10;
    local[1] = 7;
    start[0] = start[1] = 0;
    distfft_decompose(10, P, me, &local[0], &start[0]);
    return 0;
}

static void file_path(char *path, size_t size)
{
    snprintf(path, size, "%s/test_faults_np%d.npy", dir, P);
}

static void named_path(char *path, size_t size, const char *name)
{
    snprintf(path, size, "%s/test_faults_np%d.%s", dir, P, name);
}

/* A cost model of this MPI library (rank 0 writes it; not armed). */
static int write_model_file(void)
{
    char path[4096];
    named_path(path, sizeof path, "model");
    int ok = 1;
    if (me == 0) {
        FILE *file = fopen(path, "w");
        ok = file && fputs("distfft-model 1\nmachine = test_faults\nmpi_library = any\nnode_size = 2\n"
                           "latency_intra = 0\nbandwidth_intra = 1\nlatency_inter = 0\nbandwidth_inter = 1\n"
                           "injection_bandwidth = 0\nbisection_bandwidth = 0\nmemcpy_bandwidth = 1\n"
                           "datatype_bandwidth = 0\nfft_c2c_double = 8:1e-9\n", file) >= 0;
        if (file) ok = fclose(file) == 0 && ok;
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return ok ? DISTFFT_SUCCESS : DISTFFT_ERR_ARGUMENT;
}

/* Set up what the body needs (not armed). Returns a distfft code. */
static int setup(const scenario *s, state *st)
{
    memset(st, 0, sizeof *st);
    int rc = DISTFFT_SUCCESS;
    if (s->what == PLAN_DESTROY || s->what == PLAN_RELEASE) return create_plan(s, &st->plan);
    if (s->what == REDIST_DESTROY || s->what == REDIST_RELEASE) return create_redist(s, &st->redist);
    if (s->what == HALO_CREATE || s->what == HALO_EXECUTE || s->what == HALO_DESTROY) {
        rc = create_halo_layout(st);
        if (rc || s->what == HALO_CREATE) return rc;
    }
    if (s->what == HALO_DESTROY) return create_halo(s, st);
    if (s->what == LAYOUT_DESTROY) return create_layout(1, &st->layout_in);
    if (s->what == RESHAPE_CREATE || s->what == PLAN_LAYOUTS_CREATE) return create_layouts(st);
    if (s->what == MODEL_IMPORT) return write_model_file();
    if (s->what == RESHAPE_DESTROY || s->what == RESHAPE_EXECUTE) {
        rc = create_layouts(st);
        if (!rc) rc = create_reshape(s, st);
        if (rc || s->what == RESHAPE_DESTROY) return rc;
        size_t element = distfft_type_size(DISTFFT_COMPLEX_DOUBLE);
        st->bytes_a = (size_t)(s->batch * distfft_layout_count(st->layout_in, me)) * element;
        st->bytes_b = (size_t)(s->batch * distfft_layout_count(st->layout_out, me)) * element;
        st->a = zeros(st->bytes_a ? st->bytes_a : 1);
        st->b = zeros(st->bytes_b ? st->bytes_b : 1);
        st->c = zeros(st->bytes_a ? st->bytes_a : 1);
        double *x = st->a;
        for (size_t i = 0; i < st->bytes_a / sizeof(double); i++) x[i] = (double)(i + 100 * me);
        return rc;
    }
    if (s->what == PLAN_EXECUTE) {
        rc = create_plan(s, &st->plan);
        if (rc) return rc;
        int64_t in_shape[3], out_shape[3];
        distfft_type in_type, out_type;
        distfft_plan_input_block(st->plan, in_shape, NULL);
        distfft_plan_output_block(st->plan, out_shape, NULL);
        distfft_plan_types(st->plan, &in_type, &out_type);
        st->bytes_a = (size_t)(s->batch * product(3, in_shape)) * distfft_type_size(in_type);
        st->bytes_b = (size_t)(s->batch * product(3, out_shape)) * distfft_type_size(out_type);
        st->a = zeros(st->bytes_a);
        st->b = zeros(st->bytes_b);
        st->c = zeros(st->bytes_a);
    } else if (s->what == REDIST_EXECUTE) {
        rc = create_redist(s, &st->redist);
        if (rc) return rc;
        int64_t in_shape[3], out_shape[3];
        redist_shapes(in_shape, out_shape);
        size_t element = distfft_type_size(DISTFFT_COMPLEX_DOUBLE);
        st->a = zeros((size_t)(s->batch * product(3, in_shape)) * element);
        st->b = zeros((size_t)(s->batch * product(3, out_shape)) * element);
    } else if (s->what == HALO_EXECUTE) {
        rc = create_halo(s, st);
        if (rc) return rc;
        st->a = zeros((size_t)distfft_halo_padded_block(st->halo, NULL, NULL) * sizeof(double));
    } else if (s->what == FILE_WRITE || s->what == FILE_READ || s->what == LAYOUT_GATHER) {
        int64_t local[2], start[2];
        file_block(local, start);
        if (s->what == LAYOUT_GATHER) st->c = zeros((size_t)(s->batch * product(2, file_shape)) * sizeof(float));
        rc = distfft_layout_from_box(MPI_COMM_WORLD, 2, file_shape, start, local, &st->layout);
        st->bytes_a = (size_t)(s->batch * product(2, local)) * sizeof(float);
        st->a = zeros(st->bytes_a);
        st->b = zeros(st->bytes_a);
        float *f = st->a;
        for (size_t i = 0; i < st->bytes_a / sizeof(float); i++) f[i] = (float)(i + 1000 * me);
        if (s->what == FILE_READ) {
            char path[4096];
            file_path(path, sizeof path);
            if (!rc) rc = distfft_layout_array_write(st->layout, path, DISTFFT_REAL_FLOAT, s->batch, st->a);
        }
    }
    return rc;
}

/* The public calls the fault is injected into. */
static int body(const scenario *s, state *st)
{
    int rc = DISTFFT_SUCCESS;
    switch (s->what) {
    case PLAN_CREATE:
        return create_plan(s, &st->plan);
    case PLAN_EXECUTE:
        rc = distfft_plan_execute(st->plan, st->a, st->b, DISTFFT_FORWARD);
        return rc ? rc : distfft_plan_execute(st->plan, st->b, st->c, DISTFFT_BACKWARD);
    case REDIST_CREATE:
        return create_redist(s, &st->redist);
    case REDIST_EXECUTE:
        return distfft_redist_execute(st->redist, st->a, st->b);
    case HALO_CREATE:
        return create_halo(s, st);
    case HALO_EXECUTE:
        return distfft_halo_execute(st->halo, st->a);
    case FILE_WRITE:
    case FILE_READ: {
        char path[4096];
        file_path(path, sizeof path);
        if (s->what == FILE_WRITE)
            return distfft_layout_array_write(st->layout, path, DISTFFT_REAL_FLOAT, s->batch, st->a);
        rc = distfft_layout_array_read(st->layout, path, DISTFFT_REAL_FLOAT, s->batch, st->b);
        if (rc == DISTFFT_SUCCESS && memcmp(st->a, st->b, st->bytes_a)) rc = -1;
        return rc;
    }
    case LAYOUT_GATHER: {
        rc = distfft_layout_gather(st->layout, DISTFFT_REAL_FLOAT, s->batch, st->a, 0, st->c);
        if (!rc) rc = distfft_layout_scatter(st->layout, DISTFFT_REAL_FLOAT, s->batch, st->c, 0, st->b);
        if (rc == DISTFFT_SUCCESS && memcmp(st->a, st->b, st->bytes_a)) rc = -1;
        return rc;
    }
    case LAYOUT_CREATE:
        return create_layout(1, &st->layout_in);
    case RESHAPE_CREATE:
        return create_reshape(s, st);
    case RESHAPE_EXECUTE:
        rc = distfft_reshape_execute(st->reshape, st->a, st->b, DISTFFT_FORWARD);
        if (!rc) rc = distfft_reshape_execute(st->reshape, st->b, st->c, DISTFFT_BACKWARD);
        if (rc == DISTFFT_SUCCESS && memcmp(st->a, st->c, st->bytes_a)) rc = -1;
        return rc;
    case PLAN_LAYOUTS_CREATE:
        return create_plan_with_layout(s, st);
    case WISDOM_FILES: {
        char path[4096];
        named_path(path, sizeof path, "wisdom");
        rc = distfft_wisdom_export_file(MPI_COMM_WORLD, path);
        return rc ? rc : distfft_wisdom_import_file(MPI_COMM_WORLD, path);
    }
    case MODEL_IMPORT: {
        char path[4096];
        named_path(path, sizeof path, "model");
        rc = distfft_model_import_file(MPI_COMM_WORLD, path, 1); /* forced: another library's */
        distfft_model_forget(); /* tuning of the next plans as before */
        return rc;
    }
    case LAYOUT_DESTROY:
        return distfft_layout_destroy(&st->layout_in);
    case RESHAPE_DESTROY:
        return distfft_reshape_destroy(&st->reshape);
    case PLAN_DESTROY:
        return distfft_plan_destroy(&st->plan);
    case REDIST_DESTROY:
        return distfft_redist_destroy(&st->redist);
    case HALO_DESTROY:
        return distfft_halo_destroy(&st->halo);
    case PLAN_RELEASE:
    case REDIST_RELEASE: {
        /* a release that could not make its record changed nothing: the
         * caller tries again (or every rank would have to destroy) */
        for (int tries = 0; tries < 2; tries++) {
            int code = s->what == PLAN_RELEASE ? distfft_plan_release(&st->plan)
                                               : distfft_redist_release(&st->redist);
            if (!rc) rc = code;
            if (code != DISTFFT_ERR_MEMORY || (!st->plan && !st->redist)) break;
        }
        int code = distfft_collect(MPI_COMM_WORLD);
        return rc ? rc : code;
    }
    }
    return rc;
}

/* Free everything (not armed). A create that failed must leave its
 * out-handle NULL, a destroy its handle NULL whatever it returned. */
static int teardown(const scenario *s, state *st, int body_rc)
{
    int handles_ok = 1;
    if (body_rc && s->what == PLAN_CREATE) handles_ok = st->plan == NULL;
    if (body_rc && s->what == REDIST_CREATE) handles_ok = st->redist == NULL;
    if (body_rc && s->what == HALO_CREATE) handles_ok = st->halo == NULL;
    if (body_rc && s->what == LAYOUT_CREATE) handles_ok = st->layout_in == NULL;
    if (body_rc && s->what == RESHAPE_CREATE) handles_ok = st->reshape == NULL;
    if (body_rc && s->what == PLAN_LAYOUTS_CREATE) handles_ok = st->plan == NULL;
    if (s->what == LAYOUT_DESTROY) handles_ok = !st->layout_in;
    else if (DESTROYS(s->what)) handles_ok = !st->plan && !st->redist && !st->halo && !st->reshape;
    int rc = distfft_plan_destroy(&st->plan);
    if (!rc) rc = distfft_redist_destroy(&st->redist);
    if (!rc) rc = distfft_collect(MPI_COMM_WORLD); /* what a failed collect left */
    if (!rc) rc = distfft_halo_destroy(&st->halo);
    if (!rc) rc = distfft_reshape_destroy(&st->reshape);
    if (!rc) rc = distfft_layout_destroy(&st->layout_in);
    if (!rc) rc = distfft_layout_destroy(&st->layout_out);
    if (!rc) rc = distfft_layout_destroy(&st->layout);
    distfft_free(st->a);
    distfft_free(st->b);
    distfft_free(st->c);
    return rc == DISTFFT_SUCCESS && handles_ok;
}

/* A small plan made and run after every injection. */
static int next_plan_works(void)
{
    const int64_t shape[3] = {6, 6, 4};
    distfft_options o;
    distfft_options_init(&o);
    o.rigor = DISTFFT_ESTIMATE;
    o.method = DISTFFT_METHOD_ALLTOALLW;
    distfft_plan plan = NULL;
    int rc = distfft_plan_create(MPI_COMM_WORLD, 3, shape, DISTFFT_DOUBLE, &o, &plan);
    if (rc) return 0;
    int64_t in[3], out[3];
    distfft_plan_input_block(plan, in, NULL);
    distfft_plan_output_block(plan, out, NULL);
    void *x = zeros((size_t)product(3, in) * 16), *y = zeros((size_t)product(3, out) * 16);
    rc = distfft_plan_execute(plan, x, y, DISTFFT_FORWARD);
    distfft_free(x);
    distfft_free(y);
    return !rc && !distfft_plan_destroy(&plan);
}

static long live(const mpi_handle_counts *c)
{
    return c->comms + c->datatypes + c->groups + c->requests + c->windows;
}

/* One run of a scenario with `name`'s k-th call failing on the ranks in
 * `armed_here` (k = 0: nothing armed). */
static void inject(const scenario *s, const char *name, long k, int armed_here,
                   const char *how)
{
    if (verbose && me == 0) {
        printf("  %s: %s call %ld %s\n", s->name, name, k, how);
        fflush(stdout);
    }
    mpi_handle_counts before = mpi_handle_counts_now();
    state st;
    int rc = setup(s, &st), ok = 1;
    if (rc) {
        fprintf(stderr, "[rank %d] %s: setup failed: %s\n", me, s->name, distfft_last_error());
        ok = 0;
    }
    mpi_fault_start(armed_here ? name : NULL, k);
    int body_rc = ok ? body(s, &st) : 0;
    int fired = mpi_fault_fired();
    mpi_fault_stop();
    char message[512];
    snprintf(message, sizeof message, "%s", body_rc ? distfft_last_error() : "");
    ok = teardown(s, &st, body_rc) && ok;
    mpi_handle_counts after = mpi_handle_counts_now();
    int clean = live(&after) == live(&before);
    int next = next_plan_works();
    /* a destroy agrees with no other rank: it fails where the fault fired */
    int wrong_here = DESTROYS(s->what) && (fired ? body_rc == 0 : body_rc != 0);
    int values[4] = {fired, body_rc, -body_rc, wrong_here}, reduced[4];
    MPI_Allreduce(values, reduced, 4, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    int any_fired = reduced[0], rc_max = reduced[1], rc_min = -reduced[2];
    int agreed = DESTROYS(s->what) ? !reduced[3]
                                   : rc_min == rc_max && (any_fired ? rc_max != 0 : rc_max == 0);
    int good = ok && clean && next && agreed;
    if (!good)
        fprintf(stderr, "[rank %d] FAIL %s, %s call %ld %s: fired here %d, rc here %d "
                "(ranks %d..%d), %s, %s, next plan %s%s%s\n", me, s->name, name ? name : "-",
                k, how, fired, body_rc, rc_min, rc_max,
                clean ? "no MPI object left" : "MPI objects LEFT",
                ok ? "handles NULL, destroyed" : "TEARDOWN FAILED", next ? "works" : "FAILS",
                body_rc ? ": " : "", message);
    int all = good;
    MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    injections += any_fired ? 1 : 0;
    if (!all) failures++;
}

/* The values of k tried among 1..n. */
static int next_k(long n, long k)
{
    if (long_run || n <= per_kind) return (int)(k + 1);
    /* per_kind values spread over 1..n, always 1 and n */
    for (int i = 0; i < per_kind; i++) {
        long v = 1 + (long)((double)i * (double)(n - 1) / (per_kind - 1) + 0.5);
        if (v > k) return (int)v;
    }
    return (int)(n + 1);
}

static void sweep(const scenario *s)
{
    /* dry run: how many calls of each site this rank makes */
    long counts[N_SITES], low[N_SITES], high[N_SITES];
    state st;
    int rc = setup(s, &st);
    mpi_fault_start(NULL, 0);
    if (!rc) rc = body(s, &st);
    mpi_fault_stop();
    for (int i = 0; i < N_SITES; i++) counts[i] = mpi_fault_count(sites[i].name);
    teardown(s, &st, rc);
    int failed = rc != 0, any;
    MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any) {
        if (me == 0)
            printf("skip %s: refused without a fault on %d ranks (%s)\n", s->name, P,
                   distfft_last_error());
        return;
    }
    MPI_Allreduce(counts, low, N_SITES, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(counts, high, N_SITES, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    int before_failures = failures, before_injections = injections, runs = 0;
    for (int i = 0; i < N_SITES; i++) {
        const fault_site *site = &sites[i];
        if (site->kind == EVERY_RANK) {
            /* every rank fails the same call: only where all make as many */
            if (low[i] != high[i] || low[i] == 0) continue;
            for (long k = 1; k <= low[i]; k = next_k(low[i], k), runs++)
                inject(s, site->name, k, 1, "on every rank");
        } else {
            for (long k = 1; k <= high[i]; k = next_k(high[i], k), runs++)
                inject(s, site->name, k, 1, "on every rank");
            if (P > 1)
                for (long k = 1; k <= high[i]; k = next_k(high[i], k), runs++)
                    inject(s, site->name, k, me == P - 1, "on the last rank");
        }
    }
    if (me == 0)
        printf("%s %s: %d runs, %d faults injected\n",
               failures == before_failures ? "ok  " : "FAIL", s->name, runs,
               injections - before_injections);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--long")) long_run = 1;
        else if (!strcmp(argv[a], "--verbose")) verbose = 1;
        else if (!strcmp(argv[a], "--per-kind") && a + 1 < argc) per_kind = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--only") && a + 1 < argc) only = argv[++a];
        else dir = argv[a];
    }
    if (per_kind < 2) per_kind = 2;
    /* MPICH's MPI-IO (ROMIO) calls the MPI_ names itself: its own
     * collectives and datatypes would be failed and counted here, which
     * ROMIO is not written to survive. Open MPI's OMPIO calls PMPI. */
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    int romio_counted = strstr(version, "MPICH") != NULL;
    for (int i = 0; i < N_SCENARIOS; i++) {
        int file = scenarios[i].what == FILE_WRITE || scenarios[i].what == FILE_READ;
        if (file && romio_counted) {
            if (me == 0) printf("skip %s: MPICH (ROMIO calls the MPI_ names)\n", scenarios[i].name);
            continue;
        }
        if (!only || strstr(scenarios[i].name, only)) sweep(&scenarios[i]);
    }
    if (me == 0)
        printf("test_faults: %s: %d faults injected on %d ranks, %d injection(s) failed\n",
               failures ? "FAIL" : "ok", injections, P, failures);
    MPI_Finalize();
    return failures ? 1 : 0;
}
