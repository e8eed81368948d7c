/*
 * fuzz_model.c -- libFuzzer harness of the cost-model text parser,
 * model_parse (src/model/model.c): the file distfft_model_import_file and
 * DISTFFT_MODEL read, often edited by hand (a bisection bandwidth is
 * written from the network's specification).
 *
 * The internal function, not distfft_model_import_file: that call is
 * collective (rank 0 reads the file, the text is broadcast) around this
 * parse, which is pure (no MPI, no FFTW), so it is fuzzed directly.
 *
 * Beyond "no crash": a refused text says why; an accepted model has its
 * documented ranges (node size >= 1, every bandwidth and rate > 0 or >= 0
 * as documented, rate tables of increasing sizes, NUL-terminated names)
 * and its text form (model_format, what calibration writes) is accepted
 * again and formats to the same text.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_check.h"
#include "model/model.h"

static void check_rate(const model_rate *rate, const char *what)
{
    FUZZ_CHECK(rate->count >= 0 && rate->count <= MODEL_MAX_RATES, "%s: %d rates", what, rate->count);
    for (int i = 0; i < rate->count; i++) {
        FUZZ_CHECK(isfinite(rate->elements[i]) && rate->elements[i] >= 1 && isfinite(rate->seconds_per_unit[i]) &&
                   rate->seconds_per_unit[i] > 0, "%s: pair %d", what, i);
        FUZZ_CHECK(i == 0 || rate->elements[i] > rate->elements[i - 1], "%s: sizes not increasing", what);
    }
}

static void check_model(cost_model *model)
{
    FUZZ_CHECK(memchr(model->machine, '\0', sizeof model->machine) && model->machine[0], "machine");
    FUZZ_CHECK(memchr(model->mpi_library, '\0', sizeof model->mpi_library) && model->mpi_library[0], "mpi_library");
    FUZZ_CHECK(model->node_size >= 1, "node_size %d", model->node_size);
    FUZZ_CHECK(model->bandwidth_intra > 0 && model->bandwidth_inter > 0 && model->memcpy_bandwidth > 0 &&
               model->fft_multi_axis_factor > 0 && model->fft_multi_axis_factor_r2c > 0,
               "a bandwidth or factor that must be > 0");
    FUZZ_CHECK(model->latency_intra >= 0 && model->latency_inter >= 0 && model->injection_bandwidth >= 0 &&
               model->bisection_bandwidth >= 0 && model->datatype_bandwidth >= 0, "a value that must be >= 0");
    int rates = 0;
    for (int family = 0; family < MODEL_FAMILIES; family++)
        for (int precision = 0; precision < 2; precision++) {
            check_rate(&model->fft[family][precision], "fft rate");
            rates += model->fft[family][precision].count > 0;
        }
    FUZZ_CHECK(rates > 0, "no FFT rate");
    for (int table = 0; table < MODEL_TABLES; table++) check_rate(model_table(model, table), "message table");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    static cost_model model, again, third;
    char message[256] = "";
    if (model_parse(text, &model, message, sizeof message) != 0) {
        FUZZ_CHECK(message[0] != '\0', "refused without a message");
        free(text);
        return 0;
    }
    check_model(&model);
    char *formatted = model_format(&model);
    FUZZ_CHECK(formatted != NULL, "model_format failed");
    FUZZ_CHECK(model_parse(formatted, &again, message, sizeof message) == 0, "own text refused: %s\n%s", message,
               formatted);
    check_model(&again);
    char *twice = model_format(&again);
    FUZZ_CHECK(twice && strcmp(formatted, twice) == 0, "format not stable:\n%s\n---\n%s", formatted,
               twice ? twice : "(null)");
    FUZZ_CHECK(model_parse(twice, &third, message, sizeof message) == 0, "second text refused");
    free(twice);
    free(formatted);
    free(text);
    return 0;
}
