/*
 * report.c -- JSON and text output of distfft-bench.
 *
 * JSON has no NaN or infinity, so a non-finite number is written as null;
 * strings (the plan description, the MPI library banner) are escaped.
 * `gflops` is the customary nominal rate: 5 N log2 N flops per transform
 * of N elements (counted as complex whatever the kinds), two transforms per
 * pair, times the batch.
 *
 * The build writes distfft_git_revision.h (cmake/GitRevision.cmake) so the
 * JSON names the revision the program was built from.
 */
#include "report.h"
#include "distfft_git_revision.h" /* generated at build time */

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifdef DISTFFT_GIT_REVISION
static const char *const git_revision = DISTFFT_GIT_REVISION;
#else
static const char *const git_revision = NULL;
#endif

static void print_json_string(FILE *stream, const char *text)
{
    if (text == NULL) {
        fputs("null", stream);
        return;
    }
    fputc('"', stream);
    for (const unsigned char *next = (const unsigned char *)text; *next; ++next) {
        switch (*next) {
        case '"': fputs("\\\"", stream); break;
        case '\\': fputs("\\\\", stream); break;
        case '\n': fputs("\\n", stream); break;
        case '\r': fputs("\\r", stream); break;
        case '\t': fputs("\\t", stream); break;
        default:
            if (*next < 0x20)
                fprintf(stream, "\\u%04x", *next);
            else
                fputc(*next, stream);
        }
    }
    fputc('"', stream);
}

static void print_json_number(FILE *stream, double value)
{
    if (isfinite(value))
        fprintf(stream, "%.9g", value);
    else
        fputs("null", stream);
}

static double total_elements(const bench_options *options)
{
    double elements = 1.0;
    for (int axis = 0; axis < options->ndims; ++axis)
        elements *= (double)options->shape[axis];
    return elements;
}

static double nominal_gflops(const bench_options *options,
                             const bench_results *results)
{
    double elements = total_elements(options);
    if (!(results->timing.pair_seconds > 0.0) || elements < 2.0)
        return NAN;
    return 2.0 * 5.0 * (double)options->batch * elements * log2(elements) /
           results->timing.pair_seconds * 1e-9;
}

static void print_shape(FILE *stream, const bench_options *options,
                        const char *separator)
{
    for (int axis = 0; axis < options->ndims; ++axis)
        fprintf(stream, "%s%lld", axis ? separator : "",
                (long long)options->shape[axis]);
}

static void print_kinds(FILE *stream, const bench_options *options, int quoted)
{
    for (int axis = 0; axis < options->ndims; ++axis) {
        fputs(axis ? (quoted ? ", " : ",") : "", stream);
        const char *name = distfft_kind_name(options->kinds[axis]);
        if (quoted)
            print_json_string(stream, name);
        else
            fputs(name ? name : "unknown", stream);
    }
}

static void print_grid(FILE *stream, const bench_results *results,
                       const char *separator)
{
    for (int direction = 0; direction < results->grid_ndims; ++direction)
        fprintf(stream, "%s%d", direction ? separator : "",
                results->grid_dims[direction]);
}

/* The JSON members that say what ran: program to outer. */
static void print_json_configuration(FILE *stream, const bench_options *options,
                                     const bench_results *results)
{
    fputs("\"program\": \"distfft-bench\", \"version\": ", stream);
    print_json_string(stream, DISTFFT_VERSION);
    fputs(", \"git_revision\": ", stream);
    print_json_string(stream, git_revision);
    fputs(", \"shape\": [", stream);
    print_shape(stream, options, ", ");
    fprintf(stream, "], \"ranks\": %d, \"grid\": [", results->ranks);
    print_grid(stream, results, ", ");
    fputs("], \"precision\": ", stream);
    print_json_string(stream, distfft_precision_name(options->precision));
    fputs(", \"kind\": ", stream);
    print_json_string(stream, options->kind);
    fputs(", \"kinds\": [", stream);
    print_kinds(stream, options, 1);
    fputs("], \"axes\": ", stream);
    print_json_string(stream, options->axes);
    fprintf(stream, ", \"batch\": %lld, \"input_type\": ",
            (long long)options->batch);
    print_json_string(stream, distfft_type_name(results->input_type));
    fputs(", \"output_type\": ", stream);
    print_json_string(stream, distfft_type_name(results->output_type));
    fputs(", \"method\": ", stream);
    print_json_string(stream, distfft_method_name(results->method));
    fputs(", \"placement\": ", stream);
    print_json_string(stream, distfft_placement_name(options->placement));
    fprintf(stream, ", \"node_size\": %d, \"threads\": %d, \"overlap\": ", options->node_size,
            options->threads);
    print_json_string(stream, distfft_overlap_name(options->overlap));
    fputs(", \"rigor\": ", stream);
    print_json_string(stream, distfft_rigor_name(options->rigor));
    fputs(", \"norm\": ", stream);
    print_json_string(stream, distfft_norm_name(options->norm));
    fprintf(stream, ", \"inner\": %d, \"outer\": %d", options->inner,
            options->outer);
}

