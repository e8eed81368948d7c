/*
 * plan.c -- parallel complex FFT plans (paper Sec. 3.3-3.6, Eqs. 12-14 and
 * 21-32): a list of steps [fft, redist, fft, redist, ..., fft]; backward is
 * the same list reversed. The plan composes steps; it implements none.
 *
 * On an r-dimensional grid the input lies in layout L_0: axis i distributed
 * over grid direction i (i < r), axes r..d-1 complete. Then
 *   stage 0:  FFT over the complete axes r..d-1 (one FFTW plan);
 *   stage k (k = 1..r), with i = r - k:
 *             redistribute on P_i from alignment i+1 to alignment i
 *             (axis i+1 becomes distributed over direction i, axis i
 *             complete), giving layout L_k; then FFT along axis i.
 * The output (layout L_r) is in natural axis order: axis 0 complete, axis
 * i+1 distributed over direction i.
 *
 * A grid direction of extent 1 moves no data: its exchange would be a local
 * copy, so it is left out and its FFT joins the previous stage (on one rank
 * the whole transform is a single FFTW plan from input to output).
 *
 * Memory (the paper's remark after Eq. 32): the arrays of the stages are
 * placed alternately in two work buffers, with the caller's output as the
 * last one and, when destroy_input allows, the caller's input as the first;
 * see distfft_plan_work_bytes. All of it, the FFTW plans and the
 * redistributions are made here, once; executing allocates nothing.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "grid.h"
#include "layout.h"
#include "redist/redist.h"
#include "serial/serial_fft.h"
#include "types.h"

#define MAX_STAGES DISTFFT_MAX_DIMS

struct distfft_plan_s {
    MPI_Comm comm;                      /* our duplicate of the caller's */
    distfft_grid grid;
    int ndims;
    int64_t shape[DISTFFT_MAX_DIMS];
    distfft_precision precision;
    distfft_options options;
    int stages;                         /* exchanges actually done + 1 */
    layout layouts[MAX_STAGES];         /* layout each stage ends in */
    int direction[MAX_STAGES];          /* [k]: grid direction of exchange k */
    int64_t local_shape[MAX_STAGES][DISTFFT_MAX_DIMS];
    int64_t global_start[MAX_STAGES][DISTFFT_MAX_DIMS];
    int64_t local_count[MAX_STAGES];
    int first_axis[MAX_STAGES], last_axis[MAX_STAGES]; /* FFT of stage k */
    serial_fft *forward_fft[MAX_STAGES], *backward_fft[MAX_STAGES];
    distfft_redist forward_redist[MAX_STAGES];  /* [k]: stage k-1 -> k */
    distfft_redist backward_redist[MAX_STAGES]; /* [k]: stage k -> k-1 */
    int work_count;
    size_t work_size;                   /* bytes of each work buffer */
    void *work[2];
    double forward_scale, backward_scale;
    distfft_timings timings;
};

void distfft_options_init(distfft_options *options)
{
    if (!options) return;
    memset(options, 0, sizeof *options);
    options->grid_ndims = 0;
    options->method = DISTFFT_METHOD_ALLTOALLW;
    options->norm = DISTFFT_NORM_BACKWARD;
    options->rigor = DISTFFT_MEASURE;
    options->destroy_input = 0;
}

/* ---- argument checks ------------------------------------------------------ */

