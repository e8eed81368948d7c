! test_fortran_layouts.f90 -- layouts, reshapes and plans in layouts from
! the Fortran module (issue 22), under mpiexec; also the manual's Fortran
! example (docs/guide/layouts.md).
!
! A 6 x 5 x 4 array (Fortran order) split along Fortran axis 1 on the way
! in and along axis 2 on the way out: a reshape between them reproduces
! a(i, j, k) = its 1-based Fortran linear index exactly, both ways; a c2c
! plan with those layouts returns the input after forward and backward,
! and its (0, 0, 0) mode is the sum of the input; overlapping boxes give
! the same error on every rank.
!
! The calls that take a layout (layout_calls): the array scattered from
! rank 0 into the axis-2 blocks, doubled, gathered on the last rank: twice
! the array. That gathered array, broadcast, is the reference for the
! rest: a batch of two fields written from the axis-2 blocks and read into
! the axis-1 blocks; a periodic halo of width 1 on the axis-2 blocks,
! where every padded entry must hold the gathered value at its wrapped
! global index; a local array of the wrong size on rank 0 gives the same
! error on every rank. The verdict is reduced over all ranks.
program test_fortran_layouts
  use, intrinsic :: iso_c_binding
  use mpi
  use distfft
  implicit none
  integer(c_int64_t), parameter :: n(3) = [6_c_int64_t, 5_c_int64_t, 4_c_int64_t]
  integer :: rank, ranks, ierr, failures, values(1)
  type(distfft_layout) :: split1, split2, bad, grid1, side
  type(distfft_reshape) :: reshape
  type(distfft_plan) :: plan
  integer(c_int64_t) :: start1(3), shape1(3), start2(3), shape2(3)
  real(c_double), allocatable :: a(:, :, :), b(:, :, :), c(:, :, :)
  complex(c_double_complex), allocatable :: u(:, :, :), u_hat(:, :, :), v(:, :, :)
  character(len=:), allocatable :: message
  logical :: same

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)
  failures = 0

  ! This rank's boxes: a block of Fortran axis 1, then of axis 2.
  start1 = 0
  shape1 = n
  call block(n(1), shape1(1), start1(1))
  start2 = 0
  shape2 = n
  call block(n(2), shape2(2), start2(2))
  call distfft_layout_from_box(split1, MPI_COMM_WORLD, n, start1, shape1)
  call distfft_layout_from_box(split2, MPI_COMM_WORLD, n, start2, shape2)
  same = distfft_layout_equal(split1, split2)
  call check(ranks == 1 .or. .not. same, 'the two layouts differ')

  ! A reshape, both ways, exact.
  allocate(a(shape1(1), shape1(2), shape1(3)), c(shape1(1), shape1(2), shape1(3)))
  allocate(b(shape2(1), shape2(2), shape2(3)))
  call fill(a, start1)
  call distfft_reshape_create(reshape, split1, split2, DISTFFT_REAL_DOUBLE)
  call distfft_reshape_execute(reshape, a, b, DISTFFT_FORWARD)
  call check(matches(b, start2), 'reshape forward: every element at its place')
  call distfft_reshape_execute(reshape, b, c, DISTFFT_BACKWARD)
  call check(all(c == a), 'reshape backward: the input again')
  message = distfft_reshape_describe(reshape)
  call check(index(message, '(reshape ') == 1 .and. index(message, ' 4x5x6 real-double ') > 0, &
             'reshape describe: ' // message)
  call distfft_reshape_release(reshape, ierr)   ! its communicators wait for the collect below
  call check(ierr == DISTFFT_SUCCESS .and. .not. c_associated(reshape%handle), 'reshape release: local')

  ! A c2c plan whose input is split1 and output split2.
  call distfft_plan_create_layouts(plan, MPI_COMM_WORLD, n, DISTFFT_DOUBLE, split1, split2)
  allocate(u(shape1(1), shape1(2), shape1(3)), v(shape1(1), shape1(2), shape1(3)))
  allocate(u_hat(shape2(1), shape2(2), shape2(3)))
  u = cmplx(a, 0, c_double_complex)
  call distfft_plan_execute(plan, u, u_hat, DISTFFT_FORWARD)
  call distfft_plan_execute(plan, u_hat, v, DISTFFT_BACKWARD)
  call check(maxval(abs(v - u)) < 1e-12_c_double * maxval(abs(u) + 1), 'plan in layouts: backward(forward(u)) = u')
  if (all(start2 == 0) .and. all(shape2 > 0)) then
    call check(abs(u_hat(1, 1, 1) - 120 * 121 / 2) < 1e-9_c_double, 'plan in layouts: mode 0 = sum')
  else
    call check(.true., 'plan in layouts: mode 0 = sum')
  end if
  call distfft_plan_destroy(plan)

  ! The same layouts from a grid and an alignment, and from the plan's sides.
  call distfft_layout_from_grid(grid1, MPI_COMM_WORLD, n, [ranks], [0, -1, -1])
  same = distfft_layout_equal(grid1, split1)
  call check(same, 'from_grid: split along Fortran axis 1 == from_box')
  call distfft_plan_create_layouts(plan, MPI_COMM_WORLD, n, DISTFFT_DOUBLE, split1, split2)
  call distfft_plan_layout(plan, .true., side)
  same = distfft_layout_equal(side, split2)
  call check(same, 'the plan''s output layout is split2')
  message = distfft_layout_describe(side)
  call check(index(message, '(layout 4x5x6 ranks=') == 1, 'describe: ' // message)
  call distfft_layout_release(side, ierr)
  call check(ierr == DISTFFT_SUCCESS .and. .not. c_associated(side%handle), 'a plan''s layout released')
  call distfft_layout_destroy(grid1)
  call distfft_plan_destroy(plan)

  ! Overlapping boxes (every rank claims the whole array): an error on every rank.
  if (ranks > 1) then
    call distfft_layout_from_box(bad, MPI_COMM_WORLD, n, [0_c_int64_t, 0_c_int64_t, 0_c_int64_t], n, ierr)
    message = distfft_last_error()
    call check(ierr == DISTFFT_ERR_SHAPE .and. index(message, 'overlap') > 0, &
               'overlapping boxes: DISTFFT_ERR_SHAPE on every rank')
  end if

  call layout_calls(split2, start2, shape2, split1, start1, shape1)
  call distfft_layout_destroy(split1)
  call distfft_layout_destroy(split2)
  call distfft_collect(MPI_COMM_WORLD, ierr)
  call check(ierr == DISTFFT_SUCCESS, 'collect frees what was released')
  values(1) = failures
  call MPI_Allreduce(MPI_IN_PLACE, values, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) write (*, '(a, i0, a, i0, a)') 'test_fortran_layouts: ', values(1), ' failed checks (', &
    ranks, ' ranks)'
  call MPI_Finalize(ierr)
  if (values(1) /= 0) error stop 1

contains

  ! Scatter, gather, array files and a halo from layouts (see the top).
  subroutine layout_calls(slabs, start_s, shape_s, rows, start_r, shape_r)
    type(distfft_layout), intent(in) :: slabs, rows
    integer(c_int64_t), intent(in) :: start_s(3), shape_s(3), start_r(3), shape_r(3)
    real(c_double), allocatable :: whole(:, :, :), gathered(:, :, :), x(:, :, :), fields(:, :, :, :)
    real(c_double), allocatable :: back(:, :, :, :), padded(:, :, :), wrong(:)
    type(distfft_halo) :: halo
    integer(c_int64_t) :: padded_shape(3), padded_start(3), g(3)
    integer :: i, j, k, last, codes(2)
    character(len=64) :: path
    logical :: ok
    last = ranks - 1
    allocate(whole(n(1), n(2), n(3)), gathered(n(1), n(2), n(3)), x(shape_s(1), shape_s(2), shape_s(3)))
    call fill(whole, [0_c_int64_t, 0_c_int64_t, 0_c_int64_t])
    call distfft_layout_scatter(slabs, whole, 0, x, ierr)
    call check(ierr == DISTFFT_SUCCESS .and. matches(x, start_s), 'layout scatter: every element at its place')
    x = 2 * x
    gathered = -1
    call distfft_layout_gather(slabs, x, last, gathered, ierr)
    call check(ierr == DISTFFT_SUCCESS .and. all(gathered == merge(2 * whole, gathered * 0 - 1, rank == last)), &
               'layout gather: twice the array on the last rank, nothing written elsewhere')
    call MPI_Bcast(gathered, size(gathered), MPI_DOUBLE_PRECISION, last, MPI_COMM_WORLD, ierr)

    ! Two fields written from the slabs, read into the rows.
    allocate(fields(shape_s(1), shape_s(2), shape_s(3), 2), back(shape_r(1), shape_r(2), shape_r(3), 2))
    fields(:, :, :, 1) = x
    fields(:, :, :, 2) = -x
    write (path, '(a, i0, a)') 'test_fortran_layouts_np', ranks, '.npy'
    call distfft_layout_array_write(slabs, trim(path), fields, ierr, batch=2_c_int64_t)
    call check(ierr == DISTFFT_SUCCESS, 'layout array write, batch 2')
    back = 0
    call distfft_layout_array_read(rows, trim(path), back, ierr, batch=2_c_int64_t)
    ok = ierr == DISTFFT_SUCCESS
    do k = 1, int(shape_r(3))
      do j = 1, int(shape_r(2))
        do i = 1, int(shape_r(1))
          g = start_r + [i, j, k]
          ok = ok .and. back(i, j, k, 1) == gathered(g(1), g(2), g(3)) .and. &
               back(i, j, k, 2) == -gathered(g(1), g(2), g(3))
        end do
      end do
    end do
    call check(ok, 'layout array read into other boxes: the gathered array, both fields')
    if (rank == 0) then
      open (unit=11, file=trim(path), status='old', iostat=ierr)
      if (ierr == 0) close (11, status='delete')
    end if

    ! A periodic halo of width 1 on the slabs.
    call distfft_layout_halo_create(halo, slabs, DISTFFT_REAL_DOUBLE, [1_c_int64_t, 1_c_int64_t, 1_c_int64_t], &
                                    ierr, periodic=[.true., .true., .true.])
    call check(ierr == DISTFFT_SUCCESS, 'layout halo create')
    call distfft_halo_padded_block(halo, padded_shape, padded_start)
    call check(all(padded_shape == shape_s + 2) .and. all(padded_start == start_s - 1), 'halo: the padded block')
    allocate(padded(padded_shape(1), padded_shape(2), padded_shape(3)))
    padded = -7
    padded(2:shape_s(1) + 1, 2:shape_s(2) + 1, 2:shape_s(3) + 1) = x
    call distfft_halo_execute(halo, padded, ierr)
    ok = ierr == DISTFFT_SUCCESS
    do k = 1, int(padded_shape(3))
      do j = 1, int(padded_shape(2))
        do i = 1, int(padded_shape(1))
          g = modulo(padded_start + [i, j, k] - 1, n) + 1
          ok = ok .and. padded(i, j, k) == gathered(g(1), g(2), g(3))
        end do
      end do
    end do
    call check(ok, 'halo execute: every padded entry holds the gathered value at its wrapped index')
    message = distfft_halo_describe(halo)
    call check(index(message, '(halo datatypes 4x5x6 real-double widths=1:1p,1:1p,1:1p sends ') == 1, &
               'halo describe: ' // message)
    call distfft_halo_release(halo, ierr)
    call check(ierr == DISTFFT_SUCCESS .and. .not. c_associated(halo%handle), 'halo release: local')

    ! A local array of the wrong size on rank 0 only: the same error everywhere.
    allocate(wrong(merge(size(x) + 1, size(x), rank == 0)))
    wrong = 0
    call distfft_layout_gather(slabs, wrong, 0, gathered, ierr)
    codes = [ierr, -ierr]
    call MPI_Allreduce(MPI_IN_PLACE, codes, 2, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
    call check(codes(1) /= DISTFFT_SUCCESS .and. codes(1) == -codes(2), &
               'layout gather: a wrong local size on rank 0 fails on every rank alike')
  end subroutine layout_calls

  ! Balanced block of m points for this rank (Alg. 1: the first m mod P one more).
  subroutine block(m, length, first)
    integer(c_int64_t), intent(in) :: m
    integer(c_int64_t), intent(out) :: length, first
    integer(c_int64_t) :: q, r
    q = m / ranks
    r = mod(m, int(ranks, c_int64_t))
    length = q + merge(1_c_int64_t, 0_c_int64_t, rank < r)
    first = rank * q + min(int(rank, c_int64_t), r)
  end subroutine block

  subroutine fill(x, start)
    real(c_double), intent(out) :: x(:, :, :)
    integer(c_int64_t), intent(in) :: start(3)
    integer :: i, j, k
    do k = 1, size(x, 3)
      do j = 1, size(x, 2)
        do i = 1, size(x, 1)
          x(i, j, k) = real(start(1) + i + n(1) * (start(2) + j - 1 + n(2) * (start(3) + k - 1)), c_double)
        end do
      end do
    end do
  end subroutine fill

  logical function matches(x, start)
    real(c_double), intent(in) :: x(:, :, :)
    integer(c_int64_t), intent(in) :: start(3)
    real(c_double), allocatable :: expected(:, :, :)
    allocate(expected(size(x, 1), size(x, 2), size(x, 3)))
    call fill(expected, start)
    matches = all(x == expected)
  end function matches

  subroutine check(ok, name)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: name
    if (.not. ok) then
      failures = failures + 1
      write (*, '(a, i0, 2a)') 'rank ', rank, ': FAIL ', name
    end if
  end subroutine check
end program test_fortran_layouts