/* The "steps" list and the communication volume of one pair. */
static void print_json_steps(FILE *stream, const bench_steps *steps)
{
    fputs(", \"steps\": [", stream);
    for (int i = 0; i < steps->count; ++i) {
        const bench_step *step = &steps->steps[i];
        fprintf(stream, "%s{\"direction\": \"%s\", \"step\": ", i ? ", " : "",
                step->forward ? "forward" : "backward");
        print_json_string(stream, step->description);
        fputs(", \"seconds\": ", stream);
        print_json_number(stream, step->seconds);
        fputs(", \"seconds_fastest_rank\": ", stream);
        print_json_number(stream, step->seconds_fastest_rank);
        fprintf(stream, ", \"bytes_sent_max\": %lld, \"bytes_total\": %lld, "
                        "\"bytes_theory\": %lld, \"copy_seconds\": ",
                step->bytes_sent_max, step->bytes_total, step->bytes_theory);
        print_json_number(stream, step->copy_seconds);
        if (steps->predicted) {
            fputs(", \"predicted_seconds\": ", stream);
            print_json_number(stream, step->predicted_seconds);
        }
        fputc('}', stream);
    }
    fprintf(stream, "], \"volume_bytes\": %lld, \"volume_theory_bytes\": %lld",
            steps->volume_bytes, steps->volume_theory_bytes);
    if (steps->predicted) {
        fputs(", \"predicted_pair_seconds\": ", stream);
        print_json_number(stream, steps->predicted_pair_seconds);
        fputs(", \"predicted_sweep_seconds\": ", stream);
        print_json_number(stream, steps->predicted_sweep_seconds);
    }
}

void bench_report_json(FILE *stream, const bench_options *options,
                       const bench_results *results)
{
    fputc('{', stream);
    print_json_configuration(stream, options, results);
    fputs(", \"pair_seconds\": ", stream);
    print_json_number(stream, results->timing.pair_seconds);
    fputs(", \"pair_seconds_median\": ", stream);
    print_json_number(stream, results->timing.pair_seconds_median);
    fputs(", \"pair_seconds_each\": [", stream);
    for (int i = 0; i < results->timing.kept; ++i) {
        fputs(i ? ", " : "", stream);
        print_json_number(stream, results->timing.pair_seconds_each[i]);
    }
    fputs("], \"fft_seconds\": ", stream);
    print_json_number(stream, results->timing.fft_seconds);
    fputs(", \"redistribute_seconds\": ", stream);
    print_json_number(stream, results->timing.redistribute_seconds);
    fputs(", \"plan_seconds\": ", stream);
    print_json_number(stream, results->plan_seconds);
    fputs(", \"gflops\": ", stream);
    print_json_number(stream, nominal_gflops(options, results));
    fprintf(stream, ", \"work_bytes\": %llu",
            (unsigned long long)results->work_bytes);
    fputs(", \"roundtrip_error\": ", stream);
    print_json_number(stream, results->checked ? results->roundtrip_error : NAN);
    fputs(", \"serial_error\": ", stream);
    print_json_number(stream, results->checked && results->has_serial_error
                                  ? results->serial_error : NAN);
    fputs(", \"tolerance\": ", stream);
    print_json_number(stream, results->checked ? results->tolerance : NAN);
    fputs(", \"check_passed\": ", stream);
    fputs(results->checked ? (results->passed ? "true" : "false") : "null",
          stream);
    fputs(", \"save\": ", stream);
    print_json_string(stream, options->save_prefix);
    fputs(", \"mpi_library\": ", stream);
    print_json_string(stream, results->mpi_library);
    fputs(", \"plan\": ", stream);
    print_json_string(stream, results->plan_description);
    if (results->steps != NULL)
        print_json_steps(stream, results->steps);
    fputs("}\n", stream);
}

