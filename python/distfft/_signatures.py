"""
_signatures.py -- every C function the package calls, in one table, in
the C types of include/distfft.h.

This is the package's only statement of the C API's functions: _lib.py
turns each row into a ctypes declaration (argtypes, restype) and nothing
else declares one. (The compiled hot calls of _fast.c are not rows: that
file includes the header, so the compiler checks them.) A ctypes declaration cannot be checked by Python, so the
build checks the table: python/setup.py compiles check_source() against
the header with the library's compiler, one _Static_assert per row that
the function's type is exactly the row's (result, parameters, const and
all); a row that disagrees with the header, or names a function the header
lacks, fails the build. The handle, enum and struct names the rows use are
checked too (a handle is a pointer to its struct, an enum has the size of
an int), since _lib.py maps them to ctypes by those names.

Pure data and text: setup.py loads this file on its own, before the
package (which needs the built library) can be imported.
"""

# Opaque handles: typedef struct NAME_s *NAME (ctypes: a void pointer).
HANDLES = ("distfft_plan", "distfft_redist", "distfft_layout", "distfft_reshape",
           "distfft_serial_plan", "distfft_halo")

# Enums, passed and returned as C ints.
ENUMS = ("distfft_type", "distfft_precision", "distfft_placement", "distfft_method",
         "distfft_norm", "distfft_kind", "distfft_rigor", "distfft_overlap",
         "distfft_halo_variant", "distfft_memory")

# Structs the library fills or reads through a pointer: their layout is
# measured at build time (_layout.json), never written here.
STRUCTS = ("distfft_options", "distfft_reshape_options", "distfft_step", "distfft_timings")

