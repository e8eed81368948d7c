/*
 * distfft.h -- the whole public C API of distfft.
 *
 * distfft computes parallel multidimensional FFTs of arrays distributed over
 * MPI ranks, after Dalcin, Mortensen and Keyes, "Fast parallel
 * multidimensional FFT using advanced MPI": every global redistribution of a
 * d-dimensional array between two alignments is ONE MPI_Alltoallw over
 * subarray datatypes built once at plan time, on a one-dimensional
 * sub-communicator of a Cartesian process grid.
 *
 * Conventions used throughout:
 *  - Arrays are C-ordered (row-major). Shapes, starts and element counts are
 *    int64_t.
 *  - Every function returning int returns DISTFFT_SUCCESS (0) or an error
 *    code; distfft_last_error() then holds a message naming the bad argument
 *    and the rank that had it. Out-handles are NULL after a failure, and
 *    nothing the caller passed in is modified.
 *  - "Collective on C" means every rank of communicator C must make the call.
 *    A collective call agrees on its outcome before it enters any other
 *    collective operation: when one rank sees a bad argument, every rank
 *    returns the same error code and message. "Local" calls communicate
 *    nothing.
 *  - The library never modifies the caller's communicator; it works on its
 *    own communicators (with MPI_ERRORS_RETURN) and frees every MPI object it
 *    creates in the matching destroy call (or, after a release, in
 *    distfft_collect). It caches one attribute on a communicator that a
 *    plan, redistribution or layout is created on (the queue of released
 *    objects: memory, no MPI object; freed with the communicator), and the
 *    queue's frees agree on that communicator itself (see "Release
 *    calls").
 *  - Destroy calls (distfft_plan_destroy, _redist_destroy, _halo_destroy,
 *    _grid_destroy, _layout_destroy, _reshape_destroy) are collective:
 *    call them at the same point of the program on every rank, as any
 *    collective. Most are not synchronising -- they free communicators
 *    (MPI_Comm_free: collective in the standard, which expects it to be
 *    local; local in Open MPI 4.1 and MPICH 4), datatypes, requests, FFTW
 *    plans and memory, and wait for no rank. The exception: a plan or
 *    redistribution whose exchanges use DISTFFT_METHOD_SHM (which
 *    DISTFFT_METHOD_AUTO may pick) frees an MPI shared-memory window (and
 *    one with DISTFFT_METHOD_CUDA_IPC a window of no memory, before it
 *    frees the device buffers its peers mapped), and MPI_Win_free returns on no rank before every rank of the node's group
 *    has called it: a rank that destroys such an object while another
 *    waits in some other collective deadlocks the job. So may freeing the
 *    last communicator of a device plan whose exchanges use
 *    DISTFFT_METHOD_NCCL: its NCCL communicator is freed with it
 *    (ncclCommDestroy), and NCCL may wait for the other ranks.
 *  - Release calls (distfft_plan_release, _redist_release,
 *    _layout_release, _reshape_release, _halo_release: every object that
 *    holds MPI resources but grids) are the path that cannot deadlock
 *    that way, nor wait: LOCAL. Each rank releases when it likes, in any
 *    order; memory, FFTW plans and datatypes are freed at once, the handle
 *    becomes NULL, and the windows and communicators (collective frees)
 *    wait on a queue of the communicator the object was created on -- for
 *    a layout, reshape or halo made from another object (a plan's layout,
 *    a layout's reshape or halo), that object's communicator.
 *    distfft_collect(comm), collective on that communicator, frees those of
 *    every object that EVERY rank has released, in creation order; the
 *    next object created on comm, freeing comm (MPI_Comm_free) and
 *    MPI_Finalize do the same. An object released
 *    after comm was freed stays queued until MPI_Finalize: release before
 *    freeing comm. Release an object
 *    on every rank or destroy it on every rank, never some of each (a
 *    destroy's MPI_Win_free would wait for a free that no collect makes).
 *    Language bindings must not destroy from a garbage collector: release
 *    there (the Python package defers whole objects itself;
 *    docs/reliability.md, "Object lifetimes"). Grids have no release call.
 *  - Destroy calls return an error only when one of their MPI frees fails
 *    (MPI_Comm_free, MPI_Type_free, MPI_Win_free, MPI_Win_unlock_all):
 *    DISTFFT_ERR_MPI, the first such failure on this rank, named in
 *    distfft_last_error(). They free everything else all the same and set
 *    the handle to NULL, so nothing is left to free again. They agree with
 *    no other rank (that would make every destroy synchronising): a free
 *    that fails on some ranks only is reported on those ranks only. NULL
 *    for the handle pointer itself is DISTFFT_ERR_ARGUMENT.
 *  - Threads: with MPI_THREAD_MULTIPLE, several threads of a rank may
 *    execute DIFFERENT plans, redistributions and halos at the same time
 *    (each object has its own communicators and buffers; results are those
 *    of one after the other). One object must not be executed by two
 *    threads at once (not detected). Plans are created and destroyed by one
 *    thread at a time per process (FFTW's planner and distfft's wisdom are
 *    not thread-safe): a distfft_plan_create that starts while another
 *    thread is inside plan creation or destruction returns
 *    DISTFFT_ERR_UNSUPPORTED on every rank of its communicator. Plan and
 *    redistribution creation and destruction, the release calls and
 *    distfft_collect share the queues of released objects: make them from
 *    one thread at a time per process (not detected beyond plans). Without
 *    MULTIPLE, make every distfft call from the thread that calls MPI.
 *    options.threads is another matter: threads inside one call.
 */
#ifndef DISTFFT_H
#define DISTFFT_H

#include <stddef.h>
#include <stdint.h>
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version, "MAJOR.MINOR.PATCH". */
#define DISTFFT_VERSION "0.1.0"

/* Largest array dimensionality accepted anywhere in the API. */
#define DISTFFT_MAX_DIMS 16

/* Largest options.threads accepted (threads per rank). */
#define DISTFFT_MAX_THREADS 4096

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */
/* ------------------------------------------------------------------------ */

/* Return codes of every function that returns int: DISTFFT_SUCCESS (0), or
 * one of these errors (distfft_error_string describes it, distfft_last_error
 * has the message). */
enum {
    DISTFFT_SUCCESS = 0,
    DISTFFT_ERR_ARGUMENT,    /* an argument is out of range or NULL */
    DISTFFT_ERR_SHAPE,       /* an array shape is invalid or inconsistent */
    DISTFFT_ERR_GRID,        /* the process grid does not fit */
    DISTFFT_ERR_MISMATCH,    /* an argument that must match across ranks differs */
    DISTFFT_ERR_ALIGNMENT,   /* a buffer is not aligned as distfft_malloc aligns */
    DISTFFT_ERR_UNSUPPORTED, /* valid request this build cannot do */
    DISTFFT_ERR_MEMORY,      /* allocation failed */
    DISTFFT_ERR_FFTW,        /* FFTW could not create a plan */
    DISTFFT_ERR_MPI          /* an MPI call inside the library failed */
};

/* Static description of an error code. Local. */
const char *distfft_error_string(int code);

/* The message of the last failed call on this thread (empty if none).
 * Local; the string stays valid until the next distfft call on the thread. */
const char *distfft_last_error(void);

/* ------------------------------------------------------------------------ */
/* Element types and memory                                                  */
/* ------------------------------------------------------------------------ */

/* The element type of an array: complex or real, double or single
 * precision. Complex elements are C99's _Complex, FFTW's layout. */
typedef enum {
    DISTFFT_COMPLEX_DOUBLE = 0, /* double _Complex / fftw_complex */
    DISTFFT_COMPLEX_FLOAT,      /* float _Complex / fftwf_complex */
    DISTFFT_REAL_DOUBLE,        /* double */
    DISTFFT_REAL_FLOAT          /* float */
} distfft_type;

/* Floating-point precision of a plan (its arrays are real or complex in it).
 * DISTFFT_LONG_DOUBLE (C's long double, FFTW's fftwl_ in libfftw3l) is for
 * the serial transforms (distfft_serial_*) only: a distributed plan
 * (distfft_plan_create, _create_layouts) refuses it with
 * DISTFFT_ERR_UNSUPPORTED on every rank, as there is no distfft_type, MPI
 * exchange or threaded pass of ours in long double. */
typedef enum {
    DISTFFT_DOUBLE = 0,
    DISTFFT_FLOAT,
    DISTFFT_LONG_DOUBLE
} distfft_precision;

/* The vocabulary. Every enum of this API has a name (the word the bench,
 * wisdom, describe and Python use) and back: distfft_X_name returns it, or
 * NULL for a value that is not one; distfft_X_from_name returns
 * DISTFFT_ERR_ARGUMENT (message listing the known names) for an unknown
 * name and leaves *value alone. All local. Element types: "complex-double",
 * "complex-float", "real-double", "real-float"; precisions: "double",
 * "float", "long-double". The others are declared with their enums below. */
const char *distfft_type_name(distfft_type type);
int distfft_type_from_name(const char *name, distfft_type *type);
const char *distfft_precision_name(distfft_precision precision);
int distfft_precision_from_name(const char *name, distfft_precision *precision);

/* Size in bytes of one element, or 0 for an unknown type. Local. */
size_t distfft_type_size(distfft_type type);

/* Allocate and free memory aligned for FFTW's SIMD code (FFTW's own malloc).
 * Buffers handed to distfft_plan_execute must be aligned like this
 * (plain malloc on x86-64 Linux is too). Local. */
void *distfft_malloc(size_t bytes);
void distfft_free(void *pointer);

/* ------------------------------------------------------------------------ */
/* Decomposition (paper Alg. 1)                                              */
/* ------------------------------------------------------------------------ */

/* Balanced block-contiguous decomposition of n >= 0 elements into parts > 0
 * parts: part p (0 <= p < parts) holds *local_n elements starting at *start.
 * Parts beyond n hold 0 elements. Local. */
void distfft_decompose(int64_t n, int parts, int part, int64_t *local_n,
                       int64_t *start);

/* ------------------------------------------------------------------------ */
/* Cartesian process grids (paper Sec. 3.4, Listing 4)                       */
/* ------------------------------------------------------------------------ */

/* A Cartesian process grid (opaque handle): made by distfft_grid_create,
 * freed by distfft_grid_destroy. */
typedef struct distfft_grid_s *distfft_grid;

/* Create an ndims-dimensional Cartesian grid over the ranks of comm, and one
 * one-dimensional sub-communicator per grid direction. dims may be NULL (all
 * chosen by MPI_Dims_create); entries that are 0 are chosen by
 * MPI_Dims_create; the product must equal the size of comm. Ranks are laid
 * on the grid in comm's order, row-major. Collective on comm. */
int distfft_grid_create(MPI_Comm comm, int ndims, const int *dims,
                        distfft_grid *grid);

/* How ranks are laid on a grid (after paper 003's rank ordering):
 *   ROW     row-major in the communicator's order (the default): grid
 *           direction r-1's groups are consecutive ranks;
 *   MORTON  Z-order: rank k at the k-th grid position in Morton order (the
 *           coordinates' bits interleaved), compact blocks in every
 *           direction;
 *   NODE    node-aware: ranks sorted by (node, rank in node), then laid
 *           row-major with one chosen "busy" direction varying fastest, so
 *           its sub-communicators stay inside nodes whenever a node holds a
 *           multiple of that direction's extent. Nodes are found with
 *           MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), or pretended to be
 *           node_size consecutive ranks when node_size > 0 (for testing). */
