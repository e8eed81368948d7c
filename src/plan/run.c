/*
 * run.c -- running a plan: the steps of one direction in order on the
 * slots the algebra assigned (paper 000 Sec. 3.3-3.6), each timed, then
 * the normalisation left to a final sweep. Nothing is allocated here.
 * Every step runs through run_step, field by field or not; a reshape at an
 * end in a caller's layout is a step like the others.
 *
 * A batched plan with overlap runs field by field, with each exchange of
 * field k in flight while the FFTs of field k-1 after it run
 * (options.overlap ON; see distfft_overlap).
 *
 * The plan's steps are then those of ONE field (the algebra with batch 1),
 * and field k of the array a slot holds starts k strides into it. The one
 * thing to know: every slot has ONE stride, the largest per-field array it
 * ever holds (the work sizes of one field, rounded up to 64 bytes), so
 * field k of any array placed in a slot never overlaps field j != k of
 * another -- which is what lets field k-1's FFTs (in place, or out of
 * place into the other buffer) run while field k's exchange reads and
 * writes its own regions.
 *
 * For exchange level j (exchanges e_1 < e_2 < ... in the list; segment j
 * the local steps after e_j, segment 0 those before e_1):
 *   for k = 0..B-1:  [j = 1: segment 0 of field k]; start e_j of field k;
 *                    if k > 0: wait e_j of field k-1, segment j of k-1
 *   wait e_j of field B-1, segment j of B-1
 * so at most two exchanges are in flight, each on its own field's regions.
 * With overlap PROGRESS the same order, and during each segment that runs
 * while an exchange is in flight the plan's helper thread calls MPI_Test
 * on it (progress_thread.c): MPI's shared-memory copies then happen during
 * the FFTs, not in the MPI_Wait after them.
 *
 * One by one (overlap FIELDS) is the plain loop: field k through every
 * step, then field k+1; the work slots then have stride 0 (one field's
 * work buffers, reused), so the memory touched is one field's, as in a
 * loop over one-field plans.
 *
 * Reshapes at the ends move every field at once: they run before the
 * first field starts and after the last one is done.
 */
#include <stdio.h>

#include "../error.h"
#include "../backend.h"
#include "../platform.h"
#include "../types.h"
#include "plan.h"

size_t plan_in_bytes(const struct distfft_plan_s *plan, int list)
{
    const step_spec *first = plan_list_spec(plan, list, 0);
    return (size_t)plan_step_runs(plan, first) * (size_t)first->in_count * distfft_type_size(first->in_type);
}

size_t plan_out_bytes(const struct distfft_plan_s *plan, int list)
{
    const step_spec *last = plan_list_spec(plan, list, plan_list_length(plan, list) - 1);
    return (size_t)plan_step_runs(plan, last) * (size_t)last->out_count * distfft_type_size(last->out_type);
}

static int execute_step(const void *context, const void *in, void *out)
{
    const step *current = context;
    return current->ops->execute(current, in, out);
}

/* Bytes a step reads and writes. */
static size_t step_in_bytes(const step *current)
{
    return (size_t)current->spec.in_count * distfft_type_size(current->spec.in_type);
}

static size_t step_out_bytes(const step *current)
{
    return (size_t)current->spec.out_count * distfft_type_size(current->spec.out_type);
}

/* A local step's name as the platform asks for it: its description, byte
 * counts, batch and local shape. */
static void name_step(const void *context, char *key, size_t size)
{
    const step *current = context;
    text name = text_on(key, size);
    current->ops->describe(current, &name);
    text_append(&name, " %zu>%zu b%lld", step_in_bytes(current), step_out_bytes(current),
                (long long)current->spec.batch);
    for (int i = 0; i < current->spec.ndims; i++) text_append(&name, ",%lld", (long long)current->spec.in_shape[i]);
}

/* The final scaling of a direction's output, as local work, by the
 * plan's backend in its memory. */
typedef struct {
    const backend *memory;
    distfft_precision precision;
    int64_t count;
    double factor;
    int threads;
    void *stream;
} scaling;