static int check_create(int ndims, const int64_t *shape,
                        distfft_precision precision,
                        const distfft_options *options, const distfft_plan *plan,
                        replicated_args *args)
{
    const char *where = "distfft_plan_create";
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: plan (out-handle) is NULL", where);
    if (ndims < 2 || ndims > DISTFFT_MAX_DIMS)
        return error_fail(DISTFFT_ERR_SHAPE, "%s: ndims = %d must be in 2..%d", where, ndims, DISTFFT_MAX_DIMS);
    if (!shape) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: shape is NULL", where);
    int64_t total = 1;
    for (int i = 0; i < ndims; i++) {
        if (shape[i] < 1)
            return error_fail(DISTFFT_ERR_SHAPE, "%s: shape[%d] = %lld must be >= 1", where, i, (long long)shape[i]);
        if (shape[i] > INT64_MAX / 16 / total)
            return error_fail(DISTFFT_ERR_SHAPE, "%s: the global array has more than 2^59 elements", where);
        total *= shape[i];
    }
    if (!precision_is_valid(precision))
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown precision %d", where, (int)precision);
    if (options->grid_ndims < 0 || options->grid_ndims >= ndims)
        return error_fail(DISTFFT_ERR_GRID, "%s: grid_ndims = %d must be in 1..%d (0: automatic) for a %d-dimensional array",
                          where, options->grid_ndims, ndims - 1, ndims);
    if (!distfft_method_name(options->method))
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown method %d", where, (int)options->method);
    if (options->norm < DISTFFT_NORM_BACKWARD || options->norm > DISTFFT_NORM_FORWARD)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown norm %d", where, (int)options->norm);
    if (options->rigor < DISTFFT_ESTIMATE || options->rigor > DISTFFT_EXHAUSTIVE)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown rigor %d", where, (int)options->rigor);

    replicated_add(args, ndims, "ndims");
    for (int i = 0; i < ndims; i++) replicated_add(args, shape[i], "shape[%d]", i);
    replicated_add(args, precision, "precision");
    replicated_add(args, options->grid_ndims, "grid_ndims");
    for (int i = 0; i < options->grid_ndims; i++)
        replicated_add(args, options->grid_dims[i], "grid_dims[%d]", i);
    replicated_add(args, options->method, "method");
    replicated_add(args, options->norm, "norm");
    replicated_add(args, options->rigor, "rigor");
    replicated_add(args, options->destroy_input != 0, "destroy_input");
    return DISTFFT_SUCCESS;
}

/* The lowest grid dimensionality whose MPI_Dims_create grid gives every
 * rank data in every layout (direction i splits axes i and i+1), or the
 * highest possible one if none does. Identical on every rank. */
static int choose_grid_ndims(int size, int ndims, const int64_t *shape)
{
    for (int r = 1; r < ndims; r++) {
        int dims[DISTFFT_MAX_DIMS] = {0};
        MPI_Dims_create(size, r, dims);
        int fits = 1;
        for (int i = 0; i < r; i++)
            fits &= dims[i] <= shape[i] && dims[i] <= shape[i + 1];
        if (fits) return r;
    }
    return ndims - 1;
}

/* ---- building the steps -------------------------------------------------- */

static void build_stages(struct distfft_plan_s *plan)
{
    int r = plan->grid->ndims, d = plan->ndims;
    layout current;
    current.ndims = d;
    for (int axis = 0; axis < d; axis++) {
        current.global_shape[axis] = plan->shape[axis];
        current.distributed_by[axis] = axis < r ? axis : NOT_DISTRIBUTED;
    }
    int stage = 0;
    plan->layouts[0] = current;
    plan->first_axis[0] = r;
    plan->last_axis[0] = d - 1;
    for (int k = 1; k <= r; k++) {
        int i = r - k; /* exchange on P_i: alignment i+1 -> i */
        current.distributed_by[i + 1] = i;
        current.distributed_by[i] = NOT_DISTRIBUTED;
        if (plan->grid->dims[i] > 1) {
            stage++;
            plan->direction[stage] = i;
            plan->last_axis[stage] = i;
        }
        plan->first_axis[stage] = i;
        plan->layouts[stage] = current;
    }
    plan->stages = stage + 1;
    for (int k = 0; k < plan->stages; k++) {
        layout_block(&plan->layouts[k], plan->grid->dims, plan->grid->coords,
                     plan->local_shape[k], plan->global_start[k]);
        plan->local_count[k] = shape_product(d, plan->local_shape[k]);
    }
}

