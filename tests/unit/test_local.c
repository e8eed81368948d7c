/*
 * test_local.c -- unit test of distfft's local calls, no MPI: element sizes,
 * error strings, method names, option defaults, aligned allocation.
 */
#include <complex.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "distfft.h"

static int passed, failed;

static void check(int ok, const char *what)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("test_local: FAIL %s\n", what);
    }
}

int main(void)
{
    /* Element sizes. */
    check(distfft_type_size(DISTFFT_COMPLEX_DOUBLE) == sizeof(double complex),
          "size of COMPLEX_DOUBLE");
    check(distfft_type_size(DISTFFT_COMPLEX_FLOAT) == sizeof(float complex),
          "size of COMPLEX_FLOAT");
    check(distfft_type_size(DISTFFT_REAL_DOUBLE) == sizeof(double),
          "size of REAL_DOUBLE");
    check(distfft_type_size(DISTFFT_REAL_FLOAT) == sizeof(float),
          "size of REAL_FLOAT");
    check(distfft_type_size((distfft_type)42) == 0, "size of unknown type");
    check(distfft_type_size((distfft_type)-1) == 0, "size of type -1");

    /* Every error code has a distinct, non-empty description; unknown codes
     * still get a string. */
    for (int code = DISTFFT_SUCCESS; code <= DISTFFT_ERR_MPI; code++) {
        const char *text = distfft_error_string(code);
        char what[64];
        snprintf(what, sizeof what, "error string of code %d", code);
        check(text != NULL && text[0] != '\0', what);
        for (int other = DISTFFT_SUCCESS; other < code; other++) {
            const char *other_text = distfft_error_string(other);
            snprintf(what, sizeof what, "error strings of %d and %d differ",
                     other, code);
            check(text && other_text && strcmp(text, other_text) != 0, what);
        }
    }
    check(distfft_error_string(12345) != NULL, "error string of unknown code");
    check(distfft_error_string(-1) != NULL, "error string of code -1");

    /* Method names round-trip. */
    const char *name = distfft_method_name(DISTFFT_METHOD_ALLTOALLW);
    check(name != NULL && strcmp(name, "alltoallw") == 0,
          "method name of ALLTOALLW is \"alltoallw\"");
    check(distfft_method_name((distfft_method)999) == NULL,
          "method name of unknown method is NULL");
    distfft_method method = (distfft_method)77;
    check(distfft_method_from_name("alltoallw", &method) == DISTFFT_SUCCESS &&
              method == DISTFFT_METHOD_ALLTOALLW,
          "method from name \"alltoallw\"");
    check(distfft_method_from_name("no-such-method", &method) ==
              DISTFFT_ERR_ARGUMENT,
          "unknown method name is DISTFFT_ERR_ARGUMENT");
    check(distfft_last_error()[0] != '\0',
          "unknown method name leaves a message");
    check(distfft_method_from_name(NULL, &method) == DISTFFT_ERR_ARGUMENT,
          "NULL method name is DISTFFT_ERR_ARGUMENT");
    check(distfft_method_from_name("alltoallw", NULL) == DISTFFT_ERR_ARGUMENT,
          "NULL method out-pointer is DISTFFT_ERR_ARGUMENT");

    /* Documented defaults. */
    distfft_options options;
    memset(&options, 0x5a, sizeof options);
    distfft_options_init(&options);
    check(options.grid_ndims == 0, "default grid_ndims is 0 (automatic)");
    int all_zero = 1;
    for (int i = 0; i < DISTFFT_MAX_DIMS; i++)
        all_zero &= options.grid_dims[i] == 0;
    check(all_zero, "default grid_dims are 0");
    check(options.method == DISTFFT_METHOD_AUTO, "default method is auto");
    check(options.placement == DISTFFT_PLACEMENT_ROW && options.node_size == 0, "default placement");
    check(options.norm == DISTFFT_NORM_BACKWARD, "default normalisation");
    check(options.rigor == DISTFFT_MEASURE, "default rigor is MEASURE");
    check(options.destroy_input == 0, "default preserves input");

    /* Aligned allocation: at least 16 bytes (SIMD), usable, freeable. */
    for (size_t bytes = 1; bytes <= (1u << 20); bytes *= 7) {
        unsigned char *p = distfft_malloc(bytes);
        check(p != NULL && (uintptr_t)p % 16 == 0,
              "distfft_malloc returns 16-byte aligned memory");
        if (p) {
            memset(p, 0xab, bytes);
            distfft_free(p);
        }
    }
    distfft_free(NULL);
    check(1, "distfft_free(NULL) is harmless");

    /* Decomposition is local: n = 0 gives empty parts. */
    int64_t local_n = -1, start = -1;
    distfft_decompose(0, 4, 3, &local_n, &start);
    check(local_n == 0 && start == 0, "decompose(0, 4, 3) is empty at 0");

    printf("test_local: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