static int run_scaling(const void *context, const void *in, void *out)
{
    (void)in;
    const scaling *scale = context;
    scale->memory->scale(scale->precision, out, scale->count, scale->factor, scale->threads, scale->stream);
    return DISTFFT_SUCCESS;
}

static void name_scaling(const void *context, char *key, size_t size)
{
    const scaling *scale = context;
    snprintf(key, size, "scale %s %lld", distfft_precision_name(scale->precision), (long long)scale->count);
}

/* Scale the `bytes` of `out` in place, as local work like the steps (a
 * simulator that charges the steps charges it too, or two runs of one
 * plan would differ by its measured host time). */
static void scale_output(const struct distfft_plan_s *plan, void *out, size_t bytes, double factor)
{
    size_t real = plan->request.precision == DISTFFT_DOUBLE ? sizeof(double) : sizeof(float);
    scaling scale = {backend_of(plan->request.options.memory), plan->request.precision, (int64_t)(bytes / real),
                     factor, plan->request.options.threads, plan->request.options.stream};
    platform_work work = {run_scaling, name_scaling, &scale, bytes, bytes};
    platform_run_local_work(&work, out, out);
}

/* ---- field by field ---------------------------------------------------------- */

static size_t round_up(size_t bytes)
{
    return (bytes + 63) & ~(size_t)63;
}

bool pipeline_possible(const algebra_steps *algebra)
{
    const step_spec *first = &algebra->forward[0];
    const step_spec *last = &algebra->forward[algebra->forward_count - 1];
    size_t in = (size_t)first->in_count * distfft_type_size(first->in_type);
    size_t out = (size_t)last->out_count * distfft_type_size(last->out_type);
    return in % 64 == 0 && out % 64 == 0;
}

void pipeline_strides(struct distfft_plan_s *plan)
{
    const algebra_steps *a = &plan->algebra;
    const step_spec *first = &a->forward[0], *last = &a->forward[a->forward_count - 1];
    size_t (*stride)[SLOT_COUNT] = plan->pipeline.field_stride;
    /* Forward: INPUT holds the input, OUTPUT the output; backward swaps
     * them, and run_step picks the list's own. The buffers of the plan's
     * own blocks at reshaped ends are by end, the same in both lists. */
    size_t input = (size_t)first->in_count * distfft_type_size(first->in_type);
    size_t output = (size_t)last->out_count * distfft_type_size(last->out_type);
    bool one_by_one = plan->pipeline.mode == DISTFFT_OVERLAP_FIELDS; /* one field's work buffers */
    for (int l = 0; l < 2; l++) {
        stride[l][SLOT_INPUT] = l == PLAN_FORWARD ? input : output;
        stride[l][SLOT_OUTPUT] = l == PLAN_FORWARD ? output : input;
        stride[l][SLOT_WORK0] = one_by_one ? 0 : round_up(a->work_bytes[0]);
        stride[l][SLOT_WORK1] = one_by_one ? 0 : round_up(a->work_bytes[1]);
        stride[l][SLOT_END_INPUT] = input;
        stride[l][SLOT_END_OUTPUT] = output;
    }
}

/* Before step s runs in a device plan: the marks of its previous run read
 * into step_seconds (waiting for that run to finish), and its start mark
 * put on the plan's stream. False where the clock times the step (a host
 * plan, or no marks could be had). */
static bool start_marks(struct distfft_plan_s *plan, int list, int s)
{
    const backend_marks *marks = backend_of(plan->request.options.memory)->marks;
    if (!marks) return false;
    void **pair = &plan->step_marks[list][s];
    if (!*pair && !(*pair = marks->create())) return false;
    if (plan->step_marked[list][s]) plan->step_seconds[list][s] += marks->seconds(*pair);
    plan->step_marked[list][s] = false;
    marks->mark(*pair, false, plan->request.options.stream);
    return true;
}

double plan_step_seconds(const struct distfft_plan_s *plan, int list, int s)
{
    const backend_marks *marks = backend_of(plan->request.options.memory)->marks;
    double pending = plan->step_marked[list][s] ? marks->seconds(plan->step_marks[list][s]) : 0.0;
    return plan->step_seconds[list][s] + pending;
}