# name: (result type, parameter types...)
SIGNATURES = {
    "distfft_decompose": ("void", "int64_t", "int", "int", "int64_t *", "int64_t *"),
    "distfft_error_string": ("const char *", "int"),
    "distfft_halo_describe": ("int", "const struct distfft_halo_s *", "char *", "size_t"),
    "distfft_halo_destroy": ("int", "distfft_halo *"),
    "distfft_halo_execute": ("int", "distfft_halo", "void *"),
    "distfft_halo_padded_block": ("int64_t", "const struct distfft_halo_s *", "int64_t *",
        "int64_t *"),
    "distfft_kind_logical_length": ("double", "distfft_kind", "int64_t"),
    "distfft_last_error": ("const char *",),
    "distfft_layout_box": ("int", "const struct distfft_layout_s *", "int", "int64_t *",
        "int64_t *"),
    "distfft_layout_describe": ("int", "const struct distfft_layout_s *", "char *", "size_t"),
    "distfft_layout_destroy": ("int", "distfft_layout *"),
    "distfft_layout_equal": ("int", "const struct distfft_layout_s *",
        "const struct distfft_layout_s *"),
    "distfft_layout_from_box": ("int", "MPI_Comm", "int", "const int64_t *", "const int64_t *",
        "const int64_t *", "distfft_layout *"),
    "distfft_layout_from_grid": ("int", "MPI_Comm", "int", "const int64_t *", "int",
        "const int *", "const int *", "distfft_layout *"),
    "distfft_layout_gather": ("int", "const struct distfft_layout_s *", "distfft_type", "int64_t",
        "const void *", "int", "void *"),
    "distfft_layout_global_shape": ("int", "const struct distfft_layout_s *", "int64_t *"),
    "distfft_layout_halo_create": ("int", "const struct distfft_layout_s *", "distfft_type",
        "const int64_t *", "const int64_t *", "const int *", "int64_t", "distfft_halo_variant",
        "distfft_halo *"),
    "distfft_layout_ndims": ("int", "const struct distfft_layout_s *"),
    "distfft_layout_rank": ("int", "const struct distfft_layout_s *"),
    "distfft_layout_scatter": ("int", "const struct distfft_layout_s *", "distfft_type",
        "int64_t", "const void *", "int", "void *"),
    "distfft_layout_size": ("int", "const struct distfft_layout_s *"),
    "distfft_method_count": ("int",),
    "distfft_model_calibrate": ("int", "MPI_Comm", "int", "distfft_rigor", "const char *"),
    "distfft_model_forget": ("void",),
    "distfft_model_import_file": ("int", "MPI_Comm", "const char *", "int"),
    "distfft_options_init": ("void", "distfft_options *"),
    "distfft_plan_create": ("int", "MPI_Comm", "int", "const int64_t *", "distfft_precision",
        "const distfft_options *", "distfft_plan *"),
    "distfft_plan_create_layouts": ("int", "MPI_Comm", "int", "const int64_t *",
        "distfft_precision", "const distfft_options *", "const struct distfft_layout_s *",
        "const struct distfft_layout_s *", "distfft_plan *"),
    "distfft_plan_describe": ("int", "const struct distfft_plan_s *", "char *", "size_t"),
    "distfft_plan_describe_verbose": ("int", "const struct distfft_plan_s *", "int", "char *",
        "size_t"),
    "distfft_plan_destroy": ("int", "distfft_plan *"),
    "distfft_plan_execute": ("int", "distfft_plan", "void *", "void *", "int"),
    "distfft_plan_grid": ("int", "const struct distfft_plan_s *", "int *", "int *"),
    "distfft_plan_input_block": ("int", "const struct distfft_plan_s *", "int64_t *", "int64_t *"),
    "distfft_plan_input_layout": ("int", "const struct distfft_plan_s *", "distfft_layout *"),
    "distfft_plan_input_shape": ("int", "const struct distfft_plan_s *", "int64_t *"),
    "distfft_plan_local_size": ("int64_t", "const struct distfft_plan_s *"),
    "distfft_plan_ndims": ("int", "const struct distfft_plan_s *"),
    "distfft_plan_output_block": ("int", "const struct distfft_plan_s *", "int64_t *",
        "int64_t *"),
    "distfft_plan_output_layout": ("int", "const struct distfft_plan_s *", "distfft_layout *"),
    "distfft_plan_output_shape": ("int", "const struct distfft_plan_s *", "int64_t *"),
    "distfft_plan_reset_timings": ("int", "distfft_plan"),
    "distfft_plan_step": ("int", "const struct distfft_plan_s *", "int", "int", "distfft_step *"),
    "distfft_plan_step_count": ("int", "const struct distfft_plan_s *", "int"),
    "distfft_plan_timings": ("int", "const struct distfft_plan_s *", "distfft_timings *"),
    "distfft_plan_types": ("int", "const struct distfft_plan_s *", "distfft_type *",
        "distfft_type *"),
    "distfft_plan_work_bytes": ("size_t", "const struct distfft_plan_s *"),
    "distfft_redist_create": ("int", "MPI_Comm", "distfft_type", "int", "const int64_t *", "int",
        "const int64_t *", "int", "int64_t", "distfft_method", "distfft_redist *"),
    "distfft_redist_describe": ("int", "const struct distfft_redist_s *", "char *", "size_t"),
    "distfft_redist_destroy": ("int", "distfft_redist *"),
    "distfft_redist_execute": ("int", "distfft_redist", "const void *", "void *"),
    "distfft_reshape_create": ("int", "const struct distfft_layout_s *",
        "const struct distfft_layout_s *", "distfft_type", "int64_t",
        "const distfft_reshape_options *", "distfft_reshape *"),
    "distfft_reshape_describe": ("int", "const struct distfft_reshape_s *", "char *", "size_t"),
    "distfft_reshape_destroy": ("int", "distfft_reshape *"),
    "distfft_reshape_execute": ("int", "distfft_reshape", "const void *", "void *", "int"),
    "distfft_reshape_method": ("distfft_method", "const struct distfft_reshape_s *"),
    "distfft_reshape_options_init": ("void", "distfft_reshape_options *"),
    "distfft_serial_plan_execute": ("int", "const struct distfft_serial_plan_s *", "void *", "void *"),
    "distfft_serial_plan_create": ("int", "int", "const int64_t *", "int", "const int *",
        "const distfft_kind *", "int", "distfft_precision", "void *", "const int64_t *", "void *",
        "const int64_t *", "distfft_rigor", "int", "int", "distfft_serial_plan *"),
    "distfft_serial_plan_describe": ("int", "const struct distfft_serial_plan_s *", "char *",
        "size_t"),
    "distfft_serial_plan_destroy": ("int", "distfft_serial_plan *"),
    "distfft_serial_set_timelimit": ("int", "distfft_precision", "double"),
    "distfft_serial_wisdom_export_file": ("int", "distfft_precision", "const char *"),
    "distfft_serial_wisdom_forget": ("int", "distfft_precision"),
    "distfft_serial_wisdom_import_file": ("int", "distfft_precision", "const char *"),
    "distfft_type_size": ("size_t", "distfft_type"),
    "distfft_wisdom_export": ("char *",),
    "distfft_wisdom_export_file": ("int", "MPI_Comm", "const char *"),
    "distfft_wisdom_forget": ("void",),
    "distfft_wisdom_import": ("int", "const char *"),
    "distfft_wisdom_import_file": ("int", "MPI_Comm", "const char *"),
}

# Every enum's words (src/vocabulary.c): distfft_<enum>_name, _from_name.
for _enum in ENUMS:
    SIGNATURES[f"{_enum}_name"] = ("const char *", _enum)
    SIGNATURES[f"{_enum}_from_name"] = ("int", "const char *", f"{_enum} *")


def check_source(signatures=SIGNATURES, handles=HANDLES, enums=ENUMS):
    """C source that compiles against distfft.h only if every row of
    `signatures` is the header's declaration and every handle and enum
    name is what the ctypes mapping takes it for."""
    lines = ['#include "distfft.h"', "",
             "#define SAME(a, b) __builtin_types_compatible_p(a, b)", ""]
    for handle in handles:
        lines.append(f"_Static_assert(SAME({handle}, struct {handle}_s *), "
                     f'"{handle} is not a handle (struct {handle}_s *)");')
    for enum in enums:
        lines.append(f"_Static_assert(sizeof({enum}) == sizeof(int), "
                     f'"{enum} is not the size of an int");')
    for name, (result, *parameters) in signatures.items():
        declared = f"{result} (*)({', '.join(parameters) or 'void'})"
        lines.append(f"_Static_assert(SAME(__typeof__(&{name}), {declared}), "
                     f'"python/distfft/_signatures.py: {name} is not {declared}");')
    return "\n".join(lines) + "\n"