static int allocate_work(struct distfft_plan_s *plan)
{
    /* Stages 0 .. last-1 live in work buffers (the last is the output), the
     * first in the caller's input instead when destroy_input allows. */
    int last = plan->stages - 1;
    int arrays_in_work = plan->options.destroy_input && last > 0 ? last - 1 : last;
    plan->work_count = arrays_in_work < 2 ? arrays_in_work : 2;
    int64_t largest = 0;
    for (int k = 0; k < plan->stages; k++)
        if (plan->local_count[k] > largest) largest = plan->local_count[k];
    plan->work_size = (size_t)largest * distfft_type_size(type_complex(plan->precision));
    for (int b = 0; b < plan->work_count; b++) {
        plan->work[b] = distfft_malloc(plan->work_size ? plan->work_size : 1);
        if (!plan->work[b])
            return error_fail(DISTFFT_ERR_MEMORY, "work buffer of %zu bytes",
                              plan->work_size);
    }
    return DISTFFT_SUCCESS;
}

/* Plan the serial FFTs of every stage on two planning buffers: stage 0
 * forward and the last stage backward read the caller's input (out of place
 * unless destroy_input lets them work in it; always out of place when there
 * is a single stage, input to output); all other transforms are in place. */
static int plan_ffts(struct distfft_plan_s *plan)
{
    int rc = DISTFFT_SUCCESS, last = plan->stages - 1;
    void *buffers[2] = {plan->work[0], plan->work[1]};
    void *temporary[2] = {NULL, NULL};
    for (int b = 0; b < 2; b++)
        if (!buffers[b]) {
            temporary[b] = buffers[b] = distfft_malloc(plan->work_size ? plan->work_size : 1);
            if (!buffers[b]) {
                rc = error_fail(DISTFFT_ERR_MEMORY, "planning buffer of %zu bytes", plan->work_size);
                goto fail;
            }
        }
    int out_of_place = !plan->options.destroy_input || last == 0;
    for (int k = 0; k <= last; k++) {
        int reads_forward_input = k == 0 && out_of_place;
        int reads_backward_input = k == last && out_of_place;
        TRY(serial_fft_create(plan->precision, plan->ndims, plan->local_shape[k], 1,
                              plan->first_axis[k], plan->last_axis[k], DISTFFT_FORWARD,
                              plan->options.rigor, true, buffers[0],
                              reads_forward_input ? buffers[1] : buffers[0],
                              &plan->forward_fft[k]));
        TRY(serial_fft_create(plan->precision, plan->ndims, plan->local_shape[k], 1,
                              plan->first_axis[k], plan->last_axis[k], DISTFFT_BACKWARD,
                              plan->options.rigor, true, buffers[0],
                              reads_backward_input ? buffers[1] : buffers[0],
                              &plan->backward_fft[k]));
    }
fail:
    for (int b = 0; b < 2; b++) distfft_free(temporary[b]);
    return rc;
}

static int plan_redistributions(struct distfft_plan_s *plan)
{
    int rc = DISTFFT_SUCCESS;
    distfft_type type = type_complex(plan->precision);
    for (int k = 1; k < plan->stages; k++) {
        int i = plan->direction[k];
        MPI_Comm subcomm = plan->grid->subcomms[i];
        redist_geometry forward = {.type = type, .ndims = plan->ndims,
                                   .axis_in = i + 1, .axis_out = i, .batch = 1,
                                   .parts = plan->grid->dims[i],
                                   .part = plan->grid->coords[i]};
        memcpy(forward.in_shape, plan->local_shape[k - 1], sizeof forward.in_shape);
        memcpy(forward.out_shape, plan->local_shape[k], sizeof forward.out_shape);
        redist_geometry backward = forward;
        backward.axis_in = i;
        backward.axis_out = i + 1;
        memcpy(backward.in_shape, plan->local_shape[k], sizeof backward.in_shape);
        memcpy(backward.out_shape, plan->local_shape[k - 1], sizeof backward.out_shape);
        TRY(redist_create_on(subcomm, &forward, plan->options.method, &plan->forward_redist[k]));
        TRY(redist_create_on(subcomm, &backward, plan->options.method, &plan->backward_redist[k]));
    }
fail:
    return rc;
}