typedef enum {
    DISTFFT_PLACEMENT_ROW = 0,
    DISTFFT_PLACEMENT_MORTON,
    DISTFFT_PLACEMENT_NODE
} distfft_placement;

/* Name ("row", "morton", "node") of a placement, or NULL; and the reverse
 * (DISTFFT_ERR_ARGUMENT if unknown). Local. */
const char *distfft_placement_name(distfft_placement placement);
int distfft_placement_from_name(const char *name, distfft_placement *placement);

/* distfft_grid_create with a placement; busy_direction (0..ndims-1) is the
 * direction NODE keeps inside nodes (ignored by ROW and MORTON). The grid's
 * communicators order the ranks as placed. Collective on comm. */
int distfft_grid_create_placed(MPI_Comm comm, int ndims, const int *dims,
                               distfft_placement placement, int node_size,
                               int busy_direction, distfft_grid *grid);

/* Free the grid and every communicator it created; *grid becomes NULL.
 * Collective on the grid's communicator; not synchronising (MPI_Comm_free
 * only). A NULL *grid is a no-op. DISTFFT_ERR_MPI where an MPI_Comm_free
 * failed (the rest freed; see "Destroy calls" at the top). */
int distfft_grid_destroy(distfft_grid *grid);

/* Grid queries. Local. dims and coords have room for distfft_grid_ndims(). */
int distfft_grid_ndims(const struct distfft_grid_s *grid);
void distfft_grid_dims(const struct distfft_grid_s *grid, int *dims);
void distfft_grid_coords(const struct distfft_grid_s *grid, int *coords);

/* The one-dimensional sub-communicator of grid direction `direction`
 * (P_direction in the paper), owned by the grid. Local. */
MPI_Comm distfft_grid_subcomm(const struct distfft_grid_s *grid, int direction);

/* A layout (opaque handle, see "Layouts" below): a global shape and each
 * rank's box, checked once when made. Made by distfft_layout_from_box,
 * distfft_layout_from_grid or a plan's distfft_plan_input_layout /
 * _output_layout; freed by distfft_layout_destroy. */
typedef struct distfft_layout_s *distfft_layout;

/* ------------------------------------------------------------------------ */
/* Global redistribution (paper Sec. 3.3.2, Alg. 2 and 3)                    */
/* ------------------------------------------------------------------------ */

/* Communication methods. A concrete method's id is its row in the method
 * table (src/redist/methods.def): ids never change, new methods are
 * appended, so a program may store them. Ids 0..distfft_method_count()-1
 * are the concrete methods; list them by asking distfft_method_name(). */
typedef enum {
    /* "auto": at create time, time every concrete method on this exchange
     * (a warm-up, then the fastest of at least 3 executions -- more, up to
     * 20, while they add up to under 10 ms -- each the maximum over the
     * ranks) and keep the fastest; every rank picks the same. Plans with
     * rigor DISTFFT_ESTIMATE do not measure and take alltoallw; plans with
     * wisdom for their configuration take its choice (see Wisdom). The
     * default of distfft_options_init. */
    DISTFFT_METHOD_AUTO = -1,
    /* "alltoallw": subarray datatypes + one MPI_Alltoallw, no copies */
    DISTFFT_METHOD_ALLTOALLW = 0,
    /* "alltoallv": pack the chunks, one MPI_Alltoallv, unpack */
    DISTFFT_METHOD_ALLTOALLV = 1,
    /* "isend-waitall": pack, MPI_Irecv/MPI_Isend with every peer, MPI_Waitall,
     * unpack */
    DISTFFT_METHOD_ISEND_WAITALL = 2,
    /* "isend-waitsome": as isend-waitall, but MPI_Waitsome, unpacking each
     * chunk as soon as it arrives */
    DISTFFT_METHOD_ISEND_WAITSOME = 3,
    /* "isend-waitall-blocked": isend-waitall with 4 peers at a time */
    DISTFFT_METHOD_ISEND_WAITALL_BLOCKED = 4,
    /* "isend-waitsome-blocked": isend-waitsome with 4 peers at a time */
    DISTFFT_METHOD_ISEND_WAITSOME_BLOCKED = 5,
    /* "sendrecv": P-1 rounds of pairwise MPI_Sendrecv (rank +- k) */
    DISTFFT_METHOD_SENDRECV = 6,
    /* "vector": paper 004's zero-copy exchange: one collective with
     * count 1 per peer (MPI_Alltoallv: MPI_Alltoall's Bruck algorithm
     * mishandles resized types), the chunks described by hvector types
     * resized so that consecutive peers' combs interleave. Only for equal blocks: the group
     * size must divide both exchanged axes; elsewhere create fails with
     * DISTFFT_ERR_UNSUPPORTED on every rank (and "auto" skips it). */
    DISTFFT_METHOD_VECTOR = 7,
    /* "shm": chunks between ranks that share memory go through an MPI-3
     * shared window (pack into this rank's slice, node barrier, copy out of
     * the peers' slices: no MPI message); others as isend-waitall. Nodes:
     * options.node_size when > 0 (pretended, intersected with the real
     * shared-memory nodes), else DISTFFT_NODE_SIZE, else the real ones */
    DISTFFT_METHOD_SHM = 8,
    /* "hierarchical": node-aware: chunks to other nodes gathered by each
     * node's lowest rank, ONE message per pair of nodes, scattered inside
     * the node; chunks within a node direct. Nodes as for shm */
    DISTFFT_METHOD_HIERARCHICAL = 9,
    /* "staged": for device memory only (DISTFFT_MEMORY_CUDA): pack on the
     * device, copy to pinned host buffers, one MPI_Alltoallv, copy back,
     * unpack; any MPI. It synchronises the plan's stream. Every other
     * method but nccl and cuda-ipc moves host memory only */
    DISTFFT_METHOD_STAGED = 10,
    /* "nccl": for device memory only, where the CUDA backend finds NCCL
     * (libnccl.so.2): pack on the device, one NCCL group of ncclSend /
     * ncclRecv with every peer of a non-empty chunk, unpack. Stream-ordered:
     * all three are enqueued on the plan's stream and the exchange returns
     * at once (synchronise the stream before reading the output on the
     * host). One NCCL communicator per MPI communicator of the plan, made
     * at the first exchange on it and freed with it (see "Destroy calls") */
    DISTFFT_METHOD_NCCL = 11,
    /* "cuda-ipc": for device memory only, every rank of the exchange on
     * one node (the node as for shm; elsewhere create fails with
     * DISTFFT_ERR_UNSUPPORTED on every rank): each rank maps its peers'
     * device receive buffers (CUDA IPC), packs its chunks straight into
     * them, then unpacks its own. It synchronises the plan's stream
     * (stream sync and a barrier before and after the puts), and its
     * destroy, like shm's, waits for every rank of the group */
    DISTFFT_METHOD_CUDA_IPC = 12
} distfft_method;

/* Most concrete methods a build can have (distfft_method_count() <= it). */
#define DISTFFT_MAX_METHODS 64

/* Number of concrete methods (ids 0..count-1; "auto" is not counted). Local. */
int distfft_method_count(void);

/* Name of a method ("alltoallw", "auto"), or NULL. Local. */
const char *distfft_method_name(distfft_method method);
/* Method from its name; DISTFFT_ERR_ARGUMENT if unknown. Local. */
int distfft_method_from_name(const char *name, distfft_method *method);

/* A planned redistribution (opaque handle): made by distfft_redist_create,
 * run by distfft_redist_execute, described by distfft_redist_describe,
 * freed by distfft_redist_destroy or _release. */
typedef struct distfft_redist_s *distfft_redist;

/* Plan the redistribution of a distributed array within the process group
 * `subcomm` (of size M, this rank p) from alignment axis_in to alignment
 * axis_out (axis_in != axis_out):
 *
 *   in  has local shape in_shape:  complete along axis_in, and along
 *       axis_out this rank's block of out_shape[axis_out] in M parts;
 *   out has local shape out_shape: complete along axis_out, and along
 *       axis_in this rank's block of in_shape[axis_in] in M parts;
 *   all other axes are the same in both and are not touched.
 *
 * Blocks are those of distfft_decompose(). Both arrays may carry a leading
 * batch dimension of `batch` >= 1 fields (shape batch x in_shape, C order):
 * all fields move in the same single exchange. The datatypes are built here,
 * once. Collective on subcomm.
 *
 * Between any two layouts, distfft_reshape_create is the layout call. This
 * one is not a wrapper over it: it is the exchange of a
 * plan step (aligned pencils of one grid direction), with every method of
 * the table -- vector, shm, hierarchical and the rest, which need that
 * structure and which a reshape between boxes does not take -- and "auto"
 * timing all that apply; a reshape takes and times those that apply to
 * boxes. */
int distfft_redist_create(MPI_Comm subcomm, distfft_type type, int ndims,
                          const int64_t *in_shape, int axis_in,
                          const int64_t *out_shape, int axis_out,
                          int64_t batch, distfft_method method,
                          distfft_redist *redist);

/* Move the data of `in` into `out` (distinct buffers; in is not modified).
 * A pointer may be NULL only where this rank's block is empty.
 * Collective on the plan's sub-communicator. */
int distfft_redist_execute(distfft_redist redist, const void *in, void *out);

/* One line: the method, the alignments, this rank's two local shapes and
 * what it sends to the other ranks per execution; e.g. on 2 ranks, an
 * 8x8 complex double array from alignment 1 to 0 with alltoallw:
 * "(redist alltoallw 1->0 4x8 to 8x4 complex-double ranks=2 sends 256
 * bytes)" (tests/mpi/test_layouts.c checks both examples). Into buf (truncated to size); returns the length the
 * full text needs, excluding the NUL, or -1 for NULL. Local. */
int distfft_redist_describe(const struct distfft_redist_s *redist, char *buf, size_t size);

/* Free the plan and every MPI object it created (datatypes, its duplicate of
 * subcomm); *redist becomes NULL. Collective on subcomm; synchronising
 * (MPI_Win_free) with method DISTFFT_METHOD_SHM or _CUDA_IPC, otherwise it waits for no
 * rank. A NULL *redist is a no-op. DISTFFT_ERR_MPI where an MPI free
 * failed (the rest freed; see "Destroy calls" at the top). */
int distfft_redist_destroy(distfft_redist *redist);

/* Free what is local of the redistribution now and leave its window and
 * communicators to distfft_collect on subcomm (see "Release calls" at the
 * top); *redist becomes NULL. Local: waits for no rank. A NULL *redist is
 * a no-op. DISTFFT_ERR_MEMORY with nothing freed (*redist kept) where the
 * queue's record cannot be allocated; DISTFFT_ERR_MPI where a local MPI
 * free failed (the rest freed or queued). */
int distfft_redist_release(distfft_redist *redist);

/* ------------------------------------------------------------------------ */
/* Parallel FFT plans (paper Sec. 3.3-3.6)                                   */
/* ------------------------------------------------------------------------ */

