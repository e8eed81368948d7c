/*
 * array_io.c -- distributed arrays to and from one .npy file with MPI-IO.
 *
 * The paper's subarray idea applied to I/O: each rank's block of the global
 * C-ordered array is an MPI subarray datatype of it, set as the rank's file
 * view after the header, so one collective MPI_File_write_all (read_all)
 * moves every block straight between the ranks' buffers and its place in
 * the file. The file holds the global array whatever the decomposition, so
 * any rank count and grid can read it back; NumPy reads it directly.
 *
 * The one thing to know: MPI-IO calls are collective, so once the file is
 * open every rank runs the same sequence (view, transfer, size, close)
 * whatever happened, and the outcome is agreed after the close; only then
 * does rank 0 rename the temporary file into place (or delete it).
 *
 * The blocks are a layout's boxes (its global shape and this rank's box),
 * already checked to tile the array.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array_header.h"
#include "device_memory.h"
#include "error.h"
#include "big_count.h"
#include "layouts/layout_value.h"
#include "types.h"

#define TEMPORARY_SUFFIX ".distfft-tmp"

/* One call's arguments, with the batch made the file's leading axis. */
typedef struct {
    const char *where;
    const char *path;
    distfft_type type;
    int naxes;                                   /* file axes */
    int64_t file_shape[ARRAY_HEADER_MAX_AXES];
    int64_t local_shape[ARRAY_HEADER_MAX_AXES];  /* batch x local block */
    int64_t file_start[ARRAY_HEADER_MAX_AXES];
    int64_t local_count;                         /* elements, batch included */
    int rank;                                    /* this rank's in the call's communicator,
                                                  * known before its first agreement */
} io_request;

static int64_t hash_text(const char *text)
{
    uint64_t hash = 14695981039346656037ull; /* FNV-1a */
    for (; *text; text++) hash = (hash ^ (unsigned char)*text) * 1099511628211ull;
    return (int64_t)(hash >> 1);
}

static int check_axes(io_request *request, int ndims, const int64_t *global_shape,
                      const int64_t *local_shape, const int64_t *global_start, int64_t batch)
{
    int first = batch > 1;
    request->naxes = ndims + first;
    request->file_shape[0] = request->local_shape[0] = batch;
    request->file_start[0] = 0;
    for (int i = 0; i < ndims; i++) {
        if (global_shape[i] < 0 || local_shape[i] < 0 || global_start[i] < 0 ||
            local_shape[i] > global_shape[i] || global_start[i] > global_shape[i] - local_shape[i])
            return error_fail(DISTFFT_ERR_SHAPE, "%s: axis %d: block of %lld at %lld does not fit in 0..%lld",
                              request->where, i, (long long)local_shape[i], (long long)global_start[i],
                              (long long)global_shape[i]);
        if (global_shape[i] > INT_MAX)
            return error_fail(DISTFFT_ERR_UNSUPPORTED, "%s: axis %d has %lld points; file views take at most %d",
                              request->where, i, (long long)global_shape[i], INT_MAX);
        request->file_shape[first + i] = global_shape[i];
        request->local_shape[first + i] = local_shape[i];
        request->file_start[first + i] = global_start[i];
    }
    if (shape_count_bounded(request->naxes, request->file_shape, 1) < 0)
        return error_fail(DISTFFT_ERR_SHAPE, "%s: the global array is too large", request->where);
    request->local_count = shape_product(request->naxes, request->local_shape);
    return DISTFFT_SUCCESS;
}

/* Local checks of the arguments; the values every rank must share go into
 * args. */