static void print_key(FILE *stream, const char *key)
{
    fprintf(stream, "%-22s: ", key);
}

static void print_seconds(FILE *stream, const char *key, double seconds)
{
    print_key(stream, key);
    fprintf(stream, "%.6e\n", seconds);
}

static void print_error(FILE *stream, const char *key, int known, double error)
{
    print_key(stream, key);
    if (known)
        fprintf(stream, "%.3e\n", error);
    else
        fputs("not computed\n", stream);
}

/* The text lines that say what ran: the header line to timing. */
static void print_text_configuration(FILE *stream, const bench_options *options,
                                     const bench_results *results)
{
    fprintf(stream, "distfft-bench %s%s%s\n", DISTFFT_VERSION,
            git_revision ? " " : "", git_revision ? git_revision : "");
    print_key(stream, "shape");
    print_shape(stream, options, "x");
    fputc('\n', stream);
    print_key(stream, "ranks");
    fprintf(stream, "%d\n", results->ranks);
    print_key(stream, "grid");
    print_grid(stream, results, "x");
    fputc('\n', stream);
    print_key(stream, "precision");
    fprintf(stream, "%s\n", distfft_precision_name(options->precision));
    print_key(stream, "kinds");
    print_kinds(stream, options, 0);
    fputc('\n', stream);
    print_key(stream, "batch");
    fprintf(stream, "%lld\n", (long long)options->batch);
    print_key(stream, "threads");
    fprintf(stream, "%d per rank\n", options->threads);
    print_key(stream, "types");
    fprintf(stream, "%s -> %s\n", distfft_type_name(results->input_type),
            distfft_type_name(results->output_type));
    print_key(stream, "method");
    fprintf(stream, "%s\n", distfft_method_name(results->method));
    print_key(stream, "placement");
    fprintf(stream, "%s (node size %d)\n", distfft_placement_name(options->placement),
            options->node_size);
    print_key(stream, "rigor");
    fprintf(stream, "%s\n", distfft_rigor_name(options->rigor));
    print_key(stream, "norm");
    fprintf(stream, "%s\n", distfft_norm_name(options->norm));
    print_key(stream, "timing");
    if (options->predict_only)
        fprintf(stream, "none (--predict-only: the model's figures alone)\n");
    else
        fprintf(stream, "fastest of %d repetitions of %d pairs, max over ranks\n",
                options->outer, options->inner);
}