/* Transform direction (FFTW's sign convention): of distfft_plan_execute,
 * distfft_reshape_execute (forward: input layout to output layout) and the
 * step queries. */
enum { DISTFFT_FORWARD = -1, DISTFFT_BACKWARD = +1 };

/* Normalisation, as numpy's `norm`: BACKWARD (default) leaves the forward
 * transform unscaled and scales the backward one by 1/N; ORTHO scales both by
 * 1/sqrt(N); FORWARD scales the forward one by 1/N. N is the product over
 * the transformed axes of their logical lengths: n for C2C and R2C, 2(n-1)
 * for DCT1, 2(n+1) for DST1, 2n for the other DCTs and DSTs, 1 for CHEB;
 * so backward(forward(x)) = x under every option but NONE. NONE scales
 * neither (FFTW's convention: backward(forward(x)) = N x), for solvers that
 * fold 1/N into their own pointwise work and so save the scaling. The scale
 * is applied inside a pass that already touches the data where the plan has
 * one (Chebyshev weights, the unpack of a copying exchange), else in one
 * threaded sweep over the output. */
typedef enum {
    DISTFFT_NORM_BACKWARD = 0,
    DISTFFT_NORM_ORTHO,
    DISTFFT_NORM_FORWARD,
    DISTFFT_NORM_NONE
} distfft_norm;

/* "backward", "ortho", "forward", "none". Local. */
const char *distfft_norm_name(distfft_norm norm);
int distfft_norm_from_name(const char *name, distfft_norm *norm);

/* The transform along one axis. Definitions (N = the axis length, all
 * unnormalised as FFTW computes them; see the manual, docs/guide/kinds.md):
 *   C2C      complex DFT, sign -1 forward.
 *   R2C      real-to-complex DFT: N reals -> N/2+1 complex (Hermitian half);
 *            on at most one axis, any transformed one: it is transformed
 *            first wherever it is, and then the input is real. The output
 *            keeps the natural axis order, with N/2+1 points on that axis.
 *   DCT1..4  FFTW's REDFT00, REDFT10, REDFT01, REDFT11 (= scipy.fft.dct type
 *            1..4, norm=None); DST1..4: RODFT00, RODFT10, RODFT01, RODFT11.
 *            Backward is the inverse type (DCT2 <-> DCT3, others their own).
 *   CHEB     Chebyshev coefficients a_k of samples f_j on the Gauss-Lobatto
 *            points x_j = cos(pi j / (N-1)): f_j = sum_k a_k T_k(x_j); via
 *            DCT-I. Forward gives a_k, backward the samples, whatever norm.
 *   NONE     the axis is not transformed (numpy's axes= subset).
 *   R2HC     FFTW_R2HC: the real DFT of N reals in FFTW's halfcomplex
 *            order, N reals r_0, r_1, ..., r_{N/2}, i_{(N+1)/2-1}, ..., i_1
 *            (r_k, i_k the real and imaginary parts of output k of R2C).
 *            Backward is HC2R.
 *   HC2R     FFTW_HC2R: the inverse (unnormalised) of R2HC, halfcomplex N
 *            reals in, N reals out. Backward is R2HC.
 *   DHT      FFTW_DHT: the discrete Hartley transform, y_k = sum_j x_j
 *            (cos + sin)(2 pi j k / N); its own backward.
 *            R2HC, HC2R and DHT are real-to-real like the DCTs (logical N =
 *            N), but an axis of them cannot be padded.
 * Real-to-real kinds act on real data, or on the real and imaginary parts
 * of complex data: after an R2C axis, with a C2C axis, or with
 * options.complex_data (any mix of kinds, as scipy.fft.dctn/dstn accept
 * complex arrays). */
typedef enum {
    DISTFFT_C2C = 0,
    DISTFFT_R2C,
    DISTFFT_DCT1, DISTFFT_DCT2, DISTFFT_DCT3, DISTFFT_DCT4,
    DISTFFT_DST1, DISTFFT_DST2, DISTFFT_DST3, DISTFFT_DST4,
    DISTFFT_CHEB,
    DISTFFT_NONE,
    DISTFFT_R2HC, DISTFFT_HC2R, DISTFFT_DHT
} distfft_kind;

/* Name ("c2c", "r2c", "dct1".."dct4", "dst1".."dst4", "cheb", "none",
 * "r2hc", "hc2r", "dht") of a
 * kind, or NULL; and the reverse (DISTFFT_ERR_ARGUMENT if unknown). Local. */
const char *distfft_kind_name(distfft_kind kind);
int distfft_kind_from_name(const char *name, distfft_kind *kind);

/* The length N that normalises a transform of `kind` on n points (the 1/N
 * of distfft_norm), FFTW's "logical size": n for C2C and R2C, 2(n-1) for
 * DCT1, 2(n+1) for DST1, 2n for the other DCTs and DSTs, n for R2HC, HC2R
 * and DHT; 1 for CHEB (its
 * weights make every norm's round trip the identity) and NONE, which do not
 * count. 0 for a value that is not a kind. Local. */
double distfft_kind_logical_length(distfft_kind kind, int64_t n);

/* FFTW planning rigour (FFTW_ESTIMATE ... FFTW_EXHAUSTIVE). */
typedef enum {
    DISTFFT_ESTIMATE = 0,
    DISTFFT_MEASURE,
    DISTFFT_PATIENT,
    DISTFFT_EXHAUSTIVE
} distfft_rigor;

/* "estimate", "measure", "patient", "exhaustive". Local. */
const char *distfft_rigor_name(distfft_rigor rigor);
int distfft_rigor_from_name(const char *name, distfft_rigor *rigor);

/* How a batched plan (batch > 1) runs its fields. OFF moves all fields in
 * one exchange per step. ON pipelines them: the fields go through the
 * steps one by one, and each exchange of field k is started non-blocking
 * (MPI_Ialltoallw with the alltoallw method, MPI_Ialltoall with vector;
 * the other methods run blocking) while the FFTs of field k-1 after it
 * run. FIELDS runs each field through the whole transform in turn, as a
 * loop over one-field transforms would, reusing one field's work buffers
 * (the least memory; on few cores, where nothing progresses an exchange
 * in the background, often the fastest). AUTO (the default): measured when
 * the plan measures (method auto, a measuring rigor, batch > 1): OFF, ON,
 * FIELDS (and PROGRESS where it is available, below) are built on the
 * chosen grid and methods and their forward+backward pairs timed, the
 * fastest kept; otherwise OFF. ON, FIELDS and PROGRESS need every field's
 * block to start aligned (its bytes a multiple of 64, true for the usual
 * sizes); otherwise the plan runs OFF. Results may differ from OFF in the
 * last bits (FFTW plans one field instead of the batch).
 * PROGRESS is ON with a helper thread per plan (started at plan creation,
 * joined by distfft_plan_destroy/_release) that calls MPI_Test on the
 * exchanges in flight while the caller's thread runs the FFTs, so that an
 * MPI which moves data only inside its calls (Open MPI's and MPICH's
 * shared-memory transports) progresses them meanwhile. It can pay only
 * where the helper has a core of its own (ranks x (threads + 1) <= cores);
 * on a full node it takes the FFTs' core. It needs MPI initialised with
 * MPI_THREAD_MULTIPLE: asked for with a lower level, plan creation fails
 * on every rank with DISTFFT_ERR_UNSUPPORTED before any collective; AUTO
 * times it only where every rank has that level (never in an SMPI build).
 * Identifiers never shift: a new value is added with the next number. */
typedef enum {
    DISTFFT_OVERLAP_AUTO = -1,
    DISTFFT_OVERLAP_OFF = 0,
    DISTFFT_OVERLAP_ON = 1,
    DISTFFT_OVERLAP_FIELDS = 2,
    DISTFFT_OVERLAP_PROGRESS = 3
} distfft_overlap;

/* "auto", "off", "on", "fields", "progress". Local. */
const char *distfft_overlap_name(distfft_overlap overlap);
int distfft_overlap_from_name(const char *name, distfft_overlap *overlap);

/* Where a plan's arrays live (distfft_options.memory). */
typedef enum {
    DISTFFT_MEMORY_HOST = 0,  /* host memory: distfft_malloc's, or any array aligned as it aligns */
    /* NVIDIA device memory (cudaMalloc) of the device current at create.
     * Served by the CUDA backend, a library of its own (libdistfft_cuda)
     * loaded when a plan first asks for it; where it is not built, cannot
     * load, or finds no device, plan creation fails with
     * DISTFFT_ERR_UNSUPPORTED on every rank. */
    DISTFFT_MEMORY_CUDA = 1
} distfft_memory;
/* Halos, gather/scatter and array files take host memory only. A device
 * pointer handed to them, or to a host plan, is DISTFFT_ERR_ARGUMENT on
 * every rank wherever it can be recognised: in a process that had loaded
 * the CUDA driver when the call (for a plan or a halo: its create) was
 * made; the driver answers (cuPointerGetAttribute), with or without the
 * CUDA backend. Managed memory counts as host memory. */

/* "host", "cuda". Local. */
const char *distfft_memory_name(distfft_memory memory);
int distfft_memory_from_name(const char *name, distfft_memory *memory);

/* What distfft_plan_create is asked for besides the shape and precision.
 * Fill it with distfft_options_init, then change the fields you need. */