static int check_request(io_request *request, const char *path, distfft_type type, int ndims,
                         const int64_t *global_shape, const int64_t *local_shape,
                         const int64_t *global_start, int64_t batch, const void *local,
                         replicated_args *args)
{
    const char *where = request->where;
    if (!path || !*path) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: path is NULL or empty", where);
    if (!type_is_valid(type)) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: unknown element type %d", where, (int)type);
    if (ndims < 1 || ndims > DISTFFT_MAX_DIMS)
        return error_fail(DISTFFT_ERR_SHAPE, "%s: ndims = %d must be in 1..%d", where, ndims, DISTFFT_MAX_DIMS);
    if (!global_shape || !local_shape || !global_start)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: a shape or start argument is NULL", where);
    if (batch < 1) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: batch = %lld must be >= 1", where, (long long)batch);
    request->path = path;
    request->type = type;
    int rc = check_axes(request, ndims, global_shape, local_shape, global_start, batch);
    if (rc != DISTFFT_SUCCESS) return rc;
    if (!local && request->local_count > 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: local is NULL for a non-empty block", where);
    device_memory_probe();
    rc = device_memory_refuse(local, where, "local");
    if (rc != DISTFFT_SUCCESS) return rc;
    replicated_add(args, type, "element type");
    replicated_add(args, ndims, "ndims");
    replicated_add(args, batch, "batch");
    replicated_add(args, hash_text(path), "path");
    for (int i = 0; i < ndims; i++) replicated_add(args, global_shape[i], "global_shape[%d]", i);
    return DISTFFT_SUCCESS;
}

/* Record a failed MPI-IO call on `name` (keeps the first failure). */
static int io_fail(int rc, int mpi_code, const char *call, const char *name)
{
    if (rc != DISTFFT_SUCCESS || mpi_code == MPI_SUCCESS) return rc;
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    if (MPI_Error_string(mpi_code, text, &length) != MPI_SUCCESS)
        snprintf(text, sizeof text, "MPI error %d", mpi_code);
    return error_fail(DISTFFT_ERR_MPI, "%s on '%s' failed: %s", call, name, text);
}

/* Collective open; agreed. A rank whose open succeeded while another's
 * failed keeps its handle open: closing is collective and would hang. */
static int open_agreed(MPI_Comm comm, const io_request *request, const char *name, int amode,
                       MPI_File *file)
{
    *file = MPI_FILE_NULL;
    int mpi_code = MPI_File_open(comm, name, amode, MPI_INFO_NULL, file);
    int local_code = DISTFFT_SUCCESS;
    if (mpi_code != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        int length = 0;
        if (MPI_Error_string(mpi_code, text, &length) != MPI_SUCCESS) text[0] = '\0';
        if (amode & MPI_MODE_CREATE)
            local_code = error_fail(DISTFFT_ERR_ARGUMENT, "%s: cannot create '%s' (written first as '%s'): %s",
                                    request->where, request->path, name, text);
        else
            local_code = error_fail(DISTFFT_ERR_ARGUMENT, "%s: cannot open '%s': %s", request->where, name, text);
        *file = MPI_FILE_NULL;
    }
    return error_agree(comm, local_code);
}

/* The file type of this rank's block (its subarray of the file's array),
 * or the element type itself for an empty block or a failed constructor.
 * A failed commit leaves the type made: the caller frees every type that
 * is not the element type. */
static int block_filetype(const io_request *request, MPI_Datatype *filetype)
{
    MPI_Datatype element = type_mpi(request->type);
    if (request->local_count == 0) {
        *filetype = element;
        return MPI_SUCCESS;
    }
    int sizes[ARRAY_HEADER_MAX_AXES], subsizes[ARRAY_HEADER_MAX_AXES], starts[ARRAY_HEADER_MAX_AXES];
    for (int i = 0; i < request->naxes; i++) {
        sizes[i] = (int)request->file_shape[i];
        subsizes[i] = (int)request->local_shape[i];
        starts[i] = (int)request->file_start[i];
    }
    int mpi_code = MPI_Type_create_subarray(request->naxes, sizes, subsizes, starts, MPI_ORDER_C,
                                            element, filetype);
    if (mpi_code != MPI_SUCCESS) {
        *filetype = element;
        return mpi_code;
    }
    return MPI_Type_commit(filetype);
}

/* View, transfer and close: every rank makes every collective call, so a
 * failure on one rank cannot leave the others waiting. Returns this rank's
 * code; the caller agrees on it. */
static int transfer_and_close(const io_request *request, MPI_File *file, const char *name,
                              int64_t data_offset, void *local, int writing)
{
    int rc = DISTFFT_SUCCESS;
    MPI_Datatype element = type_mpi(request->type), filetype = element;
    big_message memory = {.count = 0, .type = element, .owned = 0};
    int prepared = block_filetype(request, &filetype);
    rc = io_fail(rc, prepared, "MPI_Type_create_subarray", name);
    if (prepared == MPI_SUCCESS)
        rc = io_fail(rc, big_message_create(request->local_count, element, big_count_limit(), &memory),
                     "big_message_create", name);
    int count = rc == DISTFFT_SUCCESS ? memory.count : 0;
    rc = io_fail(rc, MPI_File_set_view(*file, data_offset, element, prepared == MPI_SUCCESS ? filetype : element,
                                       "native", MPI_INFO_NULL), "MPI_File_set_view", name);
    MPI_Status status;
    if (writing) {
        rc = io_fail(rc, MPI_File_write_all(*file, local, count, memory.type, &status), "MPI_File_write_all", name);
        int64_t bytes = data_offset + shape_product(request->naxes, request->file_shape) *
                                          (int64_t)distfft_type_size(request->type);
        /* A stale longer file of the same name would keep its tail. */
        rc = io_fail(rc, MPI_File_set_size(*file, bytes), "MPI_File_set_size", name);
    } else {
        rc = io_fail(rc, MPI_File_read_all(*file, local, count, memory.type, &status), "MPI_File_read_all", name);
    }
    rc = io_fail(rc, MPI_File_close(file), "MPI_File_close", name);
    rc = io_fail(rc, big_message_free(&memory), "MPI_Type_free", name);
    if (filetype != element) rc = io_fail(rc, MPI_Type_free(&filetype), "MPI_Type_free", name);
    return rc;
}

/* On rank 0: MPI_File_delete(name), a missing file being no error. For
 * cleanup paths (the caller KEEPs the result). */
static int delete_on_root(const io_request *request, const char *name)
{
    int rc = DISTFFT_SUCCESS, class = MPI_SUCCESS;
    if (request->rank != 0) return rc;
    int mpi_code = MPI_File_delete(name, MPI_INFO_NULL);
    if (mpi_code != MPI_SUCCESS && MPI_Error_class(mpi_code, &class) == MPI_SUCCESS &&
        class == MPI_ERR_NO_SUCH_FILE)
        return DISTFFT_SUCCESS;
    return io_fail(rc, mpi_code, "MPI_File_delete", name);
}

/* After a successful write of `temporary`: rank 0 renames it to the final
 * path; agreed. */
static int publish(MPI_Comm comm, const io_request *request, const char *temporary)
{
    int local_code = DISTFFT_SUCCESS;
    if (request->rank == 0 && rename(temporary, request->path) != 0) {
        local_code = error_fail(DISTFFT_ERR_ARGUMENT, "%s: cannot rename '%s' to '%s'", request->where,
                                temporary, request->path);
        remove(temporary);
    }
    return error_agree(comm, local_code);
}

/* Rank 0 writes the header; then every rank its block. */
static int write_file(MPI_Comm comm, const io_request *request, const char *temporary, const void *local)
{
    int rc = DISTFFT_SUCCESS, rank = request->rank;
    unsigned char header[ARRAY_HEADER_MAX_BYTES];
    int header_bytes = array_header_build(request->type, request->naxes, request->file_shape, header);
    if (header_bytes < 0) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: no .npy header for this array", request->where);
    MPI_File file;
    TRY(open_agreed(comm, request, temporary, MPI_MODE_CREATE | MPI_MODE_WRONLY, &file));
    int local_code = DISTFFT_SUCCESS;
    if (rank == 0)
        local_code = io_fail(local_code, MPI_File_write_at(file, 0, header, header_bytes, MPI_BYTE, MPI_STATUS_IGNORE),
                             "MPI_File_write_at (header)", temporary);
    int transferred = transfer_and_close(request, &file, temporary, header_bytes, (void *)local, 1);
    TRY(error_agree(comm, local_code != DISTFFT_SUCCESS ? local_code : transferred));
    TRY(publish(comm, request, temporary));
    return DISTFFT_SUCCESS;
fail:
    KEEP(delete_on_root(request, temporary));
    return rc;
}

/* Write this rank's block of a checked, agreed request on comm. */
static int write_array(MPI_Comm comm, const io_request *request, const void *local)
{
    int rc = DISTFFT_SUCCESS;
    char *temporary = malloc(strlen(request->path) + sizeof TEMPORARY_SUFFIX);
    TRY(error_agree(comm, temporary ? DISTFFT_SUCCESS : error_fail(DISTFFT_ERR_MEMORY, "file name")));
    sprintf(temporary, "%s%s", request->path, TEMPORARY_SUFFIX);
    TRY(write_file(comm, request, temporary, local));
fail:
    free(temporary);
    return rc;
}

/* Does the file hold what the request asks for? On rank 0. */
static int check_header(const io_request *request, const array_header *header)
{
    char expected[16], wanted[256], found[256];
    array_header_descr(request->type, expected);
    if (strcmp(header->descr, expected) != 0)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: '%s' holds elements of dtype '%s', not '%s' (%s)",
                          request->where, request->path, header->descr, expected,
                          distfft_type_name(request->type));
    if (header->fortran_order)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: '%s' is in Fortran order; distfft reads C-ordered arrays",
                          request->where, request->path);
    int same = header->naxes == request->naxes;
    for (int i = 0; same && i < request->naxes; i++) same = header->shape[i] == request->file_shape[i];
    if (!same) {
        shape_format(header->naxes, header->shape, found, sizeof found);
        shape_format(request->naxes, request->file_shape, wanted, sizeof wanted);
        return error_fail(DISTFFT_ERR_SHAPE, "%s: '%s' holds an array of shape %s, not %s", request->where,
                          request->path, header->naxes ? found : "() (a scalar)", wanted);
    }
    int64_t data_bytes = shape_product(header->naxes, header->shape) * (int64_t)distfft_type_size(request->type);
    if (header->file_bytes - header->data_offset < data_bytes)
        return error_fail(DISTFFT_ERR_ARGUMENT, "%s: '%s' is truncated: its %lld-byte header announces %lld bytes"
                          " of data, the file holds %lld", request->where, request->path,
                          (long long)header->data_offset, (long long)data_bytes,
                          (long long)(header->file_bytes - header->data_offset));
    return DISTFFT_SUCCESS;
}