static void set_scales(struct distfft_plan_s *plan)
{
    double n = (double)shape_product(plan->ndims, plan->shape);
    plan->forward_scale = plan->backward_scale = 1.0;
    switch (plan->options.norm) {
    case DISTFFT_NORM_BACKWARD: plan->backward_scale = 1.0 / n; break;
    case DISTFFT_NORM_FORWARD: plan->forward_scale = 1.0 / n; break;
    case DISTFFT_NORM_ORTHO: plan->forward_scale = plan->backward_scale = 1.0 / sqrt(n); break;
    }
}

static void plan_free(struct distfft_plan_s *plan)
{
    if (!plan) return;
    for (int k = 0; k < MAX_STAGES; k++) {
        serial_fft_destroy(plan->forward_fft[k]);
        serial_fft_destroy(plan->backward_fft[k]);
        redist_free(plan->forward_redist[k]);
        redist_free(plan->backward_redist[k]);
    }
    for (int b = 0; b < 2; b++) distfft_free(plan->work[b]);
    grid_free(plan->grid);
    if (plan->comm != MPI_COMM_NULL) MPI_Comm_free(&plan->comm);
    free(plan);
}

int distfft_plan_create(MPI_Comm comm, int ndims, const int64_t *shape,
                        distfft_precision precision,
                        const distfft_options *options_in, distfft_plan *plan_out)
{
    error_clear();
    if (plan_out) *plan_out = NULL;
    if (comm == MPI_COMM_NULL)
        return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_create: comm is MPI_COMM_NULL");
    distfft_options options;
    if (options_in) options = *options_in;
    else distfft_options_init(&options);

    int rc = DISTFFT_SUCCESS, size;
    MPI_Comm work_comm = MPI_COMM_NULL;
    struct distfft_plan_s *plan = NULL;
    TRY_MPI(MPI_Comm_dup(comm, &work_comm));
    TRY_MPI(MPI_Comm_set_errhandler(work_comm, MPI_ERRORS_RETURN));
    TRY_MPI(MPI_Comm_size(work_comm, &size));

    replicated_args args;
    replicated_init(&args);
    int local = check_create(ndims, shape, precision, &options, plan_out, &args);
    TRY(error_agree_replicated(work_comm, local, &args));

    /* From here on the arguments are valid and identical on every rank. */
    int grid_ndims = options.grid_ndims ? options.grid_ndims
                                        : choose_grid_ndims(size, ndims, shape);
    int grid_dims[DISTFFT_MAX_DIMS];
    TRY(grid_choose_dims(size, grid_ndims, options.grid_ndims ? options.grid_dims : NULL,
                         grid_dims));

    plan = calloc(1, sizeof *plan);
    TRY(error_agree(work_comm, plan ? DISTFFT_SUCCESS
                                    : error_fail(DISTFFT_ERR_MEMORY, "plan object")));
    plan->comm = work_comm;
    work_comm = MPI_COMM_NULL;
    plan->ndims = ndims;
    memcpy(plan->shape, shape, ndims * sizeof *shape);
    plan->precision = precision;
    plan->options = options;
    plan->options.grid_ndims = grid_ndims;
    memcpy(plan->options.grid_dims, grid_dims, grid_ndims * sizeof(int));

    TRY(distfft_grid_create(plan->comm, grid_ndims, grid_dims, &plan->grid));
    build_stages(plan);
    set_scales(plan);
    local = allocate_work(plan);
    if (local == DISTFFT_SUCCESS) local = plan_ffts(plan);
    TRY(error_agree(plan->comm, local));
    TRY(plan_redistributions(plan));
    *plan_out = plan;
    return DISTFFT_SUCCESS;

fail:
    plan_free(plan);
    if (work_comm != MPI_COMM_NULL) MPI_Comm_free(&work_comm);
    return rc;
}

int distfft_plan_destroy(distfft_plan *plan)
{
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_destroy: NULL");
    plan_free(*plan);
    *plan = NULL;
    return DISTFFT_SUCCESS;
}

/* ---- execution -------------------------------------------------------------- */