typedef struct {
    /* Process grid dimensionality r, 1 <= r <= ndims-1; 0 chooses. With
     * method AUTO and a measuring rigor, the choice is measured: every
     * factorisation of the ranks into r = 1..ndims-1 extents >= 2 (both
     * orientations) that leaves no rank without data is planned and timed
     * (forward+backward pairs timed as methods are), and the fastest
     * kept. Otherwise: the lowest r whose MPI_Dims_create grid leaves no
     * rank without data (slab while the ranks fit, then pencil, ...). */
    int grid_ndims;
    /* Grid extents when grid_ndims > 0; a 0 entry is chosen by
     * MPI_Dims_create. The product must equal the communicator size. */
    int grid_dims[DISTFFT_MAX_DIMS];
    distfft_method method;   /* of every exchange; default AUTO (measured) */
    distfft_norm norm;       /* default DISTFFT_NORM_BACKWARD, as numpy */
    distfft_rigor rigor;     /* FFTW's planning; default DISTFFT_MEASURE */
    /* Nonzero allows forward/backward to overwrite their input, which saves
     * one work buffer (see distfft_plan_work_bytes) or, where the backward
     * starts with a fused multi-axis c2r (r2c on one rank), the copy of
     * its input it makes, a pass over memory (FFTW cannot preserve the
     * input of such a c2r). */
    int destroy_input;
    /* Transform kind of each array axis; all DISTFFT_C2C by default. */
    distfft_kind kinds[DISTFFT_MAX_DIMS];
    /* Number of fields transformed together, >= 1 (distfft_options_init
     * sets 1). Arrays then have a leading dimension of `batch` fields, each
     * a local block, and every redistribution moves all fields in one
     * exchange. */
    int64_t batch;
    /* How ranks are laid on the grid (default ROW). NODE keeps the busiest
     * grid direction inside nodes: the one whose exchange sends the most
     * bytes off-rank, i.e. the exchanged direction of largest extent (every
     * exchange moves the whole array, a fraction 1 - 1/M of it off-rank on
     * a group of M), the last such one on ties. */
    distfft_placement placement;
    /* With NODE: pretend nodes of node_size consecutive ranks (> 0), or
     * find the real ones (0, the default). The node-aware methods (shm,
     * hierarchical) take the same nodes, whatever the placement. */
    int node_size;
    /* Nonzero: rank 0 of the plan's communicator says on stderr what
     * plan-time tuning measures, as it goes ("distfft: tuning grid 2/5
     * (2x2): exchange 1/4: isend-waitall 0.84 ms (method 3/7)"). Also
     * enabled by the environment variable DISTFFT_VERBOSE=1. Default 0. */
    int verbose;
    /* Threads per rank, 1..4096 (default 1), the same on every rank: FFTW's
     * threaded plans (libfftw3_threads) for every serial transform and
     * OpenMP threads in distfft's own passes (pack/unpack, scaling,
     * weights, copies). More threads than cores are allowed (they then
     * share cores). threads > 1 needs MPI initialised with at least
     * MPI_THREAD_FUNNELED (MPI_Init_thread; mpi4py's default is MULTIPLE):
     * otherwise plan creation fails on every rank with
     * DISTFFT_ERR_UNSUPPORTED. The default is 1, not OMP_NUM_THREADS:
     * under mpiexec every rank of a node would take it, oversubscribing the
     * node P-fold, and threads = 1 keeps results bit-identical from run to
     * run (FFTW's threaded plans may split work differently). Tuning never
     * changes it: at a fixed rank count, P x T is the user's choice
     * (distfft-bench --threads compares layouts). */
    int threads;
    /* Batched plans: pipeline the fields (see distfft_overlap; default
     * AUTO). */
    distfft_overlap overlap;
    /* Padding for dealiasing (the 3/2 rule: 1.5), per array axis, >= 1;
     * distfft_options_init sets 1.0 (none). A padded axis of spectral
     * length N (the `shape` given to distfft_plan_create) has
     * M = floor(padding * N) points in physical space (mpi4py-fft's rule):
     * backward takes the N retained modes and returns the field on the M
     * points (zero-padding in spectral space), forward takes the M points
     * and returns only the N retained modes (truncation). Padding and
     * truncation happen inside the serial transform of the axis, so every
     * later exchange carries N, not M. Fourier axes (c2c, r2c's halved
     * axis): modes 0..N/2-1 and -(N-1)/2..-1 keep their wavenumber; for
     * even N the Nyquist mode is split in half between +N/2 and -N/2 when
     * padding and the two are summed when truncating (r2c: the mode
     * becomes half of itself, resp. 2 Re), so truncate(pad(x)) == x.
     * Real-to-real axes (DCT, DST, cheb): the first N coefficients are
     * kept, the rest are zero. Normalisation counts the padded lengths M
     * (numpy's ifftn of the zero-padded spectrum, s=M), so
     * forward(backward(u)) == u for the retained modes under every norm;
     * with norm FORWARD the physical field is the same trigonometric
     * polynomial as unpadded, sampled on the finer grid. Axes of kind
     * none take no padding. */
    double padding[DISTFFT_MAX_DIMS];
    /* Nonzero: the data is complex although no axis is c2c, so
     * real-to-real kinds act on the real and imaginary parts alike
     * (scipy.fft.dctn on a complex array). A plan with a c2c axis and no
     * r2c axis is complex anyway; with an r2c axis this must be 0. */
    int complex_data;
    /* Nonzero: an in-place plan. forward/backward then take in == out, one
     * buffer of distfft_plan_local_size() output elements that holds the
     * input block before and the output block after (and intermediate
     * arrays in between, which saves a work buffer). The input is
     * destroyed. */
    int in_place;
    /* Plan-time tuning with a cost model (distfft_model_import_file, or
     * the file named by the environment variable DISTFFT_MODEL): with
     * method AUTO, a measuring rigor and tune_budget = B > 0, the model
     * predicts every candidate (each grid auto would try, times each
     * concrete method used for every exchange) and only the B predicted
     * fastest are built and timed; the fastest measured is kept (and
     * stored as wisdom). B counts candidates timed, not seconds. B = 1:
     * the model's choice is built and kept untimed (no pair runs; not
     * stored as wisdom, which holds measured choices). 0 (the
     * default), or no model: every candidate is measured as described at
     * grid_ndims. Negative: DISTFFT_ERR_ARGUMENT on every rank. */
    int tune_budget;
    /* Where the arrays handed to forward/backward live, the same on every
     * rank (default DISTFFT_MEMORY_HOST). A plan in the caller's layouts
     * (distfft_plan_create_layouts) reshapes its ends in that memory. */
    distfft_memory memory;
    /* DISTFFT_MEMORY_CUDA: the cudaStream_t the plan's work is ordered on
     * (NULL: the default stream); kept by the plan. Must be NULL for host
     * memory. */
    void *stream;
} distfft_options;

/* Fill *options with the defaults: automatic grid, method auto (tuned
 * with DISTFFT_MEASURE), backward normalisation, input preserved, C2C on
 * every axis, one field, row-major placement, one thread, overlap AUTO,
 * host memory. Local. */
void distfft_options_init(distfft_options *options);

/* A parallel FFT plan (opaque handle): made by distfft_plan_create, freed
 * by distfft_plan_destroy. */
typedef struct distfft_plan_s *distfft_plan;

/* Plan a forward and backward transform of a global array of `ndims`
 * (2..DISTFFT_MAX_DIMS) axes of shape `shape` (the real-space shape), in
 * `precision`, distributed over comm, with options.kinds per axis (all C2C by
 * default). options may be NULL (defaults).
 *
 * Alignments (the paper's Eqs. 21-32, generalised): axes that are not
 * transformed are distributed first and never move; then the transformed
 * axes in increasing order. With all axes transformed and an r-dimensional
 * grid, the input is distributed along axes 0..r-1 (axis i over grid
 * direction i) and complete along axes r..ndims-1; the output, in natural
 * axis order, is complete along axis 0 and distributed along axes 1..r.
 * Query the exact local blocks with distfft_plan_input_block/output_block
 * and the element types with distfft_plan_types. Work buffers are allocated
 * here, once. Collective on comm. */
int distfft_plan_create(MPI_Comm comm, int ndims, const int64_t *shape,
                        distfft_precision precision,
                        const distfft_options *options, distfft_plan *plan);

/* Run the transform in `direction`, the same on every rank.
 * DISTFFT_FORWARD: in has the local input block, out the local output
 * block. DISTFFT_BACKWARD: the reverse (in has the local OUTPUT block, out
 * the local INPUT block). in and out must be distinct (for an in-place
 * plan: the same buffer), aligned like distfft_malloc. in is preserved
 * unless options.destroy_input or options.in_place. A pointer may be NULL
 * only where this rank's block is empty. Another direction:
 * DISTFFT_ERR_ARGUMENT on every rank. Collective on the plan's
 * communicator.
 *
 * Every object runs with distfft_<object>_execute(object, in, out[,
 * direction]): plans and reshapes (both ways), redistributions and serial
 * plans (one way), halos (one array, in place). */
int distfft_plan_execute(distfft_plan plan, void *in, void *out, int direction);

/* Local block of the input (spatial) and output (spectral) arrays:
 * local_shape[ndims] and global_start[ndims] (either may be NULL), per
 * field (a batched array has `batch` such blocks, one after the other).
 * Local.
 *
 * Block or layout? This rank's block is all most programs need: to size
 * and fill its arrays (local, free, no handle). distfft_plan_input_layout /
 * _output_layout (below) return a handle holding EVERY rank's box, made
 * collectively and freed by the caller: take it to hand the plan's
 * decomposition to the calls that take a layout -- a reshape to or from
 * another decomposition, a halo on the plan's input, gathering, scattering
 * or writing the array -- or to ask about another rank's box. */
int distfft_plan_input_block(const struct distfft_plan_s *plan,
                             int64_t *local_shape, int64_t *global_start);
int distfft_plan_output_block(const struct distfft_plan_s *plan,
                              int64_t *local_shape, int64_t *global_start);

/* Element types of the input and output arrays (real input for R2C and
 * all-real-to-real plans) and the global output shape (the R2C axis has
 * n/2+1 points). Local. */
int distfft_plan_types(const struct distfft_plan_s *plan,
                       distfft_type *input_type, distfft_type *output_type);
int distfft_plan_output_shape(const struct distfft_plan_s *plan,
                              int64_t *global_shape);

/* The global input (physical) shape: the shape given to
 * distfft_plan_create, with padded axes at their padded length M. Local. */
int distfft_plan_input_shape(const struct distfft_plan_s *plan,
                             int64_t *global_shape);

/* Elements of the output type (distfft_plan_types' output_type, the
 * larger of the two) that a buffer holding this rank's input block, and
 * its output block, needs: all `batch` fields together. For an in-place
 * plan (options.in_place) this is what the one buffer passed as in and out
 * must hold; it may exceed both blocks, since intermediate arrays pass
 * through it. For other plans it is the larger of the two blocks. The
 * library cannot check a caller's buffer size: a smaller buffer is
 * undefined behaviour (Python checks). Returns -1 for a NULL plan. Local. */
int64_t distfft_plan_local_size(const struct distfft_plan_s *plan);

/* Number of array axes, and grid dimensionality and extents (dims has room
 * for DISTFFT_MAX_DIMS). Local. */
int distfft_plan_ndims(const struct distfft_plan_s *plan);
int distfft_plan_grid(const struct distfft_plan_s *plan, int *grid_ndims,
                      int *grid_dims);

/* Bytes of work memory the plan holds, allocated at create time: at most
 * two buffers (the paper's bound), each the size of the largest local
 * intermediate array placed in it, plus, for padded plans, one scratch
 * buffer of the largest padded spectral block (where the serial transform
 * of a padded axis runs at length M before its truncation, or after its
 * zero-padding), or, for an r2c plan whose backward starts with its fused
 * multi-axis c2r (one rank) and keeps its input (no destroy_input), the
 * copy of that input the c2r runs on (FFTW cannot preserve it). An in-place plan keeps intermediates in the caller's
 * buffer where it can: an even number of steps that cannot work in place
 * (exchanges, unpadded R2C/C2R) needs one work buffer, an odd number two
 * (with a single one, the result is copied into place at the end). Steps that change the data's place are
 * the exchanges (one per grid direction with more than one rank that has a
 * transformed axis to bring in) and R2C; they write alternately into the
 * two buffers and the last one into the caller's output; in-place FFTs
 * follow them. So a c2c slab plan that may destroy its input, and a c2c plan
 * on one rank, need no work memory. With method shm, the FFT after each
 * exchange works out of place too, and each exchange's output is a work
 * buffer of its own in a shared-memory window (the peers write their
 * chunks straight into it); counted here, and a work buffer that only
 * those write is not allocated. A device plan (DISTFFT_MEMORY_CUDA) holds
 * these buffers in device memory, and adds the largest cuFFT work area
 * one of its steps needs (cufftMakePlanMany64's workSize): cuFFT's work
 * area is one per process, shared by every device plan in turn and grown
 * at create to the largest need, so the device memory all plans take for
 * it is the largest of their needs, not their sum; and, for a one-axis
 * c2r that keeps its input (cuFFT's c2r may overwrite it), the copy of
 * that input the step holds. A device that cannot give them fails the
 * create with DISTFFT_ERR_MEMORY on every rank.
 * Local. */