/* Rank 0 reads and parses the header of the open file (and checks it
 * against the request, if any); agreed, then every rank gets it. */
static int read_header(MPI_Comm comm, const io_request *request, MPI_File file, array_header *header)
{
    int rc = DISTFFT_SUCCESS, rank = request->rank;
    int local_code = DISTFFT_SUCCESS;
    memset(header, 0, sizeof *header);
    if (rank == 0) {
        unsigned char bytes[ARRAY_HEADER_PROBE_BYTES];
        MPI_Offset size = 0;
        local_code = io_fail(local_code, MPI_File_get_size(file, &size), "MPI_File_get_size", request->path);
        int probe = size < (MPI_Offset)sizeof bytes ? (int)size : (int)sizeof bytes;
        MPI_Status status;
        local_code = io_fail(local_code, MPI_File_read_at(file, 0, bytes, probe, MPI_BYTE, &status),
                             "MPI_File_read_at (header)", request->path);
        char why[200];
        if (local_code == DISTFFT_SUCCESS &&
            array_header_parse(bytes, (size_t)probe, header, why, sizeof why) != DISTFFT_SUCCESS)
            local_code = error_fail(DISTFFT_ERR_ARGUMENT, "%s: '%s' is %s", request->where, request->path, why);
        header->file_bytes = size;
        if (local_code == DISTFFT_SUCCESS && request->naxes > 0) local_code = check_header(request, header);
    }
    TRY(error_agree(comm, local_code));
    TRY_MPI(MPI_Bcast(header, (int)sizeof *header, MPI_BYTE, 0, comm));
fail:
    return rc;
}

