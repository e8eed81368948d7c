/*
 * describe.c -- a plan prints itself as a tree of its steps, as FFTW's
 * plans do. Verbosity 0 is one line:
 *   (distfft kinds=c2c,c2c,c2c 64x64x64 double grid=2x2
 *     (fft c2c axes=2) (redist alltoallw 2->1 on P1) (fft c2c axes=1) ...
 *     (backward alltoallw,alltoallv) (tuning 0.12 s, 3 grids))
 * the header, every forward step as it describes itself, the backward
 * exchanges' methods when tuning may have chosen them otherwise, and where
 * the choices came from. Tests and Python parse that line: it stays as it is.
 * Verbosity 1 puts each node on a line of its own, indented by depth, with
 * the steps' children (an exchange's inner phases; the copy of its input a
 * fused c2r that must keep it makes, a pass destroy_input saves) and every
 * backward step;
 * verbosity 2 adds FFTW's own plan under each transform.
 */
#include "../types.h"
#include "plan.h"

static void describe_header(const struct distfft_plan_s *plan, text *out)
{
    const plan_request *request = &plan->request;
    char shape[256];
    shape_format(request->ndims, request->shape, shape, sizeof shape);
    text_append(out, "distfft kinds=");
    for (int a = 0; a < request->ndims; a++)
        text_append(out, a ? ",%s" : "%s", distfft_kind_name(request->options.kinds[a]));
    text_append(out, " %s %s", shape, distfft_precision_name(request->precision));
    if (request->options.batch > 1) text_append(out, " batch=%lld", (long long)request->options.batch);
    if (request->options.threads > 1) text_append(out, " threads=%d", request->options.threads);
    if (plan->pipeline.fields > 1) text_append(out, " overlap=%s", distfft_overlap_name(plan->pipeline.mode));
    text_append(out, " grid=");
    for (int i = 0; i < plan->grid->ndims; i++) text_append(out, i ? "x%d" : "%d", plan->grid->dims[i]);
    if (plan->grid->placement != DISTFFT_PLACEMENT_ROW)
        text_append(out, " placement=%s", distfft_placement_name(plan->grid->placement));
}

/* The methods of the backward exchanges, as " (backward m1,m2)". */
static void describe_backward_methods(const struct distfft_plan_s *plan, text *out)
{
    const char *separator = " (backward";
    for (int s = 0; s < plan_list_length(plan, PLAN_BACKWARD); s++) {
        const step *current = plan->steps[PLAN_BACKWARD][s];
        if (current->spec.kind != STEP_EXCHANGE) continue;
        distfft_step info = {.method = DISTFFT_METHOD_AUTO};
        current->ops->report(current, &info);
        text_append(out, "%s %s", separator, distfft_method_name(info.method));
        separator = ",";
    }
    if (separator[0] == ',') text_append(out, ")");
}

/* The steps of one direction as nodes at `depth`, with their children
 * one level further in when verbose. */
static void describe_steps(const struct distfft_plan_s *plan, int list, int verbosity, int depth, text *out)
{
    for (int s = 0; s < plan_list_length(plan, list); s++) {
        const step *current = plan->steps[list][s];
        text_open(out, depth);
        current->ops->describe(current, out);
        if (verbosity > 0 && current->ops->children) current->ops->children(current, verbosity, depth + 1, out);
        text_append(out, ")");
    }
}

/* "(wisdom)" or "(tuning 1.2 s, 5 grids)": how tuning chose the plan;
 * nothing when it measured nothing. */
static void describe_tuning(const tuning_report *tuning, int depth, text *out)
{
    if (tuning->strategy == TUNING_NONE) return;
    if (tuning->strategy == TUNING_WISDOM) {
        text_node(out, depth, "wisdom");
        return;
    }
    text_open(out, depth);
    text_append(out, "tuning %.3g s", tuning->seconds);
    bool ranked = tuning->strategy == TUNING_MODEL;
    if (tuning->timed)
        text_append(out, ranked ? ", %d model-ranked candidates" : ", %d grids", tuning->timed);
    else if (ranked)
        text_append(out, ", the model's choice untimed");
    text_append(out, ")");
}

int distfft_plan_describe_verbose(const struct distfft_plan_s *plan, int verbosity, char *buf, size_t size)
{
    if (!plan || verbosity < 0) return -1;
    text out = text_on(buf, size);
    const distfft_options *options = &plan->request.options;
    int depth = verbosity > 0; /* 0: every node on the one line */
    text_append(&out, "(");
    describe_header(plan, &out);
    describe_steps(plan, PLAN_FORWARD, verbosity, depth, &out);
    if (verbosity > 0) {
        text_open(&out, depth);
        text_append(&out, "backward");
        describe_steps(plan, PLAN_BACKWARD, verbosity, depth + 1, &out);
        text_append(&out, ")");
    } else if (options->method == DISTFFT_METHOD_AUTO) {
        describe_backward_methods(plan, &out);
    }
    describe_tuning(&plan->tuning, depth, &out);
    text_append(&out, ")");
    return (int)out.used;
}

int distfft_plan_describe(const struct distfft_plan_s *plan, char *buf, size_t size)
{
    return distfft_plan_describe_verbose(plan, 0, buf, size);
}