size_t distfft_plan_work_bytes(const struct distfft_plan_s *plan);

/* Write a one-line description of the plan as a tree of its steps into
 * buf (truncated to size); e.g. for an 8x8x8 c2c double plan on 4 ranks
 * with grid 2x2, method alltoallw and rigor estimate:
 * "(distfft kinds=c2c,c2c,c2c 8x8x8 double grid=2x2 (fft c2c axes=2)
 * (redist alltoallw 2->1 on P1) (fft c2c axes=1) (redist alltoallw 1->0
 * on P0) (fft c2c axes=0))" (python/tests/test_header_examples.py checks
 * it). An r2c (c2r) step lists its halved axis last: "fft r2c axes=1,2,0"
 * is r2c along axis 0 and c2c along axes 1 and 2. Returns the length the
 * full text needs, excluding the terminating NUL, or -1 for a NULL plan.
 * Local. */
int distfft_plan_describe(const struct distfft_plan_s *plan, char *buf,
                          size_t size);

/* The same tree nested, as FFTW prints its plans: verbosity 0 is
 * distfft_plan_describe's line, byte for byte. From 1 on, every node has a
 * line of its own, indented two spaces per level; each exchange shows its
 * method's inner phases (hierarchical: its nodes, the gather to the node's
 * leader, the exchange between nodes, the scatter; shm: its window and the
 * chunks through it; isend-*: its groups of peers; alltoallw: its
 * datatypes), with message counts and bytes as THIS rank sees them, and a
 * "(backward ...)" node lists every backward step. Verbosity 2 adds FFTW's
 * own plan under each serial transform (fftw_sprint_plan). E.g. at 1, for
 * an 8x8x8 c2c plan on 4 ranks, grid 4, method hierarchical, nodes of 2
 * (options.node_size), rigor estimate, on rank 0 (tests/mpi/test_plan_print.c):
 *   (distfft kinds=c2c,c2c,c2c 8x8x8 double grid=4
 *     (fft c2c axes=1,2)
 *     (redist hierarchical 1->0 on P0
 *       (nodes 2, 2 ranks on this one, led by this rank)
 *       (direct within the node: 1 out 512 B, 1 in 512 B)
 *       (gather from 1 member: 1 message 1024 B)
 *       (between 1 other node: out 1 message 2048 B, in 1 message 2048 B)
 *       (scatter to 1 member: 1 message 1024 B))
 *     (fft c2c axes=0)
 *     (backward
 *       (fft c2c axes=0)
 *       (redist hierarchical 0->1 on P0 ...)
 *       (fft c2c axes=1,2)))
 * and at 2 the first step reads
 *     (fft c2c axes=1,2
 *       (dft-vrank>=1-x2/1
 *         (dft-rank>=2/1
 *           (dft-direct-8-x8 "n1fv_8_avx")
 *           (dft-direct-8-x8 "n1fv_8_avx"))))
 * Returns the length the full text needs, excluding the terminating NUL,
 * or -1 for a NULL plan or a negative verbosity. Local. */
int distfft_plan_describe_verbose(const struct distfft_plan_s *plan,
                                  int verbosity, char *buf, size_t size);

/* Time accumulated by this rank inside distfft_plan_execute, split into serial
 * FFTs (and scaling) and redistributions, since create or the last reset:
 * the host's clock around each step. For a device plan (memory cuda) that
 * is the host's time in the calls, enqueueing included, not the device's;
 * distfft_plan_step has each step's device time. */
typedef struct {
    double fft_seconds;           /* serial FFTs and scaling */
    double redistribute_seconds;  /* exchanges */
    int64_t executions;           /* distfft_plan_execute calls, both directions */
} distfft_timings;

int distfft_plan_timings(const struct distfft_plan_s *plan,
                         distfft_timings *timings); /* Local. */
int distfft_plan_reset_timings(distfft_plan plan);  /* Local. */

/* One step of a plan, read from the step object itself (paper 001's
 * accounting): serial transforms, weights and exchanges, what each costs
 * this rank, and how many bytes each exchange sends. */
typedef struct {
    /* "fft c2c axes=1,2", "redist alltoallw 2->1 on P1", "cheb-weights
     * axis=0": the step as it describes itself inside
     * distfft_plan_describe's tree. */
    char description[96];
    int is_redistribution;   /* 1 for an exchange */
    int grid_direction;      /* an exchange's grid direction (P_i), else -1 */
    int axis_in, axis_out;   /* an exchange's alignments, else -1 */
    int group_size;          /* ranks in the exchange's group, else 1 */
    distfft_method method;   /* an exchange's method (never AUTO), else AUTO */
    /* Bytes this rank sends to the other ranks of its group per execution
     * (its own chunk is copied, not sent); 0 for transforms. */
    int64_t bytes_sent;
    /* Bytes of the whole distributed array at this step, over all ranks,
     * batch included. An exchange on groups of M ranks ideally sends
     * global_bytes * (1 - 1/M) in all. */
    int64_t global_bytes;
    /* This rank's time in the step since reset. A host plan's: the clock
     * around each run of the step. A device plan's (memory cuda), whose
     * steps are enqueued on its stream and may return before their work
     * is done: the time on the stream between two CUDA events recorded
     * there before and after each run, so the device's work is counted
     * whether or not the call waited for it. Reading it (distfft_plan_step)
     * waits for the last run of the step to finish; a step's next run
     * waits for its previous one before recording again (an execute stays
     * stream-ordered, at most one execution of each step ahead). */
    double seconds;
    int64_t executions;      /* executions of this transform direction since reset */
} distfft_step;

/* Number of steps of the forward (DISTFFT_FORWARD) or backward
 * (DISTFFT_BACKWARD) transform, or -1 for a NULL plan or bad direction.
 * Local. */
int distfft_plan_step_count(const struct distfft_plan_s *plan, int direction);

/* Step `index` (0-based, in execution order) of that direction. Local. */
int distfft_plan_step(const struct distfft_plan_s *plan, int direction,
                      int index, distfft_step *step);

/* Free the plan, its work buffers and every MPI object it created; *plan
 * becomes NULL. Collective on the plan's communicator; synchronising
 * (MPI_Win_free) when an exchange uses DISTFFT_METHOD_SHM or _CUDA_IPC (see the plan's
 * steps), otherwise it waits for no rank. NULL *plan: no-op.
 * DISTFFT_ERR_MPI where an MPI free failed (the rest freed; see "Destroy
 * calls" at the top). */
int distfft_plan_destroy(distfft_plan *plan);

/* Free the plan's work buffers, FFTW plans and datatypes now, and leave
 * its windows and communicators to distfft_collect on the communicator it
 * was created on (see "Release calls" at the top); *plan becomes NULL.
 * Local: waits for no rank, whatever the methods. A NULL *plan is a
 * no-op. Errors as distfft_redist_release. */
int distfft_plan_release(distfft_plan *plan);

/* Free the windows and communicators of the objects created on comm (and
 * of the layouts, reshapes and halos made from them) that every rank of
 * comm has released (the release calls), on every rank in their creation
 * order;
 * objects some rank still holds stay queued for a later collect. One
 * MPI_Allreduce, plus one per 4096 creation numbers between the oldest and
 * newest queued objects; then the MPI_Win_free of each window, which
 * synchronises its node's ranks. Collective on comm: pass the communicator
 * the objects were created on (not one of their own duplicates); a comm
 * that no object was created on is a no-op. Errors as destroy calls':
 * DISTFFT_ERR_MPI, this rank's first failed free, agreed with no other rank
 * (the rest freed all the same). Every creation on comm (plans,
 * redistributions, layouts) and from its objects (reshapes, halos, a
 * plan's layouts) collects too (a failed free there fails the creation,
 * on every rank), and so do MPI_Comm_free(comm) and
 * MPI_Finalize (there a failure is not reported). Threads: as plan
 * creation, one thread at a time per process. */
int distfft_collect(MPI_Comm comm);

/* ------------------------------------------------------------------------ */
/* Layouts: a global array and each rank's box, as one value                 */
/* ------------------------------------------------------------------------ */

/* A layout (distfft_layout, declared with the grids above) is a global
 * shape of ndims (1..DISTFFT_MAX_DIMS) axes and, for each rank r of a
 * communicator, one box: start[ndims] and shape[ndims] (empty boxes, with
 * a 0 in shape, are allowed). The boxes tile the global array exactly --
 * no gap, no overlap, inside bounds -- which is checked once, collectively,
 * when the layout is made; a layout that exists is valid. Every rank holds
 * every rank's box (2 x ndims int64_t per rank), so the queries below are
 * local and answer alike on every rank. A layout works on its own
 * duplicate of the communicator: rank r of the layout is rank r of it.
 * Layouts are C-ordered like everything else: a box of shape (n0, n1, ...)
 * is a C array of n0 x n1 x ... elements (with a batch: `batch` of them,
 * one after the other).
 *
 * Errors when making one, on every rank with the same message (nothing
 * made, nothing the caller passed modified): DISTFFT_ERR_SHAPE for a box
 * outside the global array (naming the lowest such rank and its box),
 * boxes that overlap (naming the first pair of ranks, their boxes and the
 * overlap), or that leave a gap (naming the first element, in C order, on
 * no rank); DISTFFT_ERR_MISMATCH when ranks pass a different ndims or
 * global_shape. */

/* This rank's box is (start, shape) of an array of global_shape. Collective
 * on comm. */
int distfft_layout_from_box(MPI_Comm comm, int ndims, const int64_t *global_shape,
                            const int64_t *start, const int64_t *shape,
                            distfft_layout *layout);

/* The layout of a process grid and an alignment (the paper's Alg. 1 blocks;
 * mpi4py-fft's Pencil): ranks of comm laid row-major on a grid of
 * grid_ndims extents grid_dims (their product the size of comm; rank r at
 * the coordinates of r in row-major order, as distfft_grid_create lays
 * them); axis a is split over grid direction distributed_by[a] in
 * distfft_decompose blocks, or complete on every rank where it is -1. Each
 * direction distributes at most one axis. Collective on comm. */
int distfft_layout_from_grid(MPI_Comm comm, int ndims, const int64_t *global_shape,
                             int grid_ndims, const int *grid_dims,
                             const int *distributed_by, distfft_layout *layout);

/* The layout of a plan's input (physical, distfft_plan_input_shape) or
 * output (spectral, distfft_plan_output_shape) array: the caller's layout
 * when the plan was made with one (distfft_plan_create_layouts), else the
 * plan's own blocks. Ranks as in the plan's communicator. Collective on
 * the plan's communicator. */
int distfft_plan_input_layout(const struct distfft_plan_s *plan, distfft_layout *layout);
int distfft_plan_output_layout(const struct distfft_plan_s *plan, distfft_layout *layout);

/* Queries. All local. ndims: the number of axes (0 for NULL); size: the
 * ranks (0 for NULL); rank: this rank's number in the layout (-1 for
 * NULL). */
