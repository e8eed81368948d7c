/* slab alltoallw exchange on 2 ranks: warm vs flushed, best vs median */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int cmp(const void *a, const void *b) { double x = *(double*)a, y = *(double*)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int n = atoi(argv[1]), split = atoi(argv[2]); /* split axis of the send side: 1 or 2 */
    int runs = 15, h = n / 2;
    size_t bytes = (size_t)h * n * n * 16;
    char *from = malloc(bytes), *to = malloc(bytes);
    size_t fbytes = (size_t)512 << 20; char *flush = malloc(fbytes);
    memset(from, 1, bytes); memset(to, 0, bytes); memset(flush, 2, fbytes);
    MPI_Datatype c; MPI_Type_contiguous(16, MPI_BYTE, &c); MPI_Type_commit(&c);
    MPI_Datatype s[2], r[2];
    for (int p = 0; p < 2; p++) {
        int in_shape[3] = {h, n, n}, in_sub[3] = {h, n, n}, in_start[3] = {0, 0, 0};
        in_sub[split] = h; in_start[split] = p * h;
        int out_shape[3] = {n, n, n}, out_sub[3] = {h, n, n}, out_start[3] = {p * h, 0, 0};
        out_shape[split] = h; out_sub[split] = h;
        MPI_Type_create_subarray(3, in_shape, in_sub, in_start, MPI_ORDER_C, c, &s[p]); MPI_Type_commit(&s[p]);
        MPI_Type_create_subarray(3, out_shape, out_sub, out_start, MPI_ORDER_C, c, &r[p]); MPI_Type_commit(&r[p]);
    }
    int counts[2] = {1, 1}, displs[2] = {0, 0};
    for (int typed = 0; typed < 2; typed++) for (int mode = 0; mode < 3; mode += 2) {
        double t[64];
        for (int run = 0; run < runs + 1; run++) {
            if (mode == 1) memset(from, run, bytes);                 /* like an FFT's output */
            if (mode == 2) { memset(flush, run, fbytes); memset(from, run, bytes); } /* and cache flushed */
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            if (typed) MPI_Alltoallw(from, counts, displs, s, to, counts, displs, r, MPI_COMM_WORLD); else MPI_Alltoall(from, (int)(bytes/2), MPI_BYTE, to, (int)(bytes/2), MPI_BYTE, MPI_COMM_WORLD);
            double dt = MPI_Wtime() - t0, mx;
            MPI_Allreduce(&dt, &mx, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
            if (run > 0) t[run - 1] = mx;
        }
        qsort(t, runs, sizeof *t, cmp);
        if (!rank) printf("%s n=%d split=%d chunk=%.2fMB mode=%s best %.3f ms median %.3f ms\n", typed ? "typed" : "plain", n, split,
                          bytes / 2 / 1e6, mode == 0 ? "warm" : mode == 1 ? "from-written" : "flushed", t[0] * 1e3, t[runs / 2] * 1e3);
    }
    MPI_Finalize();
}
