/*
 * test_wisdom.c -- wisdom: a tuned plan's choices exported, imported (as
 * text and through a file) and taken by the next plan of the same
 * configuration without measuring; wisdom of another configuration or MPI
 * library falls back to tuning; corrupted texts and files are refused on
 * every rank and leave the wisdom unchanged; ranks holding different
 * wisdom fall back to tuning together (no hang); a batch's overlap choice
 * is recorded and taken.
 *
 *   mpiexec -n 4 test_wisdom
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_support.h"

static const int64_t shape[3] = {12, 10, 9};

static distfft_plan make_plan(MPI_Comm comm)
{
    distfft_plan plan = NULL;
    if (distfft_plan_create(comm, 3, shape, DISTFFT_DOUBLE, NULL, &plan) != DISTFFT_SUCCESS)
        fprintf(stderr, "test_wisdom: %s\n", distfft_last_error());
    return plan;
}

/* A batch of 3 fields of 16x12x8, overlap AUTO: on any grid every block's
 * rows are 8 complex doubles (128 bytes), so it can run field by field. */
static distfft_plan make_batch(MPI_Comm comm)
{
    static const int64_t batch_shape[3] = {16, 12, 8};
    distfft_options options;
    distfft_options_init(&options);
    options.batch = 3;
    distfft_plan plan = NULL;
    if (distfft_plan_create(comm, 3, batch_shape, DISTFFT_DOUBLE, &options, &plan) != DISTFFT_SUCCESS)
        fprintf(stderr, "test_wisdom: %s\n", distfft_last_error());
    return plan;
}

/* The wisdom line of the batch plan, its choice's overlap word replaced by
 * " overlap=<overlap>" (a fresh string), or NULL. */
static char *with_overlap(const char *wisdom, const char *overlap)
{
    const char *line = wisdom ? strstr(wisdom, "shape=16x12x8") : NULL;
    if (!line) return NULL;
    while (line > wisdom && line[-1] != '\n') line--;
    size_t length = strcspn(line, "\n");
    char *text = malloc(length + 64);
    snprintf(text, length + 64, "distfft-wisdom 1\n%.*s", (int)length, line);
    char *word = strstr(text, " overlap=");
    if (word) *word = '\0';
    strcat(text, " overlap=");
    strcat(text, overlap);
    strcat(text, "\n");
    return text;
}

/* The plan's description without the trailing "(tuning ...)"/"(wisdom)". */
static void choices(distfft_plan plan, char *text, size_t size)
{
    text[0] = '\0';
    if (!plan) return;
    distfft_plan_describe(plan, text, size);
    char *tail = strstr(text, " (tuning ");
    if (!tail) tail = strstr(text, " (wisdom)");
    if (tail) *tail = '\0';
}

static int described_as(distfft_plan plan, const char *what)
{
    char text[2048] = "";
    if (plan) distfft_plan_describe(plan, text, sizeof text);
    return strstr(text, what) != NULL;
}

/* Forward outputs of two plans with the same blocks are bit-identical. */
static int same_output(distfft_plan a, distfft_plan b)
{
    int64_t in_shape[3], in_start[3], out_shape[3];
    distfft_plan_input_block(a, in_shape, in_start);
    distfft_plan_output_block(a, out_shape, NULL);
    int64_t in_count = test_product(3, in_shape), out_count = test_product(3, out_shape);
    void *in = distfft_malloc(16 * (in_count + 1));
    void *x = distfft_malloc(16 * (out_count + 1)), *y = distfft_malloc(16 * (out_count + 1));
    test_fill(DISTFFT_COMPLEX_DOUBLE, 3, shape, in_shape, in_start, 1, 0, in);
    int ok = distfft_plan_execute(a, in, x, DISTFFT_FORWARD) == DISTFFT_SUCCESS &&
             distfft_plan_execute(b, in, y, DISTFFT_FORWARD) == DISTFFT_SUCCESS &&
             memcmp(x, y, 16 * out_count) == 0;
    distfft_free(in);
    distfft_free(x);
    distfft_free(y);
    return ok;
}

/* The same code on every rank, and a message naming `word`. */
static int refused_everywhere(MPI_Comm comm, int rc, const char *word)
{
    int low = rc, high = rc;
    MPI_Allreduce(MPI_IN_PLACE, &low, 1, MPI_INT, MPI_MIN, comm);
    MPI_Allreduce(MPI_IN_PLACE, &high, 1, MPI_INT, MPI_MAX, comm);
    return rc == DISTFFT_ERR_ARGUMENT && low == high && strstr(distfft_last_error(), word) != NULL;
}