int distfft_layout_ndims(const struct distfft_layout_s *layout);
int distfft_layout_size(const struct distfft_layout_s *layout);
int distfft_layout_rank(const struct distfft_layout_s *layout);

/* The global shape (global_shape has room for ndims). Local. */
int distfft_layout_global_shape(const struct distfft_layout_s *layout, int64_t *global_shape);

/* Rank `rank`'s box: start and shape (either may be NULL). Local. */
int distfft_layout_box(const struct distfft_layout_s *layout, int rank, int64_t *start,
                       int64_t *shape);

/* Elements in rank `rank`'s box (one field), or -1 for a NULL layout or a
 * rank out of range. Local. */
int64_t distfft_layout_count(const struct distfft_layout_s *layout, int rank);

/* 1 when the two layouts have the same global shape and the same box on
 * every rank, on communicators of the same ranks in the same order
 * (MPI_Comm_compare: identical or congruent); 0 otherwise (NULL too).
 * Local. */
int distfft_layout_equal(const struct distfft_layout_s *a, const struct distfft_layout_s *b);

/* One line, every rank's box in rank order as numpy slices, into buf
 * (truncated to size); e.g. slabs of an 8x8x8 array on 2 ranks:
 * "(layout 8x8x8 ranks=2 [0:4,0:8,0:8] [4:8,0:8,0:8])".
 * Returns the length the full text needs (excluding the NUL), or -1 for a
 * NULL layout. Local. */
int distfft_layout_describe(const struct distfft_layout_s *layout, char *buf, size_t size);

/* Free the layout and its communicator; *layout becomes NULL. Collective on
 * the layout's communicator (MPI_Comm_free). A NULL *layout is a no-op.
 * DISTFFT_ERR_MPI where MPI_Comm_free failed (see "Destroy calls" at the
 * top). */
int distfft_layout_destroy(distfft_layout *layout);

/* Free the layout's memory now and leave its communicator to
 * distfft_collect on the communicator it was made on (a plan's layout:
 * the plan's; see "Release calls" at the top); *layout becomes NULL.
 * Reshapes and halos made from it keep working. Local. Errors as
 * distfft_redist_release. */
int distfft_layout_release(distfft_layout *layout);

/* ------------------------------------------------------------------------ */
/* Reshapes: any layout to any other layout of the same array                */
/* ------------------------------------------------------------------------ */

/* A planned reshape (opaque handle): made by distfft_reshape_create, run by
 * distfft_reshape_execute, freed by distfft_reshape_destroy or _release. */
typedef struct distfft_reshape_s *distfft_reshape;

/* A reshape's options. Fill them with distfft_reshape_options_init, then
 * set what differs; or pass NULL for the defaults. Fields that later
 * versions add take their default at zero and are set by _init, so code
 * that fills the struct with _init keeps its meaning; a struct zeroed
 * instead means DISTFFT_METHOD_ALLTOALLW with DISTFFT_ESTIMATE, host
 * memory and no stream. */
typedef struct {
    /* DISTFFT_METHOD_AUTO (the default): the methods that apply to boxes
     * timed and the fastest kept; or one of them (see distfft_reshape_
     * create). */
    distfft_method method;
    /* How AUTO decides: DISTFFT_ESTIMATE takes alltoallw untimed; the other
     * rigors time the candidates. Default DISTFFT_MEASURE. */
    distfft_rigor rigor;
    /* Where the arrays handed to distfft_reshape_execute live, the same on
     * every rank (default DISTFFT_MEMORY_HOST). Device memory
     * (DISTFFT_MEMORY_CUDA) takes the methods that apply to it (today
     * staged; AUTO times those, ESTIMATE takes the first), served by the
     * CUDA backend as plans are; where it cannot load or finds no device,
     * DISTFFT_ERR_UNSUPPORTED on every rank, saying why. */
    distfft_memory memory;
    /* DISTFFT_MEMORY_CUDA: the cudaStream_t the reshape's copies are
     * ordered on (NULL: the default stream), fixed at create; staged
     * waits for it before its messages, so execute returns with the
     * unpack enqueued on it. Must be NULL for host memory
     * (DISTFFT_ERR_ARGUMENT on every rank). */
    void *stream;
} distfft_reshape_options;

/* Fill *options with the defaults: method AUTO, rigor MEASURE, host
 * memory, no stream. Local. */
void distfft_reshape_options_init(distfft_reshape_options *options);

/* Plan moving an array from layout_in to layout_out (the same global shape
 * and ndims, communicators of the same ranks in the same order), elements
 * of `type`, with a leading batch of `batch` >= 1 fields (each a box, one
 * after the other). Each rank's piece of another rank's box is a subarray
 * of both boxes, moved by the methods of the table that plans and
 * redistributions use, built here, once; ranks whose boxes do not overlap
 * exchange nothing. Any number of axes (1..16).
 *
 * options (may be NULL: defaults) gives the method: DISTFFT_METHOD_
 * ALLTOALLW (the paper's exchange: ONE MPI_Alltoallw over subarray
 * datatypes, one per distinct piece shape), DISTFFT_METHOD_ALLTOALLV (the
 * pieces packed into one buffer, one MPI_Alltoallv, unpacked; its buffers
 * allocated here), the ISEND_* family and SENDRECV (one message per
 * overlapping rank only), or AUTO (the default): the methods that apply to
 * boxes timed as an exchange's methods are and the fastest kept -- with
 * rigor DISTFFT_ESTIMATE, alltoallw. VECTOR, SHM and HIERARCHICAL exchange
 * aligned pencils of a grid and do not apply to boxes:
 * DISTFFT_ERR_UNSUPPORTED on every rank, naming the method and why.
 *
 * Errors, on every rank alike (nothing made): DISTFFT_ERR_ARGUMENT for a
 * NULL layout on some rank -- then on that rank only, as it cannot reach
 * the others -- a bad type, batch, method or memory kind, a stream with
 * host memory; DISTFFT_ERR_MISMATCH for
 * layouts on different communicators or of different global shapes or
 * ndims; DISTFFT_ERR_UNSUPPORTED for a method that does not apply (to
 * boxes, or to the memory kind), for a memory kind this process cannot
 * serve, and for alltoallw a local box extent or batch beyond INT_MAX.
 * Collective on the layouts' communicator. */
int distfft_reshape_create(const struct distfft_layout_s *layout_in,
                           const struct distfft_layout_s *layout_out, distfft_type type,
                           int64_t batch, const distfft_reshape_options *options,
                           distfft_reshape *reshape);

/* Move the data in `direction`, the same on every rank. DISTFFT_FORWARD:
 * `in` holds this rank's box of layout_in (batch included), `out` receives
 * its box of layout_out; DISTFFT_BACKWARD: the reverse (in holds the
 * layout_out box, out receives the layout_in box). Distinct buffers; in is
 * not modified. A pointer may be NULL only where its box is empty. Another
 * direction, or a pointer not in the reshape's memory kind (a host
 * pointer to a device reshape, or the reverse once the CUDA backend is
 * loaded): DISTFFT_ERR_ARGUMENT on every rank. Collective on the
 * layouts' communicator. */
int distfft_reshape_execute(distfft_reshape reshape, const void *in, void *out, int direction);

/* One line: its method, the array, and what this rank sends forward (to
 * how many of the other ranks, how many bytes); e.g. on 2 ranks, complex
 * double slabs of an 8x8x8 array along axis 0 to slabs along axis 1, with
 * alltoallw: "(reshape alltoallw 8x8x8 complex-double sends 1/1 ranks 2048
 * bytes)". Into buf (truncated to size); returns the length the full text
 * needs, or -1 for NULL. Local. */
int distfft_reshape_describe(const struct distfft_reshape_s *reshape, char *buf, size_t size);

/* The method in use (never AUTO), or AUTO for a NULL reshape. Local. */
distfft_method distfft_reshape_method(const struct distfft_reshape_s *reshape);

/* Free the reshape, its datatypes and its communicator; *reshape becomes
 * NULL. Collective on its communicator. A NULL *reshape is a no-op.
 * DISTFFT_ERR_MPI where an MPI free failed (the rest freed; see "Destroy
 * calls" at the top). */
int distfft_reshape_destroy(distfft_reshape *reshape);

/* Free the reshape's memory and datatypes now and leave its
 * communicators to distfft_collect on the communicator its input layout
 * was made on (see "Release calls" at the top); *reshape becomes NULL.
 * Local. Errors as distfft_redist_release. */
int distfft_reshape_release(distfft_reshape *reshape);

/* A plan whose input and output are in the caller's layouts: as
 * distfft_plan_create, and layout_in (of the input, physical shape:
 * distfft_plan_input_shape) and layout_out (of the output, spectral shape:
 * distfft_plan_output_shape) -- either may be NULL: the plan's own. Where a
 * layout differs from the plan's own blocks, the plan adds a reshape step
 * at that end (forward: first step from layout_in, last step into
 * layout_out; backward the reverse), which describe() prints as
 * "(reshape in alltoallw)" / "(reshape out alltoallw)", the step table
 * counts (is_redistribution 1, grid_direction -1) and work memory holds (a
 * buffer of the plan's own block at each such end, in the plan's memory:
 * with DISTFFT_MEMORY_CUDA the reshapes run on the device as
 * distfft_reshape_create's do, on options->stream). Its method follows
 * options->method where it applies to boxes in that memory (AUTO: the
 * reshape methods timed; alltoallv and isend-waitall as asked; any
 * other: the first that applies -- alltoallw in host memory, staged in a
 * device's).
 * distfft_plan_input_block / _output_block then report this
 * rank's box of the caller's layouts. With an automatic grid
 * (options->grid_ndims 0) and row placement, the plan takes the candidate
 * grid (of those tuning would try) whose own blocks share the most bytes
 * with the caller's boxes -- none to move when the caller's layout is one
 * of the plan's -- when it keeps more than the default grid; otherwise it
 * chooses (or measures) as distfft_plan_create does. Not with options->in_place
 * (DISTFFT_ERR_UNSUPPORTED). Errors as distfft_plan_create's, and
 * DISTFFT_ERR_SHAPE for a layout of another global shape,
 * DISTFFT_ERR_MISMATCH for one on other ranks than comm's. Collective on
 * comm. */
int distfft_plan_create_layouts(MPI_Comm comm, int ndims, const int64_t *shape,
                                distfft_precision precision, const distfft_options *options,
                                const struct distfft_layout_s *layout_in,
                                const struct distfft_layout_s *layout_out, distfft_plan *plan);

/* Gather a distributed array into `global` (C-ordered, global shape) on
 * rank `root` of the layout, or scatter it from there: the blocks are the
 * layout's boxes (its tiling already checked; the root knows every box,
 * so nothing is exchanged but the data), `batch` >= 1 fields of local
 * blocks one after the other becoming `batch` global arrays one after the
 * other. Each block travels as one message into (out of) a subarray
 * datatype of the global array. local may be NULL for an empty box,
 * global off the root. Errors, on every rank alike: DISTFFT_ERR_ARGUMENT
 * for a NULL layout (on that rank only), a bad type, batch or root, a NULL
 * buffer where data is due; DISTFFT_ERR_MISMATCH for type, batch or root
 * differing between ranks; DISTFFT_ERR_UNSUPPORTED for a global axis
 * beyond INT_MAX. Collective on the layout's communicator (no duplicate
 * of it is made). */
