/*
 * test_bench_simulation.c -- distfft-bench refuses --check and --save when
 * SMPI folds memory or samples the computation (bench_options_check_simulation,
 * benchmarks/distfft-bench/options.h): folded or sampled results are garbage,
 * and a folded 256-rank --check had reported "check FAILED" (serial error
 * 1.0) instead of a refusal. The switches are read by the library's rule
 * (src/platform_smpi.c: atoi, a number above 0 is on), so "0" and "yes" leave
 * them off. Pure: the values are passed in, no MPI at run time.
 */
#include <stdio.h>
#include <string.h>

#include "options.h"

static int failures;

/* distfft-bench `line` (words separated by one space) with DISTFFT_SMPI_FOLD
 * `fold` and DISTFFT_SMPI_SAMPLE `sample`: refused (and its message naming
 * every word of `words`, separated by '|') or not, as `refused` says. */
static void expect(const char *line, const char *fold, const char *sample, int refused, const char *words)
{
    char copy[256], *argv[32] = {"distfft-bench"}, message[512] = "";
    int argc = 1;
    snprintf(copy, sizeof copy, "%s", line);
    for (char *word = strtok(copy, " "); word && argc < 31; word = strtok(NULL, " ")) argv[argc++] = word;
    bench_options options;
    if (bench_options_parse(argc, argv, &options, message, sizeof message) != BENCH_OPTIONS_OK) {
        printf("FAIL: '%s' does not parse: %s\n", line, message);
        failures++;
        return;
    }
    int status = bench_options_check_simulation(&options, fold, sample, message, sizeof message);
    int ok = refused ? status == BENCH_OPTIONS_BAD : status == BENCH_OPTIONS_OK;
    char wanted[256];
    snprintf(wanted, sizeof wanted, "%s", words ? words : "");
    for (char *word = strtok(wanted, "|"); ok && refused && word; word = strtok(NULL, "|"))
        ok = strstr(message, word) != NULL;
    if (!ok) {
        printf("FAIL: '%s' with DISTFFT_SMPI_FOLD=%s DISTFFT_SMPI_SAMPLE=%s: %s (\"%s\")\n", line,
               fold ? fold : "(unset)", sample ? sample : "(unset)", refused ? "not refused as expected"
               : "refused", message);
        failures++;
    }
}

int main(void)
{
    expect("--check", "1", NULL, 1, "--check|DISTFFT_SMPI_FOLD=1|garbage|without folding");
    expect("--shape 96x80x72 --grid pencil --check", " 2", "0", 1, "--check|DISTFFT_SMPI_FOLD= 2");
    expect("--check", NULL, "3", 1, "--check|DISTFFT_SMPI_SAMPLE=3|without sampling");
    expect("--save out", NULL, "1", 1, "--save|DISTFFT_SMPI_SAMPLE=1");
    expect("--save=out --check", "1", "3", 1, "--check|DISTFFT_SMPI_FOLD=1");
    /* off by the library's rule, or not asked for: nothing to refuse */
    expect("--check", NULL, NULL, 0, NULL);
    expect("--check --save out", "0", "0", 0, NULL);
    expect("--check", "yes", "", 0, NULL);
    expect("--shape 64x64x64 --method alltoallw", "1", "3", 0, NULL);
    expect("--calibrate model.txt", "1", "3", 0, NULL);
    if (failures == 0) printf("test_bench_simulation: all passed\n");
    return failures ? 1 : 0;
}