/* A path every rank agrees on (rank 0's process id in it). */
static void shared_path(MPI_Comm comm, const char *what, char *path, size_t size)
{
    long id = (long)getpid();
    MPI_Bcast(&id, 1, MPI_LONG, 0, comm);
    snprintf(path, size, "test_wisdom.%ld.%s", id, what);
}

int main(int argc, char **argv)
{
    int provided; /* MULTIPLE: a wisdom line naming overlap progress can be taken */
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    test_suite suite;
    test_suite_init(&suite, "test_wisdom", MPI_COMM_WORLD);
    MPI_Comm comm = suite.comm;
    int rank = suite.rank, size = suite.size;
    char tuned_choices[2048], text[2048];

    /* A tuned plan records its choices. */
    distfft_wisdom_forget();
    distfft_plan tuned = make_plan(comm);
    choices(tuned, tuned_choices, sizeof tuned_choices);
    test_case(&suite, tuned && described_as(tuned, "(tuning "), "the default plan tunes");
    if (size >= 4 && size % 2 == 0) /* a prime count has one grid only */
        test_case(&suite, described_as(tuned, " grids)"), "with 4+ ranks (not prime) it measures grids");
    char *wisdom = distfft_wisdom_export();
    char ranks_field[32];
    snprintf(ranks_field, sizeof ranks_field, " ranks=%d ", size);
    test_case(&suite, wisdom && strncmp(wisdom, "distfft-wisdom 1\n", 17) == 0 &&
                      strstr(wisdom, ranks_field) && strstr(wisdom, "shape=12x10x9") &&
                      strstr(wisdom, " -> grid="),
              "export: header and a line keyed by ranks and shape");

    /* Imported wisdom replaces measuring, with the same choices. */
    distfft_wisdom_forget();
    int rc = wisdom ? distfft_wisdom_import(wisdom) : DISTFFT_ERR_MEMORY;
    distfft_plan wise = make_plan(comm);
    choices(wise, text, sizeof text);
    test_case(&suite, rc == DISTFFT_SUCCESS && wise && described_as(wise, "(wisdom)") &&
                      strcmp(text, tuned_choices) == 0,
              "import: the next plan takes the recorded choices without tuning");
    test_case(&suite, tuned && wise && same_output(tuned, wise), "wisdom plan computes the same output");
    distfft_plan_destroy(&wise);

    /* Through a file. */
    char path[256];
    shared_path(comm, "txt", path, sizeof path);
    rc = distfft_wisdom_export_file(comm, path);
    distfft_wisdom_forget();
    if (rc == DISTFFT_SUCCESS) rc = distfft_wisdom_import_file(comm, path);
    wise = make_plan(comm);
    test_case(&suite, rc == DISTFFT_SUCCESS && described_as(wise, "(wisdom)"), "file round trip");
    distfft_plan_destroy(&wise);

    /* Keys with the fields only some plans have (threads, padded lengths,
     * a device's memory, complex data) import: the parser once refused them, so such a plan's
     * own export did not import (found while seeding the fuzzer). */
    static const char suffixed[] =
        "distfft-wisdom 1\n"
        "mpi=\"x\" ranks=2 shape=4x4 kinds=c2c,c2c precision=double batch=1 grid=auto placement=row "
        "node-size=0 threads=2 -> grid=2 methods=alltoallw,alltoallw\n"
        "mpi=\"x\" ranks=2 shape=4x4 kinds=c2c,c2c precision=double batch=1 grid=auto placement=row "
        "node-size=0 padded=6x6 -> grid=2 methods=alltoallv,alltoallv\n"
        "mpi=\"x\" ranks=2 shape=4x4 kinds=dct2,dct2 precision=double batch=1 grid=auto placement=row "
        "node-size=0 complex-data -> grid=2 methods=sendrecv,sendrecv\n"
        "mpi=\"x\" ranks=2 shape=4x4 kinds=c2c,c2c precision=float batch=1 grid=auto placement=row "
        "node-size=0 threads=4 padded=6x4 complex-data -> grid=2 methods=vector,vector\n"
        "mpi=\"x\" ranks=2 shape=4x4 kinds=c2c,c2c precision=double batch=1 grid=auto placement=row "
        "node-size=0 memory=cuda -> grid=2 methods=staged,staged\n";
    distfft_wisdom_forget();
    rc = distfft_wisdom_import(suffixed);
    char *suffixed_back = distfft_wisdom_export();
    test_case(&suite, rc == DISTFFT_SUCCESS && suffixed_back && strcmp(suffixed_back, suffixed) == 0,
              "keys with threads=, padded=, memory= and complex-data import, and export unchanged");
    free(suffixed_back);
    /* The longest choice the parser accepts (16 grid extents, 64 methods)
     * exports whole: export once cut choices past 1023 characters, and its
     * own import refused the line (found by tests/fuzz/fuzz_wisdom.c). */
    char longest[4096 + 512];
    snprintf(longest, sizeof longest, "distfft-wisdom 1\nmpi=\"x\" ranks=2 shape=4x4 kinds=c2c,c2c "
             "precision=double batch=1 grid=auto placement=row node-size=0 -> grid=");
    for (int i = 0; i < DISTFFT_MAX_DIMS; i++) strcat(longest, i ? "x1073741824" : "1073741824");
    strcat(longest, " methods=");
    for (int i = 0; i < 4 * DISTFFT_MAX_DIMS; i++) strcat(longest, i ? ",isend-waitsome-blocked" : "isend-waitsome-blocked");
    strcat(longest, " overlap=fields\n");
    distfft_wisdom_forget();
    rc = distfft_wisdom_import(longest);
    char *longest_back = distfft_wisdom_export();
    test_case(&suite, rc == DISTFFT_SUCCESS && longest_back && strcmp(longest_back, longest) == 0,
              "the longest choice exports whole");
    free(longest_back);
    /* ... and a padded plan's own wisdom is taken by the next one. */
    distfft_options padded_options;
    distfft_options_init(&padded_options);
    for (int i = 0; i < 3; i++) padded_options.padding[i] = 1.5;
    distfft_wisdom_forget();
    distfft_plan padded = NULL;
    distfft_plan_create(comm, 3, shape, DISTFFT_DOUBLE, &padded_options, &padded);
    char *padded_wisdom = distfft_wisdom_export();
    distfft_plan_destroy(&padded);
    distfft_wisdom_forget();
    rc = padded_wisdom ? distfft_wisdom_import(padded_wisdom) : DISTFFT_ERR_MEMORY;
    distfft_plan_create(comm, 3, shape, DISTFFT_DOUBLE, &padded_options, &padded);
    test_case(&suite, rc == DISTFFT_SUCCESS && padded_wisdom && strstr(padded_wisdom, " padded=") &&
                      described_as(padded, "(wisdom)"),
              "a padded plan's exported wisdom imports and is taken");
    distfft_plan_destroy(&padded);
    free(padded_wisdom);

    /* A batch: the overlap tuning chose is exported (no word for off) and
     * taken; a line naming another is followed. */
    distfft_wisdom_forget();
    distfft_plan batch = make_batch(comm);
    char *batch_wisdom = distfft_wisdom_export();
    char batch_text[2048] = "";
    if (batch) distfft_plan_describe(batch, batch_text, sizeof batch_text);
    const char *chosen = strstr(batch_text, "overlap=");
    const char *recorded = batch_wisdom ? strstr(batch_wisdom, " overlap=") : NULL;
    test_case(&suite, batch && batch_wisdom &&
                      (chosen ? recorded && strncmp(recorded + 1, chosen, strcspn(chosen, " ")) == 0
                              : recorded == NULL),
              "batch: the overlap chosen (%.*s) is the overlap exported", chosen ? (int)strcspn(chosen, " ") : 3,
              chosen ? chosen : "off");
    distfft_plan_destroy(&batch);
    static const char *const overlaps[] = {"fields", "on", "off", "progress"};
    for (int o = 0; o < 4; o++) {
        char *text = with_overlap(batch_wisdom, overlaps[o]);
        distfft_wisdom_forget();
        rc = text ? distfft_wisdom_import(text) : DISTFFT_ERR_MEMORY;
        batch = make_batch(comm);
        char named[32];
        snprintf(named, sizeof named, "overlap=%s", overlaps[o]);
        int off = strcmp(overlaps[o], "off") == 0;
        if (strcmp(overlaps[o], "progress") == 0 && provided < MPI_THREAD_MULTIPLE) {
            /* its helper thread needs MULTIPLE: the line is not used, the plan is tuned */
            test_case(&suite, rc == DISTFFT_SUCCESS && described_as(batch, "(tuning ") &&
                              !described_as(batch, named),
                      "batch: wisdom naming %s is not taken without MPI_THREAD_MULTIPLE", named);
        } else {
            test_case(&suite, rc == DISTFFT_SUCCESS && described_as(batch, "(wisdom)") &&
                              (off ? !described_as(batch, "overlap=") : described_as(batch, named)),
                      "batch: wisdom naming %s is taken", named);
        }
        if (strcmp(overlaps[o], "progress") == 0 && batch) { /* and exported as it was read */
            char *again = distfft_wisdom_export();
            test_case(&suite, again && (provided < MPI_THREAD_MULTIPLE || strstr(again, " overlap=progress")),
                      "batch: wisdom naming %s is exported again", named);
            free(again);
        }
        distfft_plan_destroy(&batch);
        free(text);
    }
    free(batch_wisdom);

    /* Another configuration or MPI library: kept, never applied. */
    if (wisdom) {
        char *other = malloc(strlen(wisdom) + 64);
        char *key = strstr(wisdom, "mpi=\"");
        snprintf(other, strlen(wisdom) + 64, "distfft-wisdom 1\nmpi=\"Another MPI 9.9\"%s",
                 key ? strchr(key + 5, '"') + 1 : "");
        distfft_wisdom_forget();
        rc = distfft_wisdom_import(other);
        distfft_plan plan = make_plan(comm);
        test_case(&suite, rc == DISTFFT_SUCCESS && described_as(plan, "(tuning "),
                  "wisdom of another MPI library falls back to tuning");
        distfft_plan_destroy(&plan);
        free(other);
    }

    /* Corrupted texts are refused whole; the wisdom stays as it was. */
    distfft_wisdom_forget();
    distfft_wisdom_import(wisdom);
    char *before = distfft_wisdom_export();
    static const char *const corrupted[] = {
        "not wisdom at all\n",
        "",
        "distfft-wisdom 1\ngarbage\n",
        "distfft-wisdom 1\nmpi=\"x\" ranks=2 shape=4x4 kinds=c2c,c2c precision=double batch=1 grid=auto "
        "placement=row node-size=0 -> grid=2 methods=no-such-method\n",
        "distfft-wisdom 1\nmpi=\"x\" ranks=2 shape=4x4 kinds=c2c,c2c precision=double batch=1 grid=auto "
        "placement=row node-size=0 -> grid=0 methods=alltoallw\n",
        "distfft-wisdom 1\nmpi=\"x\" ranks=2 -> grid=2 methods=alltoallw\n",
        "distfft-wisdom 1\nmpi=\"x\" ranks=2 shape=4x4 kinds=c2c,c2c precision=double batch=2 grid=auto "
        "placement=row node-size=0 -> grid=2 methods=alltoallw,alltoallw overlap=auto\n",
        "distfft-wisdom 1\nmpi=\"x\" ranks=2 shape=4x4 kinds=c2c,c2c precision=double batch=2 grid=auto "
        "placement=row node-size=0 -> grid=2 methods=alltoallw,alltoallw overlap=sideways\n",
        "distfft-wisdom 1\nmpi=\"x\" ranks=2 shape=4x4 kinds=c2c,c2c precision=double batch=2 grid=auto "
        "placement=row node-size=0 -> grid=2 methods=alltoallw, overlap=on\n",
    };
    for (size_t c = 0; c < sizeof corrupted / sizeof corrupted[0]; c++) {
        rc = distfft_wisdom_import(corrupted[c]);
        int refused = refused_everywhere(comm, rc, "line");
        char *after = distfft_wisdom_export();
        test_case(&suite, refused && after && before &&
                          strcmp(after, before) == 0,
                  "corrupted wisdom text %zu refused, wisdom unchanged", c);
        free(after);
    }
    rc = distfft_wisdom_import(NULL);
    test_case(&suite, rc == DISTFFT_ERR_ARGUMENT, "import of NULL refused");

    /* Corrupted and missing files: the same error on every rank. */
    char bad_path[256];
    shared_path(comm, "bad", bad_path, sizeof bad_path);
    if (rank == 0) {
        FILE *file = fopen(bad_path, "w");
        if (file) {
            fputs("distfft-wisdom 1\nthis line is corrupted\n", file);
            fclose(file);
        }
    }
    MPI_Barrier(comm);
    rc = distfft_wisdom_import_file(comm, bad_path);
    test_case(&suite, refused_everywhere(comm, rc, "line 2"), "corrupted wisdom file refused on every rank");
    rc = distfft_wisdom_import_file(comm, "/nonexistent/wisdom.txt");
    test_case(&suite, refused_everywhere(comm, rc, "cannot open"), "missing wisdom file refused on every rank");
    rc = distfft_wisdom_export_file(comm, "/nonexistent/dir/wisdom.txt");
    test_case(&suite, refused_everywhere(comm, rc, "cannot write"), "unwritable wisdom file refused on every rank");
    if (rank == 0) {
        remove(path);
        remove(bad_path);
    }

    /* Ranks that hold different wisdom tune together. */
    distfft_wisdom_forget();
    if (rank == 0 && wisdom) distfft_wisdom_import(wisdom);
    distfft_plan plan = make_plan(comm);
    int tuned_again = described_as(plan, size == 1 ? "(wisdom)" : "(tuning ");
    test_case(&suite, plan && tuned_again, "wisdom on some ranks only: every rank tunes (no hang)");
    distfft_plan_destroy(&plan);

    free(before);
    free(wisdom);
    distfft_plan_destroy(&tuned);
    distfft_wisdom_forget();
    int status = test_suite_finish(&suite);
    MPI_Finalize();
    return status;
}