int distfft_layout_gather(const struct distfft_layout_s *layout, distfft_type type, int64_t batch,
                          const void *local, int root, void *global);
int distfft_layout_scatter(const struct distfft_layout_s *layout, distfft_type type, int64_t batch,
                           const void *global, int root, void *local);

/* ------------------------------------------------------------------------ */
/* Wisdom: tuned choices kept for later runs (as FFTW's wisdom)              */
/* ------------------------------------------------------------------------ */

/* A plan created with method DISTFFT_METHOD_AUTO and a measuring rigor
 * records what it chose (the grid, when it measured grids, and the method
 * of every exchange) in this process's wisdom. A later plan of the same
 * configuration -- MPI library, ranks, global shape, kinds, precision,
 * batch, requested grid, placement -- takes the recorded choice instead of
 * measuring, when every rank of its communicator holds the same one.
 * Wisdom from another configuration or another MPI library is kept but
 * never applies: such plans are tuned (the documented fallback). Wisdom is
 * not thread-safe, as FFTW's is not. */

/* The whole wisdom as text (first line "distfft-wisdom 1", then one line
 * per configuration). Free it with free(). NULL if out of memory. Local. */
char *distfft_wisdom_export(void);

/* Add the choices of a text made by distfft_wisdom_export (replacing those
 * of the same configurations). A text that is not wisdom, or has a
 * corrupted line, is refused whole with DISTFFT_ERR_ARGUMENT naming the
 * line; the wisdom is then unchanged. Local: import the same text on every
 * rank (or use distfft_wisdom_import_file). */
int distfft_wisdom_import(const char *text);

/* Rank 0 writes its wisdom to path; or reads path and every rank imports
 * what it read. Errors (unwritable, unreadable or corrupted file) are
 * returned on every rank. Collective on comm. */
int distfft_wisdom_export_file(MPI_Comm comm, const char *path);
int distfft_wisdom_import_file(MPI_Comm comm, const char *path);

/* Forget all wisdom. Local. */
void distfft_wisdom_forget(void);

/* ------------------------------------------------------------------------ */
/* Serial transforms: one process's strided array, FFTW underneath           */
/* ------------------------------------------------------------------------ */

/* The serial transforms of distfft's plan steps, for one process's own
 * array: a transform along some axes of a strided array in memory, the
 * other axes a loop, planned once by FFTW (one guru64 plan) and executed on
 * any arrays of the same shape, strides and alignment. Every call here is
 * LOCAL: it needs no communicator and communicates nothing (MPI need not
 * even be initialised). The FFTW planner, wisdom and time limit are the
 * process's, shared with the FFTW plans inside distfft's parallel plans:
 * plan creation and destruction, here and there, and the wisdom calls are
 * made by one thread at a time per process (a creation that starts while
 * another thread creates or destroys a plan returns
 * DISTFFT_ERR_UNSUPPORTED; the wisdom calls are not checked);
 * distfft_serial_plan_execute may run in several threads at once, on distinct
 * arrays. The Python package's mpi4py-fft layer (distfft.mpi4py_fft.fftw)
 * runs on these calls. */

/* A planned serial transform (opaque handle): made by
 * distfft_serial_plan_create, run by distfft_serial_plan_execute, freed by
 * distfft_serial_plan_destroy. */
typedef struct distfft_serial_plan_s *distfft_serial_plan;

/* Planner flags of distfft_serial_plan_create, or-ed (FFTW's flags of the
 * same names). Without either INPUT flag the input is kept, as FFTW does,
 * except by c2r (backward r2c), which may overwrite it. */
enum {
    DISTFFT_SERIAL_DESTROY_INPUT = 1,   /* out of place: in may be overwritten */
    DISTFFT_SERIAL_PRESERVE_INPUT = 2,  /* out of place: in is left alone (not: multi-axis c2r) */
    DISTFFT_SERIAL_UNALIGNED = 4,       /* execute on arrays of any alignment (slower plans) */
    DISTFFT_SERIAL_CONSERVE_MEMORY = 8, /* FFTW_CONSERVE_MEMORY */
    DISTFFT_SERIAL_WISDOM_ONLY = 16,    /* plan only from wisdom: DISTFFT_ERR_FFTW without it */
    DISTFFT_SERIAL_COMPLEX_DATA = 32    /* dct/dst kinds on complex arrays (real and imaginary parts) */
};

/* Plan the transform of an array of `ndims` (1..DISTFFT_MAX_DIMS) axes
 * along the `naxes` distinct axes axes[0..naxes) (0..ndims-1), with
 * kinds[j] the kind of axis axes[j]; every other axis is a loop.
 *
 * Kinds (distfft_kind, one family per plan): C2C on every listed axis (a
 * complex DFT); C2C axes and one R2C axis, listed last (real-to-complex:
 * the R2C axis of n points has n/2+1 complex ones, FFTW's r2c; the other
 * listed axes are complex DFTs in the same plan); or DCT1..4, DST1..4,
 * R2HC, HC2R and DHT in any mix (real-to-real). NONE (leave the axis out of axes) and CHEB
 * (a DCT1 with distfft's weights: use DCT1) are refused.
 *
 * direction DISTFFT_FORWARD transforms as the kinds say (C2C with sign
 * -1); DISTFFT_BACKWARD runs each kind's backward transform, unnormalised
 * (FFTW's convention: forward then backward multiplies by N, see
 * distfft_kind_logical_length): C2C with sign +1, R2C's c2r (complex in,
 * real out), DCT2 <-> DCT3, DST2 <-> DST3, R2HC <-> HC2R, the others
 * themselves.
 *
 * shape is the real-space shape (for R2C, the real array's: its halved
 * axis has shape/2+1 complex points in the other array). Elements: complex
 * (_Complex, FFTW's layout) or real in `precision` (DISTFFT_LONG_DOUBLE
 * too: long double and long double _Complex, FFTW's fftwl_): C2C complex in and out,
 * R2C forward real in, complex out, backward the reverse, real-to-real real (or
 * complex with DISTFFT_SERIAL_COMPLEX_DATA). An extent may be 0 (an array
 * without elements: a plan that does nothing); a transformed axis of an
 * array with elements has at least the kind's minimum (2 for DCT1).
 *
 * in and out are the arrays FFTW plans on: overwritten while planning
 * unless rigor is DISTFFT_ESTIMATE (or wisdom has the plan), as FFTW's;
 * in == out plans in place. in_strides and out_strides give each array's
 * stride per axis in elements of its own type (any sign), or NULL for C
 * order of its shape; an in-place r2c/c2r needs both (FFTW's padded real
 * array), and strides that make FFTW refuse give DISTFFT_ERR_FFTW. rigor
 * is FFTW's planning rigor, flags the DISTFFT_SERIAL_* above, threads
 * (1..DISTFFT_MAX_THREADS) FFTW's threads in the plan (FFTW's thread
 * count is set for this plan only and restored).
 *
 * Errors name the argument: DISTFFT_ERR_ARGUMENT (NULL pointers for an
 * array with elements, axes, kinds, direction, precision, rigor, threads,
 * flags), DISTFFT_ERR_SHAPE (negative extents, axes too short for their
 * kind), DISTFFT_ERR_UNSUPPORTED (families mixed, CHEB, preserving a
 * multi-axis c2r's input, another thread in the planner), DISTFFT_ERR_FFTW
 * (FFTW made no plan; with DISTFFT_SERIAL_WISDOM_ONLY: no wisdom for it).
 * Local. */
int distfft_serial_plan_create(int ndims, const int64_t *shape, int naxes, const int *axes,
                               const distfft_kind *kinds, int direction, distfft_precision precision,
                               void *in, const int64_t *in_strides, void *out,
                               const int64_t *out_strides, distfft_rigor rigor, int flags, int threads,
                               distfft_serial_plan *plan);

/* Run the plan on in and out: the arrays it was made on, or new ones of
 * the same shapes and strides, in place exactly when the plan is, and
 * aligned as the planning arrays were (FFTW's new-array execute;
 * DISTFFT_ERR_ALIGNMENT otherwise, unless planned with
 * DISTFFT_SERIAL_UNALIGNED). Arrays without elements may be NULL. Local. */
int distfft_serial_plan_execute(const struct distfft_serial_plan_s *plan, void *in, void *out);

/* FFTW's own text of the plan (fftw_sprint_plan; "(empty)" for an array
 * without elements) into buf, truncated to size; returns the length the
 * whole text needs, without the NUL, or -1 for a NULL plan. Local. */
int distfft_serial_plan_describe(const struct distfft_serial_plan_s *plan, char *buf, size_t size);

/* Free the plan; *plan becomes NULL (a NULL *plan is a no-op). Local. */
int distfft_serial_plan_destroy(distfft_serial_plan *plan);

/* FFTW's wisdom of one precision (FFTW's export/import/forget: what
 * FFTW's planner learnt, for serial plans and the serial steps of
 * distfft's plans alike -- not distfft's wisdom above). export returns
 * FFTW's text, freed with free(), or NULL (bad precision, out of memory);
 * import adds a text made by export (DISTFFT_ERR_ARGUMENT if FFTW refuses
 * it); the _file calls write or read a file of that text
 * (DISTFFT_ERR_ARGUMENT when it cannot be written, read, or is not
 * wisdom). All local: each process has its own. */
char *distfft_serial_wisdom_export(distfft_precision precision);
int distfft_serial_wisdom_import(distfft_precision precision, const char *text);
int distfft_serial_wisdom_export_file(distfft_precision precision, const char *path);
int distfft_serial_wisdom_import_file(distfft_precision precision, const char *path);
int distfft_serial_wisdom_forget(distfft_precision precision);

/* FFTW's planning time limit in seconds for later plans of one precision
 * (negative: none, FFTW's default; FFTW_MEASURE and slower rigors then
 * stop trying plans after about that long). Local. */
int distfft_serial_set_timelimit(distfft_precision precision, double seconds);

/* ------------------------------------------------------------------------ */
/* Cost model: per-step predictions and model-ranked tuning                  */
/* ------------------------------------------------------------------------ */

/* A cost model is a small text file ("distfft-model 1", then key = value
 * lines: latencies, bandwidths inside and between nodes, the memcpy
 * bandwidth, FFT rates per kind family and precision, and the `machine` it
 * was measured on; docs/guide/tuning.md). It predicts each step of a plan
 * and lets tuning time only the candidates it ranks best
 * (distfft_options.tune_budget). */

/* Measure the model on the ranks of comm (all at once, as a transform
 * runs: FFT rates, memcpy, messages inside a node and between nodes) and
 * write it to path on rank 0. Nodes: node_size consecutive ranks (> 0), or
 * MPI_Comm_split_type's (0). rigor: FFTW's planning of the timed
 * transforms (use the plans'). Takes seconds (34 on two ranks of a 2-core
 * host); memory per rank, freed before it returns: about 2 x 32 MiB and
 * 2 x 34 MB of arrays (in an SMPI build one set for all simulated ranks,
 * whatever their count, and SMPI's packing of the datatype exchanges adds
 * about 16 MB per simulated rank: more than 512 simulated ranks are
 * refused with DISTFFT_ERR_UNSUPPORTED), and outside SMPI one more pair of
 * 128 MiB at a time (the large FFT blocks, then the largest exchanges) and
 * a buffer that evicts the caches (twice the last-level cache over the
 * node's ranks, 32 MiB to 1 GiB). Errors on every rank. Collective on
 * comm. */
