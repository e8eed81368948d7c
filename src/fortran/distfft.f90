! distfft.f90 -- the Fortran module of distfft: `use distfft`.
!
! A thin layer over the C library through iso_c_binding (and the C shims in
! distfft_f.c). The one thing to know is the index order: Fortran arrays are
! column-major, so a Fortran array a(n1, n2, n3) is the C array
! [n3][n2][n1]. Every shape, start, kind and axis this module takes or
! returns is in FORTRAN order (axis 1 varies fastest); the module reverses
! them for the C library. options%kinds(i) is the kind of Fortran axis i;
! options%grid_dims are grid directions, not axes, and are passed as they
! are (grid direction 1 distributes C axis 0, i.e. the LAST Fortran axis).
! Starts are 0-based offsets: element a(i, j, k) of a local block is the
! global element (start(1) + i, start(2) + j, start(3) + k) in 1-based
! global indices. A batched array has the batch as its LAST Fortran axis:
! a(n1, n2, n3, batch).
!
! Communicators are the integer handles of `use mpi` (with mpi_f08, pass
! comm%MPI_VAL). Every routine takes an optional last argument ierr: the
! error code (DISTFFT_SUCCESS = 0); without it, a failure prints
! distfft_last_error() and stops. Arrays handed to the execute calls
! may be of any rank but must be contiguous, of the element kind
! the plan needs, and of exactly this rank's block size (batch included);
! wrong sizes and kinds are found on every rank before any transform, and
! agreed, so every rank returns the same error.
!
! Needs assumed-rank dummy arguments (Fortran 2018 / TS 29113: gfortran >= 9,
! ifort >= 16); otherwise Fortran 2003.
module distfft
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: error_unit
  implicit none
  private

  integer, parameter, public :: DISTFFT_MAX_DIMS = 16
  ! Error codes (distfft.h)
  integer, parameter, public :: DISTFFT_SUCCESS = 0, DISTFFT_ERR_ARGUMENT = 1, &
    DISTFFT_ERR_SHAPE = 2, DISTFFT_ERR_GRID = 3, DISTFFT_ERR_MISMATCH = 4, &
    DISTFFT_ERR_ALIGNMENT = 5, DISTFFT_ERR_UNSUPPORTED = 6, DISTFFT_ERR_MEMORY = 7, &
    DISTFFT_ERR_FFTW = 8, DISTFFT_ERR_MPI = 9
  ! Element types and precisions
  integer, parameter, public :: DISTFFT_COMPLEX_DOUBLE = 0, DISTFFT_COMPLEX_FLOAT = 1, &
    DISTFFT_REAL_DOUBLE = 2, DISTFFT_REAL_FLOAT = 3
  ! (DISTFFT_LONG_DOUBLE: C's serial transforms only; distributed plans refuse it)
  integer, parameter, public :: DISTFFT_DOUBLE = 0, DISTFFT_FLOAT = 1, DISTFFT_LONG_DOUBLE = 2
  ! Communication methods
  integer, parameter, public :: DISTFFT_METHOD_AUTO = -1, DISTFFT_METHOD_ALLTOALLW = 0, &
    DISTFFT_METHOD_ALLTOALLV = 1, DISTFFT_METHOD_ISEND_WAITALL = 2, &
    DISTFFT_METHOD_ISEND_WAITSOME = 3, DISTFFT_METHOD_ISEND_WAITALL_BLOCKED = 4, &
    DISTFFT_METHOD_ISEND_WAITSOME_BLOCKED = 5, DISTFFT_METHOD_SENDRECV = 6, &
    DISTFFT_METHOD_VECTOR = 7, DISTFFT_METHOD_SHM = 8, DISTFFT_METHOD_HIERARCHICAL = 9, &
    DISTFFT_METHOD_STAGED = 10, DISTFFT_METHOD_NCCL = 11
  ! Directions, normalisations, kinds, rigour, placement
  integer, parameter, public :: DISTFFT_FORWARD = -1, DISTFFT_BACKWARD = 1
  integer, parameter, public :: DISTFFT_NORM_BACKWARD = 0, DISTFFT_NORM_ORTHO = 1, &
    DISTFFT_NORM_FORWARD = 2, DISTFFT_NORM_NONE = 3
  integer, parameter, public :: DISTFFT_OVERLAP_AUTO = -1, DISTFFT_OVERLAP_OFF = 0, &
    DISTFFT_OVERLAP_ON = 1, DISTFFT_OVERLAP_FIELDS = 2, DISTFFT_OVERLAP_PROGRESS = 3
  integer, parameter, public :: DISTFFT_MAX_THREADS = 4096
  integer, parameter, public :: DISTFFT_C2C = 0, DISTFFT_R2C = 1, DISTFFT_DCT1 = 2, &
    DISTFFT_DCT2 = 3, DISTFFT_DCT3 = 4, DISTFFT_DCT4 = 5, DISTFFT_DST1 = 6, &
    DISTFFT_DST2 = 7, DISTFFT_DST3 = 8, DISTFFT_DST4 = 9, DISTFFT_CHEB = 10, DISTFFT_NONE = 11, &
    DISTFFT_R2HC = 12, DISTFFT_HC2R = 13, DISTFFT_DHT = 14
  integer, parameter, public :: DISTFFT_ESTIMATE = 0, DISTFFT_MEASURE = 1, &
    DISTFFT_PATIENT = 2, DISTFFT_EXHAUSTIVE = 3
  integer, parameter, public :: DISTFFT_MEMORY_HOST = 0, DISTFFT_MEMORY_CUDA = 1
  integer, parameter, public :: DISTFFT_PLACEMENT_ROW = 0, DISTFFT_PLACEMENT_MORTON = 1, &
    DISTFFT_PLACEMENT_NODE = 2
  ! Halo variants: ghost regions as datatypes of the padded array, or packed
  integer, parameter, public :: DISTFFT_HALO_DATATYPES = 0, DISTFFT_HALO_PACK = 1

  ! distfft_options of distfft.h, field for field (distfft_options_layout_matches
  ! checks the layout against the C compiler's).
  type, bind(C), public :: distfft_options
    integer(c_int) :: grid_ndims
    integer(c_int) :: grid_dims(DISTFFT_MAX_DIMS)
    integer(c_int) :: method
    integer(c_int) :: norm
    integer(c_int) :: rigor
    integer(c_int) :: destroy_input
    integer(c_int) :: kinds(DISTFFT_MAX_DIMS)
    integer(c_int64_t) :: batch
    integer(c_int) :: placement
    integer(c_int) :: node_size
    integer(c_int) :: verbose
    integer(c_int) :: threads
    integer(c_int) :: overlap
    real(c_double) :: padding(DISTFFT_MAX_DIMS)   ! per axis, Fortran order (as kinds)
    integer(c_int) :: complex_data
    integer(c_int) :: in_place
    integer(c_int) :: tune_budget   ! candidates auto times when a cost model ranks them (0: all)
    integer(c_int) :: memory        ! where the arrays live: DISTFFT_MEMORY_HOST for Fortran arrays
    type(c_ptr) :: stream           ! a CUDA plan's stream; c_null_ptr for host memory
  end type distfft_options

  ! A plan: made by distfft_plan_create, freed by distfft_plan_destroy. Its
  ! fields are the module's bookkeeping (the C handle, the element kinds and
  ! block sizes the arrays are checked against); do not set them.
  type, public :: distfft_plan
    type(c_ptr) :: handle = c_null_ptr
    integer :: comm = 0                   ! the module's duplicate, for its agreements
    integer :: ndims = 0
    integer :: input_type = -1, output_type = -1
    integer(c_int64_t) :: input_count = 0, output_count = 0   ! elements, batch included
  end type distfft_plan

  ! A redistribution: made by distfft_redist_create, run by
  ! distfft_redist_execute, freed by distfft_redist_destroy.
  type, public :: distfft_redist
    type(c_ptr) :: handle = c_null_ptr
    integer :: comm = 0
    integer :: element_type = -1
    integer(c_int64_t) :: input_count = 0, output_count = 0
  end type distfft_redist

  ! A layout: a global shape and every rank's box, checked once when made
  ! (distfft_layout_from_box), freed by distfft_layout_destroy.
  type, public :: distfft_layout
    type(c_ptr) :: handle = c_null_ptr
    integer :: ndims = 0
  end type distfft_layout

  ! A reshape between two layouts: made by distfft_reshape_create, run by
  ! distfft_reshape_execute, freed by distfft_reshape_destroy.
  type, public :: distfft_reshape
    type(c_ptr) :: handle = c_null_ptr
    integer :: comm = 0
    integer :: element_type = -1
    integer(c_int64_t) :: input_count = 0, output_count = 0
  end type distfft_reshape

  ! A halo (ghost-cell) exchange of a layout's boxes: made by
  ! distfft_layout_halo_create, run by distfft_halo_execute on the padded
  ! block (distfft_halo_padded_block), freed by distfft_halo_destroy.
  type, public :: distfft_halo
    type(c_ptr) :: handle = c_null_ptr
    integer :: comm = 0
    integer :: ndims = 0
    integer :: element_type = -1
    integer(c_int64_t) :: padded_count = 0   ! elements of the padded block, batch included
  end type distfft_halo

  public :: distfft_options_init, distfft_options_layout_matches
  public :: distfft_plan_create, distfft_plan_execute, distfft_plan_destroy
  public :: distfft_plan_input_block, distfft_plan_output_block, distfft_plan_output_shape
  public :: distfft_plan_describe
  public :: distfft_redist_create, distfft_redist_execute, distfft_redist_destroy
  public :: distfft_plan_release, distfft_redist_release, distfft_collect
  public :: distfft_last_error, distfft_error_string
  public :: distfft_array_file_info
  public :: distfft_layout_from_box, distfft_layout_box, distfft_layout_equal, distfft_layout_destroy
  public :: distfft_layout_from_grid, distfft_plan_layout, distfft_layout_describe
  public :: distfft_reshape_create, distfft_reshape_execute, distfft_reshape_destroy
  public :: distfft_plan_create_layouts
  public :: distfft_layout_gather, distfft_layout_scatter, distfft_layout_array_write, distfft_layout_array_read
  public :: distfft_layout_halo_create, distfft_halo_execute, distfft_halo_padded_block, distfft_halo_destroy
  public :: distfft_layout_release, distfft_reshape_release, distfft_halo_release
  public :: distfft_redist_describe, distfft_reshape_describe, distfft_halo_describe

  interface distfft_plan_create
    module procedure plan_create_i8, plan_create_i4
  end interface distfft_plan_create
  ! The transform in direction (DISTFFT_FORWARD: in is this rank's input
  ! block, out its output block; DISTFFT_BACKWARD: the reverse), the same
  ! on every rank: contiguous arrays of any rank, of exactly the block sizes
  ! (batch included), checked and agreed on every rank first. One specific
  ! per (in kind, out kind): c2c, r2c (forward), c2r (backward) and
  ! real-to-real plans. in is changed only with options%destroy_input.
  ! Collective.
  interface distfft_plan_execute
    module procedure execute_c16_c16, execute_c8_c8, execute_f8_c16, execute_c16_f8, &
      execute_f4_c8, execute_c8_f4, execute_f8_f8, execute_f4_f4
  end interface distfft_plan_execute
  ! Move in into out: contiguous arrays of the redistribution's element kind
  ! and exactly this rank's block sizes (batch included), checked and agreed
  ! on every rank first. Collective on the sub-communicator.
  interface distfft_redist_execute
    module procedure redist_c16, redist_c8, redist_f8, redist_f4
  end interface distfft_redist_execute

  ! Move this rank's box of layout_in (in) into its box of layout_out (out)
  ! with DISTFFT_FORWARD, or the reverse with DISTFFT_BACKWARD (in is the
  ! layout_out box, out the layout_in box): contiguous arrays of the
  ! reshape's element kind and exactly the boxes' sizes (batch included),
  ! checked and agreed on every rank first. Complex and real, double and
  ! single precision. Collective.
  interface distfft_reshape_execute
    module procedure reshape_execute_c16, reshape_execute_c8, reshape_execute_f8, reshape_execute_f4
  end interface distfft_reshape_execute

  ! Gather this rank's box of a layout (local) into the whole array (global,
  ! on rank root; any array elsewhere), or scatter it from there: arrays of
  ! the same kind, contiguous, local of the box's size and global of the
  ! global array's (batch included), checked and agreed on every rank.
  interface distfft_layout_gather
    module procedure layout_gather_c16, layout_gather_c8, layout_gather_f8, layout_gather_f4
  end interface distfft_layout_gather
  ! The reverse: the whole array (global, on rank root) into the boxes.
  interface distfft_layout_scatter
    module procedure layout_scatter_c16, layout_scatter_c8, layout_scatter_f8, layout_scatter_f4
  end interface distfft_layout_scatter
  ! Write this rank's box of a layout into a .npy file holding the global
  ! array (distfft_array.inc says how a Fortran array lies in it).
  interface distfft_layout_array_write
    module procedure layout_write_c16, layout_write_c8, layout_write_f8, layout_write_f4
  end interface distfft_layout_array_write
  ! Read this rank's box of a layout from a .npy file of the global array.
  interface distfft_layout_array_read
    module procedure layout_read_c16, layout_read_c8, layout_read_f8, layout_read_f4
  end interface distfft_layout_array_read
  ! Fill the ghost entries of the padded block from their owners: an array
  ! of the halo's element kind and of the padded block's size (batch
  ! included), checked and agreed on every rank.
  interface distfft_halo_execute
    module procedure halo_execute_c16, halo_execute_c8, halo_execute_f8, halo_execute_f4
  end interface distfft_halo_execute

  include 'distfft_c.inc'

