/*
 * cg_poisson.c -- conjugate gradients on the periodic Poisson problem with
 * the halo exchange, checked against the exact discrete solution from
 * distfft's FFTs (paper 004 Sec. 3's use case: a CG solver whose stencil
 * needs ghost cells).
 *
 * Problem: -L u = f on an N0 x N1 x N2 periodic grid of [0,1)^3, L the
 * 7-point Laplacian with spacings h_j = 1/N_j, f of mean zero. -L is
 * symmetric positive semi-definite (the constants are its null space); CG
 * from u = 0 stays among mean-zero fields, where it is definite.
 *
 * CG: each iteration exchanges the ghost layers (width 1, every axis
 * periodic) of the search direction p, kept as a padded array, and applies
 * the stencil to the interior. The blocks are those of an r2c plan's input:
 * the halo is made on the plan's input layout.
 *
 * Check: the FFT diagonalises the periodic stencil, -L e_k = lambda_k e_k
 * with lambda_k = sum_j (2 - 2 cos(2 pi k_j / N_j)) / h_j^2, so the exact
 * discrete solution is u = ifft(fft(f) / lambda) (0 for k = 0). For the
 * final residual r, ||u_cg - u|| <= ||r|| / lambda_min: the program fails
 * unless the difference stays within that bound (plus rounding).
 *
 *   mpiexec -n 4 cg_poisson [--shape 24x20x18] [--grid 2] [--tol 1e-10]
 *                           [--variant datatypes|pack] [--quick]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distfft.h>

#define PI 3.14159265358979323846

typedef struct {
    int64_t shape[3];
    int grid_ndims;
    double tolerance;
    distfft_halo_variant variant;
} settings;

/* The local problem: block, padded block and spacings. */
typedef struct {
    int64_t global[3], n[3], start[3], padded[3], count;
    int64_t *index;          /* block point m -> its place in a padded array */
    double inverse_h2[3];    /* 1 / h_j^2 = N_j^2 */
    distfft_halo halo;
} domain;

static int parse(int argc, char **argv, settings *s)
{
    *s = (settings){{24, 20, 18}, 2, 1e-10, DISTFFT_HALO_DATATYPES};
    for (int i = 1; i < argc; i++) {
        const char *value = i + 1 < argc ? argv[i + 1] : "";
        if (strcmp(argv[i], "--quick") == 0) {
            s->shape[0] = 12, s->shape[1] = 10, s->shape[2] = 8;
            continue;
        }
        if (strcmp(argv[i], "--shape") == 0) {
            long long a, b, c;
            if (sscanf(value, "%lldx%lldx%lld", &a, &b, &c) != 3) return -1;
            s->shape[0] = a, s->shape[1] = b, s->shape[2] = c;
        } else if (strcmp(argv[i], "--grid") == 0) {
            s->grid_ndims = atoi(value);
        } else if (strcmp(argv[i], "--tol") == 0) {
            s->tolerance = atof(value);
        } else if (strcmp(argv[i], "--variant") == 0) {
            if (distfft_halo_variant_from_name(value, &s->variant) != DISTFFT_SUCCESS) return -1;
        } else {
            return -1;
        }
        i++;
    }
    return 0;
}

static double dot(const domain *d, const double *a, const double *b)
{
    double local = 0.0, sum;
    for (int64_t i = 0; i < d->count; i++) local += a[i] * b[i];
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return sum;
}


/* out = -L p: ghosts of p (padded) first, then the 7-point stencil. */
static int apply(const domain *d, double *p, double *out)
{
    int rc = distfft_halo_execute(d->halo, p);
    if (rc != DISTFFT_SUCCESS) return rc;
    int64_t s0 = d->padded[1] * d->padded[2], s1 = d->padded[2];
    for (int64_t m = 0; m < d->count; m++) {
        const double *c = p + d->index[m];
        out[m] = (2 * c[0] - c[s0] - c[-s0]) * d->inverse_h2[0] +
                 (2 * c[0] - c[s1] - c[-s1]) * d->inverse_h2[1] +
                 (2 * c[0] - c[1] - c[-1]) * d->inverse_h2[2];
    }
    return DISTFFT_SUCCESS;
}

/* Conjugate gradients from x = 0; returns the iterations, *residual the
 * final ||r||. p is the padded search direction, q = -L p. */