static int check_execute(const struct distfft_plan_s *plan, const char *where,
                         const void *in, int64_t in_count, const void *out,
                         int64_t out_count)
{
    size_t element = distfft_type_size(type_complex(plan->precision));
    const char *pin = in, *pout = out;
    if (!in && in_count > 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: in is NULL but this rank's block has %lld elements",
                          where, (long long)in_count);
    if (!out && out_count > 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: out is NULL but this rank's block has %lld elements",
                          where, (long long)out_count);
    if (in && out && in_count > 0 && out_count > 0 &&
        pin < pout + out_count * (int64_t)element && pout < pin + in_count * (int64_t)element)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: in and out overlap (transforms are out-of-place)", where);
    if (!serial_fft_aligned(plan->precision, in) || !serial_fft_aligned(plan->precision, out))
        return error_fail(DISTFFT_ERR_ALIGNMENT, "%s: in (%p) or out (%p) is not aligned as "
                          "distfft_malloc aligns", where, in, out);
    return DISTFFT_SUCCESS;
}

static void scale(const struct distfft_plan_s *plan, void *data, int64_t count,
                  double factor)
{
    if (factor != 1.0) serial_scale(plan->precision, data, count, factor);
}

static int run_forward(struct distfft_plan_s *plan, void *in, void *out)
{
    int last = plan->stages - 1;
    void *array[MAX_STAGES];
    for (int k = 0; k < last; k++) array[k] = plan->work[(last - 1 - k) % 2];
    if (plan->options.destroy_input && last > 0) array[0] = in;
    array[last] = out;

    double start = MPI_Wtime();
    serial_fft_execute(plan->forward_fft[0], in, array[0]);
    for (int k = 1; k <= last; k++) {
        double middle = MPI_Wtime();
        plan->timings.fft_seconds += middle - start;
        int rc = redist_run(plan->forward_redist[k], array[k - 1], array[k]);
        start = MPI_Wtime();
        plan->timings.redistribute_seconds += start - middle;
        if (rc != DISTFFT_SUCCESS) return rc;
        serial_fft_execute(plan->forward_fft[k], array[k], array[k]);
    }
    scale(plan, out, plan->local_count[last], plan->forward_scale);
    plan->timings.fft_seconds += MPI_Wtime() - start;
    return DISTFFT_SUCCESS;
}

static int run_backward(struct distfft_plan_s *plan, void *in, void *out)
{
    int last = plan->stages - 1;
    void *array[MAX_STAGES];
    array[0] = out;
    for (int k = 1; k <= last; k++) array[k] = plan->work[(k - 1) % 2];
    if (plan->options.destroy_input && last > 0) array[last] = in;

    double start = MPI_Wtime();
    serial_fft_execute(plan->backward_fft[last], in, array[last]);
    for (int k = last; k >= 1; k--) {
        double middle = MPI_Wtime();
        plan->timings.fft_seconds += middle - start;
        int rc = redist_run(plan->backward_redist[k], array[k], array[k - 1]);
        start = MPI_Wtime();
        plan->timings.redistribute_seconds += start - middle;
        if (rc != DISTFFT_SUCCESS) return rc;
        serial_fft_execute(plan->backward_fft[k - 1], array[k - 1], array[k - 1]);
    }
    scale(plan, out, plan->local_count[0], plan->backward_scale);
    plan->timings.fft_seconds += MPI_Wtime() - start;
    return DISTFFT_SUCCESS;
}

static int execute(distfft_plan plan, int direction, void *in, void *out)
{
    error_clear();
    const char *where = direction == DISTFFT_FORWARD ? "distfft_plan_forward"
                                                     : "distfft_plan_backward";
    if (!plan)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: plan is NULL (destroyed or never created)", where);
    int last = plan->stages - 1;
    int64_t in_count = plan->local_count[direction == DISTFFT_FORWARD ? 0 : last];
    int64_t out_count = plan->local_count[direction == DISTFFT_FORWARD ? last : 0];
    int rc = error_agree(plan->comm, check_execute(plan, where, in, in_count, out, out_count));
    if (rc != DISTFFT_SUCCESS) return rc;
    plan->timings.executions++;
    return direction == DISTFFT_FORWARD ? run_forward(plan, in, out)
                                        : run_backward(plan, in, out);
}