int distfft_model_calibrate(MPI_Comm comm, int node_size, distfft_rigor rigor,
                            const char *path);

/* Read the model file at path (rank 0 reads) and make it this process's
 * model. A malformed file, or one calibrated with another MPI library
 * (the machine kind) unless force is nonzero, is refused with
 * DISTFFT_ERR_ARGUMENT on every rank; the previous model then stays.
 * Collective on comm. */
int distfft_model_import_file(MPI_Comm comm, const char *path, int force);

/* Forget the process's model. Local. */
void distfft_model_forget(void);

/* The model's predicted seconds of each step of a direction (in
 * distfft_plan_step's order), the slowest rank's, into seconds[count]
 * (count >= distfft_plan_step_count). DISTFFT_ERR_ARGUMENT on every rank
 * without a model. Collective on the plan's communicator. */
int distfft_plan_predict(const struct distfft_plan_s *plan, int direction,
                         double *seconds, int count);

/* The model's predicted seconds of a forward and backward pair, the
 * slowest rank's: every step of both directions (distfft_plan_predict),
 * plus the final sweep that normalises a direction's output where no step
 * could take the factor (a c2c plan's backward under the default
 * normalisation, say; one pass over the output block, priced as a weights
 * step). Errors as distfft_plan_predict. Collective on the plan's
 * communicator. */
int distfft_plan_predict_pair(const struct distfft_plan_s *plan, double *seconds);

/* ------------------------------------------------------------------------ */
/* Distributed arrays to and from .npy files (MPI-IO)                        */
/* ------------------------------------------------------------------------ */

/* One file holds the GLOBAL C-ordered array in NumPy's .npy format
 * (version 1.0 header, padded so the data starts at a multiple of 64 bytes;
 * `numpy.load(path)` reads it), whatever the ranks and grid that wrote it,
 * so it can be read back on any other rank count and decomposition. Each
 * rank reads or writes its box of a layout (distfft_layout_array_write /
 * _read below) through a subarray file view,
 * in one collective MPI_File_write_all / read_all. With batch > 1 the local
 * buffer holds `batch` blocks one after the other (as plans lay fields out)
 * and the file's array has a leading axis of length batch:
 * shape (batch, global_shape...); with batch == 1 it is global_shape.
 * Element types map to the dtypes '<c16', '<c8', '<f8', '<f4' (this
 * machine's byte order). ndims is 1..DISTFFT_MAX_DIMS; each axis below 2^31.
 *
 * write: rank 0 writes the header. The file is written under the name
 * "<path>.distfft-tmp" and renamed to path only when every rank succeeded,
 * so a failed write leaves no file that looks complete (and an existing
 * file at path untouched); the temporary file is deleted on failure.
 *
 * read: the file's dtype must be this type's, fortran_order False, its
 * shape the one asked for, and the file long enough for the data.
 *
 * Errors, on every rank with the same message: DISTFFT_ERR_ARGUMENT for a
 * file that cannot be opened or created (missing, unwritable path), is not
 * a .npy file, holds another dtype or Fortran order, or is truncated;
 * DISTFFT_ERR_SHAPE for a file of another shape;
 * DISTFFT_ERR_MISMATCH when ranks pass different type, batch or path;
 * DISTFFT_ERR_MPI when MPI-IO fails later. local may be NULL for an empty
 * box. Collective on the layout's communicator.
 */

/* What a .npy file holds: its element type and shape (shape has room for
 * DISTFFT_MAX_DIMS + 1 axes; a batched file's first axis is the batch), read
 * from its header by rank 0 and returned on every rank, so a reader can
 * plan and allocate before distfft_layout_array_read. DISTFFT_ERR_ARGUMENT for a
 * file that cannot be opened, is not .npy, or holds a dtype distfft does not
 * know or Fortran order. Collective on comm. */
int distfft_array_file_info(MPI_Comm comm, const char *path,
                            distfft_type *type, int *naxes, int64_t *shape);

/* Write / read a .npy file (format, batch, temporary file and errors as
 * described above) with the blocks of a layout (its boxes already checked
 * to tile the array): the layout's global shape and this rank's box,
 * `batch` fields. Collective on the layout's communicator. */
int distfft_layout_array_write(const struct distfft_layout_s *layout, const char *path,
                               distfft_type type, int64_t batch, const void *local);
int distfft_layout_array_read(const struct distfft_layout_s *layout, const char *path,
                              distfft_type type, int64_t batch, void *local);

/* ------------------------------------------------------------------------ */
/* Halo (ghost-cell) exchange of distributed arrays (paper 004 Sec. 3)       */
/* ------------------------------------------------------------------------ */

/* How the ghost regions travel:
 *   DATATYPES ("datatypes", the default): zero-copy. Every region a rank
 *       sends or receives is described once, at create time, by subarray
 *       datatypes of the padded array (nested in a struct type when one
 *       neighbour supplies several pieces), and each message names the
 *       array itself: no copies outside MPI.
 *   PACK ("pack"): the same messages through contiguous buffers allocated
 *       at create time: pack, send, receive, unpack (for comparison).
 * Both give bit-identical arrays. */
typedef enum {
    DISTFFT_HALO_DATATYPES = 0,
    DISTFFT_HALO_PACK = 1
} distfft_halo_variant;

/* "datatypes", "pack"; and the reverse (DISTFFT_ERR_ARGUMENT if unknown).
 * Local. */
const char *distfft_halo_variant_name(distfft_halo_variant variant);
int distfft_halo_variant_from_name(const char *name,
                                   distfft_halo_variant *variant);

/* A planned halo exchange (opaque handle): made by
 * distfft_layout_halo_create, run by distfft_halo_execute, described by
 * distfft_halo_describe, freed by distfft_halo_destroy or _release. */
typedef struct distfft_halo_s *distfft_halo;

/* Plan the ghost-cell exchange of a distributed array whose blocks are the
 * boxes of `layout` (1..16 axes): this rank holds its box, of shape
 * local_shape at global_start. The halo also needs every line of boxes
 * along each axis to tile the array -- among the ranks that share this
 * rank's ranges on all other axes, the boxes along the axis tile
 * 0..global_shape[axis] -- as the layouts of grids and bricks do; empty
 * boxes are fine.
 *
 * The array handed to execute is the PADDED block: along axis a it covers
 * global indices global_start[a] - widths_low[a] ..
 * global_start[a] + local_shape[a] + widths_high[a] - 1, i.e.
 *   padded_shape[a] = widths_low[a] + local_shape[a] + widths_high[a],
 * C order, with a leading batch dimension of `batch` >= 1 fields (each a
 * padded block, one after the other); the owned block sits at offset
 * widths_low. distfft_halo_padded_block reports it, distfft_halo_pad and
 * _unpad copy between it and an unpadded block.
 *
 * widths_low / widths_high (>= 0, per axis; widths_high may be NULL: the
 * same as widths_low) may exceed the neighbours' blocks and even the global
 * length: ghost values then come from several ranks (and, along periodic
 * axes, from several wraps). periodic[a] != 0 wraps axis a around (NULL:
 * no axis periodic). After execute every padded entry whose global index
 * lies in the array -- along periodic axes after wrapping -- holds the
 * owner's value: faces, edges and corners alike; entries beyond a
 * non-periodic boundary are never written.
 *
 * Neighbours: found from the layout's boxes; the ranks that share this
 * rank's ranges on every axis but a are its line along a, and each ghost
 * interval comes from the line members that own it. Axes are exchanged one
 * after another (those with a nonzero width, in increasing order), each
 * sending the ghost layers the earlier axes filled, so edges and corners
 * need no diagonal messages: with widths within the neighbours' blocks,
 * two messages per axis and rank. Every message is planned and its
 * datatypes (or buffers) built here, once. The halo works on its own
 * duplicate of the layout's communicator.
 *
 * Errors, on every rank alike (nothing created): negative widths or batch,
 * lines of boxes that do not tile the array, arguments that differ between
 * ranks (type, widths, periodic, batch, variant), and with DATATYPES a
 * padded extent (or batch) beyond INT_MAX (DISTFFT_ERR_UNSUPPORTED; PACK
 * has no such limit). Collective on the layout's communicator. */
int distfft_layout_halo_create(const struct distfft_layout_s *layout, distfft_type type,
                               const int64_t *widths_low, const int64_t *widths_high,
                               const int *periodic, int64_t batch,
                               distfft_halo_variant variant, distfft_halo *halo);

/* Fill the ghost entries of `array` (the padded block, batch included;
 * aligned as the element type needs) from their owners. Only ghost entries
 * are written. array may be NULL only where the padded block is empty.
 * Collective on the halo's communicator. */
int distfft_halo_execute(distfft_halo halo, void *array);

/* The padded block: padded_shape[ndims] (per field) and padded_start[ndims]
 * = global_start - widths_low (the global index of its first entry; may be
 * negative); either may be NULL. Returns the number of elements of the
 * whole padded array, batch included (what to allocate), or -1 for a NULL
 * halo. Local. */
int64_t distfft_halo_padded_block(const struct distfft_halo_s *halo,
                                  int64_t *padded_shape,
                                  int64_t *padded_start);

/* Copy the owned block (local_shape, C order, batch included; e.g. a plan's
 * input) into the interior of a padded array, or the interior back out.
 * Ghost entries are not touched. Local. */
int distfft_halo_pad(const struct distfft_halo_s *halo, const void *block,
                     void *padded);
int distfft_halo_unpad(const struct distfft_halo_s *halo, const void *padded,
                       void *block);

/* Free the halo and every MPI object it created; *halo becomes NULL.
 * Collective on its communicator; not synchronising (communicators,
 * datatypes, memory). A NULL *halo is a no-op. DISTFFT_ERR_MPI where an
 * MPI free failed (the rest freed; see "Destroy calls" at the top). */
int distfft_halo_destroy(distfft_halo *halo);

/* Free the halo's memory and datatypes now and leave its communicator to
 * distfft_collect on the communicator its layout was made on (see "Release
 * calls" at the top); *halo becomes NULL. Local. Errors as
 * distfft_redist_release. */
int distfft_halo_release(distfft_halo *halo);

/* One line: the variant, the array, the widths per axis (low:high, "p"
 * where periodic) and what this rank sends to other ranks per execution;
 * e.g. on 2 ranks, slabs of a 10x8 real double array, widths 1 on both
 * axes, both periodic (both ghost rows come from the other rank, in one
 * message): "(halo datatypes 10x8 real-double widths=1:1p,1:1p sends 1
 * message 128 bytes)". Into buf (truncated to size); returns the
 * length the full text needs, excluding the NUL, or -1 for NULL. Local. */
int distfft_halo_describe(const struct distfft_halo_s *halo, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* DISTFFT_H */