static void *field_of(const struct distfft_plan_s *plan, int list, void *const *slots, step_slot slot,
                      int64_t field)
{
    char *base = slots[slot];
    return base ? base + (size_t)field * plan->pipeline.field_stride[list][slot] : NULL;
}

/* Run step s of a list on field k (0: the whole arrays of a plan not run
 * field by field): a local step as the platform runs local work
 * (platform_run_local_work: a simulator may charge it), an exchange to
 * its end or, given `request`, started and left in flight. Timed: steps
 * that communicate as redistribution, the others as FFT time. An
 * exchange with a shared output puts it in its dst slot's place first.
 * A device plan's step is enqueued on its stream and may return before
 * its work is done: its own time is read from marks around it on the
 * stream (start_marks), the clock's time is the host's. */
static int run_step(struct distfft_plan_s *plan, int list, void **slots, int s, int64_t k,
                    MPI_Request *request)
{
    const step *current = plan->steps[list][s];
    if (plan->exchange_output[list][s]) /* the slot is there from now on (one copy in) */
        slots[current->spec.dst] = plan->exchange_output[list][s];
    const void *in = field_of(plan, list, slots, current->spec.src, k);
    void *out = field_of(plan, list, slots, current->spec.dst, k);
    platform_work work = {execute_step, name_step, current, step_in_bytes(current), step_out_bytes(current)};
    bool marked = !request && start_marks(plan, list, s);
    double start = MPI_Wtime();
    int rc = request ? current->ops->start(current, in, out, request)
             : step_communicates(&current->spec) ? current->ops->execute(current, in, out)
                                                  : platform_run_local_work(&work, in, out);
    double elapsed = MPI_Wtime() - start;
    if (marked) {
        backend_of(plan->request.options.memory)->marks->mark(plan->step_marks[list][s], true,
                                                               plan->request.options.stream);
        plan->step_marked[list][s] = true;
    } else {
        plan->step_seconds[list][s] += elapsed;
    }
    if (step_communicates(&current->spec)) plan->timings.redistribute_seconds += elapsed;
    else plan->timings.fft_seconds += elapsed;
    return rc;
}

static int run_segment(struct distfft_plan_s *plan, int list, void **slots, int first, int end, int64_t k)
{
    for (int s = first; s < end; s++) {
        int rc = run_step(plan, list, slots, s, k, NULL);
        if (rc != DISTFFT_SUCCESS) return rc;
    }
    return DISTFFT_SUCCESS;
}

/* Complete an exchange in flight (its wait counts as redistribution). */
static int finish(struct distfft_plan_s *plan, MPI_Request *request)
{
    double start = MPI_Wtime();
    int code = MPI_Wait(request, MPI_STATUS_IGNORE);
    plan->timings.redistribute_seconds += MPI_Wtime() - start;
    return code == MPI_SUCCESS ? DISTFFT_SUCCESS : error_mpi(code, "MPI_Wait");
}

/* A segment of local steps while the exchanges of `pending` are in
 * flight: with overlap PROGRESS the helper thread tests them meanwhile
 * (progress_thread.c) and hands them back before this returns. Nothing
 * to test (the segment is empty, or the method ran blocking): no
 * hand-over. */
static int run_segment_beside(struct distfft_plan_s *plan, int list, void **slots, int first, int end,
                              int64_t k, MPI_Request *pending)
{
    bool in_flight = pending[0] != MPI_REQUEST_NULL || pending[1] != MPI_REQUEST_NULL;
    if (!plan->pipeline.progress || !in_flight || first == end) return run_segment(plan, list, slots, first, end, k);
    plan_progress_begin(plan->pipeline.progress, pending, 2);
    int rc = run_segment(plan, list, slots, first, end, k);
    int tested = plan_progress_end(plan->pipeline.progress);
    return rc != DISTFFT_SUCCESS ? rc : tested;
}