static int cg(const domain *d, const double *f, double *x, double *r, double *p,
              double *q, double tolerance, double *residual)
{
    memcpy(r, f, (size_t)d->count * sizeof *r);
    memset(x, 0, (size_t)d->count * sizeof *x);
    distfft_halo_pad(d->halo, r, p);
    double rr = dot(d, r, r), stop = tolerance * tolerance * rr;
    int iterations = 0;
    while (rr > stop && iterations < 10000) {
        if (apply(d, p, q) != DISTFFT_SUCCESS) return -1;
        double local = 0.0, pq;
        for (int64_t m = 0; m < d->count; m++) local += p[d->index[m]] * q[m];
        MPI_Allreduce(&local, &pq, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double alpha = rr / pq;
        for (int64_t m = 0; m < d->count; m++) {
            x[m] += alpha * p[d->index[m]];
            r[m] -= alpha * q[m];
        }
        double rr_new = dot(d, r, r), beta = rr_new / rr;
        rr = rr_new;
        for (int64_t m = 0; m < d->count; m++) p[d->index[m]] = r[m] + beta * p[d->index[m]];
        iterations++;
    }
    *residual = sqrt(rr);
    return iterations;
}

/* A mean-zero right-hand side: smooth modes plus a rough deterministic
 * part, minus its mean. */
static void right_hand_side(const domain *d, const settings *s, double *f)
{
    double local = 0.0, sum;
    int64_t m = 0;
    for (int64_t i = 0; i < d->n[0]; i++)
        for (int64_t j = 0; j < d->n[1]; j++)
            for (int64_t k = 0; k < d->n[2]; k++, m++) {
                int64_t g[3] = {d->start[0] + i, d->start[1] + j, d->start[2] + k};
                double x = (double)g[0] / s->shape[0], y = (double)g[1] / s->shape[1],
                       z = (double)g[2] / s->shape[2];
                uint64_t hash = (uint64_t)((g[0] * s->shape[1] + g[1]) * s->shape[2] + g[2]) *
                                0x9E3779B97F4A7C15ull;
                f[m] = sin(2 * PI * x) * cos(4 * PI * y) + 0.5 * cos(6 * PI * z) +
                       0.1 * ((double)(hash >> 11) / 9007199254740992.0 - 0.5);
                local += f[m];
            }
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double mean = sum / (double)(s->shape[0] * s->shape[1] * s->shape[2]);
    for (m = 0; m < d->count; m++) f[m] -= mean;
}

/* The exact discrete solution: u = ifft(fft(f) / lambda_k), 0 at k = 0. */
static int fft_solution(distfft_plan plan, const domain *d, const double *f, double *u)
{
    int64_t n[3], start[3];
    distfft_plan_output_block(plan, n, start);
    int64_t count = n[0] * n[1] * n[2];
    double _Complex *f_hat = distfft_malloc((size_t)(count ? count : 1) * sizeof *f_hat);
    double *in = distfft_malloc((size_t)(d->count ? d->count : 1) * sizeof *in);
    memcpy(in, f, (size_t)d->count * sizeof *in);
    int rc = distfft_plan_execute(plan, in, f_hat, DISTFFT_FORWARD);
    int64_t m = 0;
    for (int64_t i = 0; i < n[0]; i++)
        for (int64_t j = 0; j < n[1]; j++)
            for (int64_t k = 0; k < n[2]; k++, m++) {
                int64_t g[3] = {start[0] + i, start[1] + j, start[2] + k};
                double lambda = 0.0; /* the r2c axis holds k_2 = 0..N_2/2 */
                for (int a = 0; a < 3; a++)
                    lambda += (2 - 2 * cos(2 * PI * (double)g[a] / (double)d->global[a])) *
                              d->inverse_h2[a];
                f_hat[m] = lambda > 0 ? f_hat[m] / lambda : 0;
            }
    if (rc == DISTFFT_SUCCESS) rc = distfft_plan_execute(plan, f_hat, u, DISTFFT_BACKWARD);
    distfft_free(f_hat);
    distfft_free(in);
    return rc;
}

/* This rank's block of the plan's input, its halo and index map. */
static int setup(distfft_plan plan, const settings *s, domain *d)
{
    const int64_t ones[3] = {1, 1, 1};
    const int periodic[3] = {1, 1, 1};
    distfft_plan_input_block(plan, d->n, d->start);
    for (int a = 0; a < 3; a++) {
        d->global[a] = s->shape[a];
        d->inverse_h2[a] = (double)(s->shape[a] * s->shape[a]);
    }
    distfft_layout input = NULL;
    int rc = distfft_plan_input_layout(plan, &input);
    if (rc == DISTFFT_SUCCESS)
        rc = distfft_layout_halo_create(input, DISTFFT_REAL_DOUBLE, ones, ones, periodic, 1,
                                        s->variant, &d->halo);
    int freed = distfft_layout_destroy(&input); /* the halo keeps what it needs */
    if (rc == DISTFFT_SUCCESS) rc = freed;
    if (rc != DISTFFT_SUCCESS) return rc;
    distfft_halo_padded_block(d->halo, d->padded, NULL);
    d->count = d->n[0] * d->n[1] * d->n[2];
    d->index = malloc((size_t)(d->count + 1) * sizeof *d->index);
    int64_t m = 0;
    for (int64_t i = 0; i < d->n[0]; i++)
        for (int64_t j = 0; j < d->n[1]; j++)
            for (int64_t k = 0; k < d->n[2]; k++)
                d->index[m++] = ((i + 1) * d->padded[1] + (j + 1)) * d->padded[2] + (k + 1);
    return DISTFFT_SUCCESS;
}

/* ||f - (-L) x||, the true residual, and the norms of x - u and u. */
static void measure(const domain *d, const double *f, const double *x, const double *u,
                    double *p, double *q, double norms[3])
{
    distfft_halo_pad(d->halo, x, p);
    apply(d, p, q);
    double local[3] = {0, 0, 0};
    for (int64_t m = 0; m < d->count; m++) {
        local[0] += (f[m] - q[m]) * (f[m] - q[m]);
        local[1] += (x[m] - u[m]) * (x[m] - u[m]);
        local[2] += u[m] * u[m];
    }
    MPI_Allreduce(local, norms, 3, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int k = 0; k < 3; k++) norms[k] = sqrt(norms[k]);
}

static double smallest_eigenvalue(const domain *d)
{
    double lambda = INFINITY;
    for (int a = 0; a < 3; a++)
        if (d->global[a] > 1)
            lambda = fmin(lambda, (2 - 2 * cos(2 * PI / (double)d->global[a])) * d->inverse_h2[a]);
    return lambda;
}

static int solve_and_check(distfft_plan plan, const settings *s, domain *d, int rank)
{
    size_t bytes = (size_t)(d->count + 1) * sizeof(double);
    int64_t padded = distfft_halo_padded_block(d->halo, NULL, NULL);
    double *f = distfft_malloc(bytes), *x = distfft_malloc(bytes), *r = distfft_malloc(bytes);
    double *q = distfft_malloc(bytes), *u = distfft_malloc(bytes);
    double *p = distfft_malloc((size_t)(padded + 1) * sizeof *p);
    right_hand_side(d, s, f);
    double residual, norms[3];
    int iterations = cg(d, f, x, r, p, q, s->tolerance, &residual);
    int rc = fft_solution(plan, d, f, u);
    measure(d, f, x, u, p, q, norms);
    double bound = norms[0] / smallest_eigenvalue(d) * 1.01 + 1e-12 * norms[2];
    int ok = iterations >= 0 && rc == DISTFFT_SUCCESS && norms[1] <= bound;
    int size, grid_ndims, dims[DISTFFT_MAX_DIMS];
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    distfft_plan_grid(plan, &grid_ndims, dims);
    if (rank == 0)
        printf("cg_poisson: %lldx%lldx%lld on %d ranks (grid of %d dims), %s halo: %d iterations, ||f - Ax|| = %.3e, "
               "||x - u_fft|| = %.3e <= %.3e (||u|| = %.3e): %s\n", (long long)s->shape[0],
               (long long)s->shape[1], (long long)s->shape[2],
               size, grid_ndims, distfft_halo_variant_name(s->variant), iterations, norms[0], norms[1], bound,
               norms[2], ok ? "ok" : "FAILED");
    distfft_free(f), distfft_free(x), distfft_free(r), distfft_free(q), distfft_free(u);
    distfft_free(p);
    return ok;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, ok = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    settings s;
    if (parse(argc, argv, &s) != 0) {
        if (rank == 0)
            fprintf(stderr, "usage: cg_poisson [--shape AxBxC] [--grid r] [--tol t] "
                    "[--variant datatypes|pack] [--quick]\n");
        MPI_Finalize();
        return 2;
    }
    distfft_options options;
    distfft_options_init(&options);
    options.kinds[2] = DISTFFT_R2C;  /* real data: the r2c plan's blocks */
    options.grid_ndims = s.grid_ndims;
    options.rigor = DISTFFT_ESTIMATE;
    distfft_plan plan = NULL;
    domain d = {0};
    int rc = distfft_plan_create(MPI_COMM_WORLD, 3, s.shape, DISTFFT_DOUBLE, &options, &plan);
    if (rc == DISTFFT_SUCCESS) rc = setup(plan, &s, &d);
    if (rc == DISTFFT_SUCCESS) ok = solve_and_check(plan, &s, &d, rank);
    else if (rank == 0) fprintf(stderr, "cg_poisson: %s\n", distfft_last_error());
    free(d.index);
    distfft_halo_destroy(&d.halo);
    distfft_plan_destroy(&plan);
    MPI_Finalize();
    return ok ? 0 : 1;
}