/* Read this rank's block of a checked, agreed request on comm. */
static int read_array(MPI_Comm comm, const io_request *request, void *local)
{
    int rc = DISTFFT_SUCCESS;
    MPI_File file = MPI_FILE_NULL;
    TRY(open_agreed(comm, request, request->path, MPI_MODE_RDONLY, &file));
    array_header header;
    int local_code = read_header(comm, request, file, &header);
    if (local_code == DISTFFT_SUCCESS)
        local_code = transfer_and_close(request, &file, request->path, header.data_offset, local, 0);
    else
        local_code = io_fail(local_code, MPI_File_close(&file), "MPI_File_close", request->path);
    TRY(error_agree(comm, local_code));
fail:
    return rc;
}

/* The one implementation: checks from the layout's global shape and this
 * rank's box (its tiling is known), one agreement, the transfer. */
static int layout_io(const struct distfft_layout_s *layout, const char *path, distfft_type type, int64_t batch,
                     void *local, int writing, const char *where)
{
    error_clear();
    if (!layout) return error_fail(DISTFFT_ERR_ARGUMENT, "%s: layout is NULL", where);
    io_request request = {.where = where, .rank = layout->rank};
    replicated_args args;
    replicated_init(&args);
    int local_code = check_request(&request, path, type, layout->ndims, layout->global_shape,
                                   layout_shape(layout, layout->rank), layout_start(layout, layout->rank), batch,
                                   local, &args);
    int rc = error_agree_replicated(layout->comm, local_code, &args);
    if (rc != DISTFFT_SUCCESS) return rc;
    return writing ? write_array(layout->comm, &request, local) : read_array(layout->comm, &request, local);
}