void bench_report_text(FILE *stream, const bench_options *options,
                       const bench_results *results)
{
    print_text_configuration(stream, options, results);
    print_seconds(stream, "pair_seconds", results->timing.pair_seconds);
    print_seconds(stream, "pair_seconds_median",
                  results->timing.pair_seconds_median);
    print_seconds(stream, "plan_seconds", results->plan_seconds);
    print_seconds(stream, "fft_seconds", results->timing.fft_seconds);
    print_seconds(stream, "redistribute_seconds",
                  results->timing.redistribute_seconds);
    print_key(stream, "gflops");
    fprintf(stream, "%.3f (nominal, 5 N log2 N per transform)\n",
            nominal_gflops(options, results));
    print_key(stream, "work_bytes");
    fprintf(stream, "%llu (largest on any rank)\n",
            (unsigned long long)results->work_bytes);
    if (results->checked) {
        print_error(stream, "roundtrip_error", 1, results->roundtrip_error);
        print_error(stream, "serial_error", results->has_serial_error,
                    results->serial_error);
        print_key(stream, "tolerance");
        fprintf(stream, "%.3e\n", results->tolerance);
        print_key(stream, "check");
        fprintf(stream, "%s\n", results->passed ? "passed" : "FAILED");
    }
    if (options->save_prefix != NULL) {
        print_key(stream, "saved");
        fprintf(stream, "%s.input.npy %s.output.npy\n", options->save_prefix,
                options->save_prefix);
    }
    print_key(stream, "mpi_library");
    fprintf(stream, "%s\n", results->mpi_library);
    print_key(stream, "plan");
    fprintf(stream, "%s\n", results->plan_description);
    if (results->steps != NULL) {
        const bench_steps *steps = results->steps;
        fprintf(stream, "steps (per execution; seconds of the slowest rank, bytes over all ranks; "
                        "/copy: an exchange over one memcpy of a rank's share):\n");
        fprintf(stream, "  %-9s %-40s %12s %14s %14s %8s", "direction", "step", "seconds",
                "bytes sent", "theory", "/copy");
        if (steps->predicted)
            fprintf(stream, " %12s %9s", "predicted", "meas/pred");
        fputc('\n', stream);
        for (int i = 0; i < steps->count; ++i) {
            const bench_step *step = &steps->steps[i];
            int ran = !options->predict_only;
            fprintf(stream, "  %-9s %-40s ", step->forward ? "forward" : "backward", step->description);
            if (ran) fprintf(stream, "%12.4e", step->seconds);
            else fprintf(stream, "%12s", "-");
            fprintf(stream, " %14lld %14lld", step->bytes_total, step->bytes_theory);
            if (ran && step->copy_seconds > 0) fprintf(stream, " %8.2f", step->seconds / step->copy_seconds);
            else if (steps->predicted) fprintf(stream, " %8s", "");
            if (steps->predicted && step->predicted_seconds > 0 && ran)
                fprintf(stream, " %12.4e %9.2f", step->predicted_seconds,
                        step->seconds / step->predicted_seconds);
            else if (steps->predicted)
                fprintf(stream, " %12.4e %9s", step->predicted_seconds, "-");
            fputc('\n', stream);
        }
        if (steps->predicted) {
            print_key(stream, "predicted_pair_seconds");
            fprintf(stream, "%.6e (measured/predicted %.2f)\n", steps->predicted_pair_seconds,
                    steps->predicted_pair_seconds > 0
                        ? results->timing.pair_seconds / steps->predicted_pair_seconds : NAN);
            if (steps->predicted_sweep_seconds > 0) {
                print_key(stream, "predicted_sweep_seconds");
                fprintf(stream, "%.6e (the final normalising sweeps, in the pair)\n",
                        steps->predicted_sweep_seconds);
            }
        }
        print_key(stream, "volume_bytes");
        fprintf(stream, "%lld per pair (theory %lld)\n", steps->volume_bytes,
                steps->volume_theory_bytes);
    }
}

void bench_report_methods(FILE *stream, const bench_options *options,
                          const bench_results *results, int count)
{
    int fastest = -1;
    for (int i = 0; i < count; ++i)
        if (fastest < 0 || results[i].timing.pair_seconds < results[fastest].timing.pair_seconds)
            fastest = i;
    fprintf(stream, "methods on ");
    print_shape(stream, options, "x");
    fprintf(stream, " %s, %d ranks (pair: fastest of %d repetitions of %d, max over ranks)\n",
            options->kind, count ? results[0].ranks : 0, options->outer, options->inner);
    fprintf(stream, "  %-24s %-8s %12s %12s %12s %12s %12s %12s\n", "method", "grid", "pair_s",
            "median_s", "fft_s", "redist_s", "roundtrip", "serial");
    for (int i = 0; i < count; ++i) {
        const bench_results *r = &results[i];
        char grid[64] = "";
        for (int d = 0; d < r->grid_ndims; ++d)
            snprintf(grid + strlen(grid), sizeof grid - strlen(grid), d ? "x%d" : "%d",
                     r->grid_dims[d]);
        fprintf(stream, "%c %-24s %-8s %12.4e %12.4e %12.4e %12.4e", i == fastest ? '*' : ' ',
                distfft_method_name(r->method), grid, r->timing.pair_seconds,
                r->timing.pair_seconds_median, r->timing.fft_seconds,
                r->timing.redistribute_seconds);
        if (r->checked)
            fprintf(stream, " %12.3e %12.3e\n", r->roundtrip_error,
                    r->has_serial_error ? r->serial_error : NAN);
        else
            fprintf(stream, " %12s %12s\n", "-", "-");
    }
    for (int i = 0; i < count; ++i)
        if (results[i].method == DISTFFT_METHOD_AUTO)
            fprintf(stream, "auto chose: %s\n", results[i].plan_description);
}