contains

  include 'distfft_plan.inc'
  include 'distfft_array.inc'
  include 'distfft_layout.inc'
  include 'distfft_layout_calls.inc'

  ! --- errors -------------------------------------------------------------

  ! A C string as a Fortran string.
  function c_string(text) result(string)
    type(c_ptr), intent(in) :: text
    character(len=:), allocatable :: string
    character(kind=c_char), pointer :: chars(:)
    integer(c_size_t) :: length, i
    length = c_strlen(text)
    allocate(character(len=length) :: string)
    if (length == 0) return
    call c_f_pointer(text, chars, [length])
    do i = 1, length
      string(i:i) = chars(i)
    end do
  end function c_string

  ! The message of the last failed call on this rank (empty if none).
  function distfft_last_error() result(message)
    character(len=:), allocatable :: message
    message = c_string(c_last_error())
  end function distfft_last_error

  ! The static description of an error code. Local.
  function distfft_error_string(code) result(text)
    integer, intent(in) :: code
    character(len=:), allocatable :: text
    text = c_string(c_error_string(int(code, c_int)))
  end function distfft_error_string

  ! Hand rc to ierr, or stop with the message when the caller gave none.
  subroutine finish(rc, ierr)
    integer(c_int), intent(in) :: rc
    integer, intent(out), optional :: ierr
    if (present(ierr)) then
      ierr = int(rc)
    else if (rc /= DISTFFT_SUCCESS) then
      write (error_unit, '(a)') distfft_last_error()
      error stop 1
    end if
  end subroutine finish

  ! Record a failure of this rank found by the module (local).
  function fail(code, message) result(rc)
    integer, intent(in) :: code
    character(len=*), intent(in) :: message
    integer(c_int) :: rc
    rc = c_fail(int(code, c_int), message // c_null_char)
  end function fail

  ! --- options --------------------------------------------------------------

  ! Fill options with the C library's defaults (distfft_options_init). Local.
  subroutine distfft_options_init(options)
    type(distfft_options), intent(out) :: options
    call c_options_init(options)
  end subroutine distfft_options_init

  ! .true. when this compiler lays distfft_options out as the C library
  ! does: the same size and every field at the same offset.
  function distfft_options_layout_matches() result(matches)
    logical :: matches
    type(distfft_options), target :: probe
    integer(c_int64_t) :: c_layout(20), f_layout(20)
    integer(c_intptr_t) :: base
    integer(c_int) :: count
    count = c_options_layout(c_layout, 20_c_int)
    base = transfer(c_loc(probe), base)
    f_layout(1) = c_sizeof(probe)
    f_layout(2) = transfer(c_loc(probe%grid_ndims), base) - base
    f_layout(3) = transfer(c_loc(probe%grid_dims), base) - base
    f_layout(4) = transfer(c_loc(probe%method), base) - base
    f_layout(5) = transfer(c_loc(probe%norm), base) - base
    f_layout(6) = transfer(c_loc(probe%rigor), base) - base
    f_layout(7) = transfer(c_loc(probe%destroy_input), base) - base
    f_layout(8) = transfer(c_loc(probe%kinds), base) - base
    f_layout(9) = transfer(c_loc(probe%batch), base) - base
    f_layout(10) = transfer(c_loc(probe%placement), base) - base
    f_layout(11) = transfer(c_loc(probe%node_size), base) - base
    f_layout(12) = transfer(c_loc(probe%verbose), base) - base
    f_layout(13) = transfer(c_loc(probe%threads), base) - base
    f_layout(14) = transfer(c_loc(probe%overlap), base) - base
    f_layout(15) = transfer(c_loc(probe%padding), base) - base
    f_layout(16) = transfer(c_loc(probe%complex_data), base) - base
    f_layout(17) = transfer(c_loc(probe%in_place), base) - base
    f_layout(18) = transfer(c_loc(probe%tune_budget), base) - base
    f_layout(19) = transfer(c_loc(probe%memory), base) - base
    f_layout(20) = transfer(c_loc(probe%stream), base) - base
    matches = count == 20 .and. all(c_layout == f_layout)
  end function distfft_options_layout_matches

end module distfft