int distfft_layout_array_write(const struct distfft_layout_s *layout, const char *path, distfft_type type,
                               int64_t batch, const void *local)
{
    return layout_io(layout, path, type, batch, (void *)local, 1, "distfft_layout_array_write");
}

int distfft_layout_array_read(const struct distfft_layout_s *layout, const char *path, distfft_type type,
                              int64_t batch, void *local)
{
    return layout_io(layout, path, type, batch, local, 0, "distfft_layout_array_read");
}

int distfft_array_file_info(MPI_Comm user_comm, const char *path, distfft_type *type, int *naxes,
                            int64_t *shape)
{
    io_request request = {.where = "distfft_array_file_info", .path = path};
    MPI_Comm comm = MPI_COMM_NULL;
    MPI_File file = MPI_FILE_NULL;
    int rc = DISTFFT_SUCCESS;
    error_clear();
    int local_code = DISTFFT_SUCCESS;
    if (user_comm == MPI_COMM_NULL || !path || !*path || !type || !naxes || !shape)
        local_code = error_fail(DISTFFT_ERR_ARGUMENT, "%s: comm is MPI_COMM_NULL, or an argument is NULL or empty",
                                request.where);
    if (user_comm == MPI_COMM_NULL) return local_code;
    TRY_MPI(MPI_Comm_dup(user_comm, &comm));
    /* local calls, failing on some ranks only: agreed with the checks */
    if (local_code == DISTFFT_SUCCESS) local_code = CHECK_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
    if (local_code == DISTFFT_SUCCESS) local_code = CHECK_MPI(MPI_Comm_rank(comm, &request.rank));
    TRY(error_agree(comm, local_code));
    TRY(open_agreed(comm, &request, path, MPI_MODE_RDONLY, &file));
    array_header header;
    local_code = read_header(comm, &request, file, &header);
    local_code = io_fail(local_code, MPI_File_close(&file), "MPI_File_close", path);
    TRY(local_code);
    /* Same header on every rank: the same verdict everywhere. */
    int known = -1;
    for (int t = DISTFFT_COMPLEX_DOUBLE; t <= DISTFFT_REAL_FLOAT && known < 0; t++) {
        char descr[16];
        if (array_header_descr((distfft_type)t, descr) == 0 && strcmp(descr, header.descr) == 0) known = t;
    }
    if (known < 0 || header.fortran_order) {
        rc = error_fail(DISTFFT_ERR_ARGUMENT, "%s: '%s' holds %s'%s' elements, which distfft cannot read",
                        request.where, path, header.fortran_order ? "Fortran-ordered " : "", header.descr);
        goto fail;
    }
    *type = (distfft_type)known;
    *naxes = header.naxes;
    memcpy(shape, header.shape, (size_t)header.naxes * sizeof *shape);
fail:
    if (comm != MPI_COMM_NULL) KEEP_MPI(MPI_Comm_free(&comm));
    return rc;
}