/* One exchange level j (see the top) of the steps first..last-1: fields
 * through exchange e[j] and the segment after it. */
static int run_level(struct distfft_plan_s *plan, int list, void **slots, const int *e, int j, int m,
                     int first, int last)
{
    int rc = DISTFFT_SUCCESS;
    int64_t fields = plan->pipeline.fields;
    int after = e[j] + 1, end = j + 1 < m ? e[j + 1] : last;
    MPI_Request pending[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    for (int64_t k = 0; k < fields; k++) {
        if (j == 0) TRY(run_segment_beside(plan, list, slots, first, e[0], k, pending));
        TRY(run_step(plan, list, slots, e[j], k, &pending[k % 2]));
        if (k > 0) {
            TRY(finish(plan, &pending[(k - 1) % 2]));
            TRY(run_segment_beside(plan, list, slots, after, end, k - 1, pending));
        }
    }
    TRY(finish(plan, &pending[(fields - 1) % 2]));
    return run_segment(plan, list, slots, after, end, fields - 1);
fail:
    for (int i = 0; i < 2; i++) KEEP_MPI(MPI_Wait(&pending[i], MPI_STATUS_IGNORE));
    return rc;
}

/* The steps first..last-1 (one field's each) field by field. */
static int run_fields(struct distfft_plan_s *plan, int list, void **slots, int first, int last)
{
    int e[PLAN_MAX_STEPS], m = 0;
    for (int s = first; s < last; s++)
        if (plan->steps[list][s]->spec.kind == STEP_EXCHANGE) e[m++] = s;
    if (m == 0 || plan->pipeline.mode == DISTFFT_OVERLAP_FIELDS) {
        for (int64_t k = 0; k < plan->pipeline.fields; k++) {
            int rc = run_segment(plan, list, slots, first, last, k);
            if (rc != DISTFFT_SUCCESS) return rc;
        }
        return DISTFFT_SUCCESS;
    }
    for (int j = 0; j < m; j++) {
        int rc = run_level(plan, list, slots, e, j, m, first, last);
        if (rc != DISTFFT_SUCCESS) return rc;
    }
    return DISTFFT_SUCCESS;
}

/* Run the steps of one direction, then the normalisation left to a sweep.
 * Field by field, the reshapes at the ends run once, on every field. */
int plan_run(struct distfft_plan_s *plan, int list, void *in, void *out)
{
    void *slots[SLOT_COUNT] = {[SLOT_INPUT] = in, [SLOT_OUTPUT] = out};
    for (int slot = SLOT_WORK0; slot < SLOT_COUNT; slot++) slots[slot] = plan->work[slot - SLOT_WORK0];
    int rc = DISTFFT_SUCCESS, count = plan_list_length(plan, list);
    plan->executions[list]++;
    if (plan->pipeline.fields == 1) {
        TRY(run_segment(plan, list, slots, 0, count, 0));
    } else {
        int first = 0, last = count;
        while (first < last && plan->steps[list][first]->spec.kind == STEP_RESHAPE) first++;
        while (last > first && plan->steps[list][last - 1]->spec.kind == STEP_RESHAPE) last--;
        TRY(run_segment(plan, list, slots, 0, first, 0));
        TRY(run_fields(plan, list, slots, first, last));
        TRY(run_segment(plan, list, slots, last, count, 0));
    }
    const step_spec *final = plan_list_spec(plan, list, count - 1);
    size_t out_bytes = plan_out_bytes(plan, list); /* 0 on a rank with an empty block: no work buffer */
    if (plan->pipeline.fields == 1 && slots[final->dst] != out && out && out_bytes) /* in place, ended in a work buffer */
        backend_of(plan->request.options.memory)->copies->move(out, slots[final->dst], out_bytes,
                                                               plan->request.options.stream);
    if (plan->sweep_scale[list] != 1.0) { /* 1 when folded into a step */
        double start = MPI_Wtime();
        scale_output(plan, out, out_bytes, plan->sweep_scale[list]);
        plan->timings.fft_seconds += MPI_Wtime() - start;
    }
fail:
    return rc;
}