int distfft_plan_forward(distfft_plan plan, void *in, void *out)
{
    return execute(plan, DISTFFT_FORWARD, in, out);
}

int distfft_plan_backward(distfft_plan plan, void *in, void *out)
{
    return execute(plan, DISTFFT_BACKWARD, in, out);
}

/* ---- queries -------------------------------------------------------------- */

static int copy_block(const struct distfft_plan_s *plan, int stage,
                      int64_t *local_shape, int64_t *global_start)
{
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "plan is NULL");
    size_t bytes = plan->ndims * sizeof(int64_t);
    if (local_shape) memcpy(local_shape, plan->local_shape[stage], bytes);
    if (global_start) memcpy(global_start, plan->global_start[stage], bytes);
    return DISTFFT_SUCCESS;
}

int distfft_plan_input_block(const struct distfft_plan_s *plan,
                             int64_t *local_shape, int64_t *global_start)
{
    return copy_block(plan, 0, local_shape, global_start);
}

int distfft_plan_output_block(const struct distfft_plan_s *plan,
                              int64_t *local_shape, int64_t *global_start)
{
    return copy_block(plan, plan ? plan->stages - 1 : 0, local_shape, global_start);
}

int distfft_plan_ndims(const struct distfft_plan_s *plan)
{
    return plan ? plan->ndims : 0;
}

int distfft_plan_grid(const struct distfft_plan_s *plan, int *grid_ndims,
                      int *grid_dims)
{
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "plan is NULL");
    if (grid_ndims) *grid_ndims = plan->grid->ndims;
    if (grid_dims) distfft_grid_dims(plan->grid, grid_dims);
    return DISTFFT_SUCCESS;
}

size_t distfft_plan_work_bytes(const struct distfft_plan_s *plan)
{
    return plan ? (size_t)plan->work_count * plan->work_size : 0;
}

int distfft_plan_timings(const struct distfft_plan_s *plan,
                         distfft_timings *timings)
{
    error_clear();
    if (!plan || !timings) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_timings: NULL argument");
    *timings = plan->timings;
    return DISTFFT_SUCCESS;
}

int distfft_plan_reset_timings(distfft_plan plan)
{
    error_clear();
    if (!plan) return error_fail(DISTFFT_ERR_ARGUMENT, "distfft_plan_reset_timings: NULL plan");
    memset(&plan->timings, 0, sizeof plan->timings);
    return DISTFFT_SUCCESS;
}

/* Append printf-style text at *used, counting what would not fit. */
static void append(char *buf, size_t size, size_t *used, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, size_t *used, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    int n = vsnprintf(*used < size ? buf + *used : NULL,
                      *used < size ? size - *used : 0, format, args);
    va_end(args);
    if (n > 0) *used += (size_t)n;
}

static void append_fft(char *buf, size_t size, size_t *used, int first, int last)
{
    if (first == last) append(buf, size, used, " (fft axis=%d)", first);
    else append(buf, size, used, " (fft axes=%d..%d)", first, last);
}

int distfft_plan_describe(const struct distfft_plan_s *plan, char *buf, size_t size)
{
    if (!plan) return -1;
    if (buf && size) buf[0] = '\0';
    if (!buf) size = 0;
    size_t used = 0;
    char shape[256];
    shape_format(plan->ndims, plan->shape, shape, sizeof shape);
    append(buf, size, &used, "(distfft c2c %s %s grid=", shape, precision_name(plan->precision));
    for (int i = 0; i < plan->grid->ndims; i++)
        append(buf, size, &used, i ? "x%d" : "%d", plan->grid->dims[i]);
    append_fft(buf, size, &used, plan->first_axis[0], plan->last_axis[0]);
    for (int k = 1; k < plan->stages; k++) {
        int i = plan->direction[k];
        append(buf, size, &used, " (redist %s %d->%d on P%d)",
               distfft_method_name(plan->options.method), i + 1, i, i);
        append_fft(buf, size, &used, plan->first_axis[k], plan->last_axis[k]);
    }
    append(buf, size, &used, ")");
    return (int)used;
}
