! test_fortran.f90 -- the Fortran module (use distfft) under mpiexec.
!
! The options layout against the C compiler's; Fortran index order (shapes,
! kinds and blocks reversed: an r2c kind on Fortran axis 1 halves axis 1,
! and a single Fourier mode lands at its Fortran indices); c2c, r2c single
! precision and batched round trips; a redistribution between Fortran
! alignments; and errors: an array of the wrong size on ONE rank, arrays of
! the wrong kind, a destroyed plan -- the same code and message on every
! rank, before any transform. The verdict is reduced over all ranks.
program test_fortran
  use, intrinsic :: iso_c_binding
  use mpi
  use distfft
  use fortran_checks   ! rank, failures, reduce, check
  implicit none
  integer :: ranks, ierr
  character(len=:), allocatable :: message

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)
  failures = 0
  call check(distfft_options_layout_matches(), 'distfft_options layout matches the C header')
  call test_index_order(1, [6, 6, 7])
  call test_index_order(2, [10, 4, 7])   ! r2c on a middle axis: transformed first all the same
  call test_single_mode()
  call test_round_trips()
  call test_redistribution()
  call test_array_file()
  call test_errors()
  call reduce(failures, MPI_SUM)
  if (rank == 0) write (*, '(a, i0, a, i0, a)') 'test_fortran: ', failures, ' failed checks (', ranks, ' ranks)'
  call MPI_Finalize(ierr)
  if (failures /= 0) error stop 1

contains

  ! The code is `code` on every rank and the message contains `text` and is
  ! the same everywhere.
  subroutine check_error(rc, code, text, name)
    integer, intent(in) :: rc, code
    character(len=*), intent(in) :: text, name
    integer :: length(2)
    message = distfft_last_error()
    length = [len(message), -len(message)]
    call reduce(length(1), MPI_MAX)
    call reduce(length(2), MPI_MAX)
    if (rc /= code .or. index(message, text) == 0) write (*, '(a, i0, a, i0, 2a)') &
      '[rank ', rank, '] code ', rc, ': ', message
    call check(rc == code .and. index(message, text) > 0 .and. length(1) == -length(2), name)
  end subroutine check_error

  ! r2c on Fortran axis `axis` of (10, 6, 7): output shape `out`, blocks,
  ! describe, round trip.
  subroutine test_index_order(axis, out)
    integer, intent(in) :: axis, out(3)
    type(distfft_plan) :: plan
    type(distfft_options) :: options
    integer(c_int64_t) :: shape(3), local(3), start(3), klocal(3)
    real(c_double), allocatable :: r(:), r_back(:)
    complex(c_double_complex), allocatable :: r_hat(:)
    integer :: total, i
    character(len=32) :: name
    write (name, '(a, i0)') 'r2c on Fortran axis ', axis
    call distfft_options_init(options)
    options%rigor = DISTFFT_ESTIMATE
    options%kinds(axis) = DISTFFT_R2C
    call distfft_plan_create(plan, MPI_COMM_WORLD, [10, 6, 7], DISTFFT_DOUBLE, ierr, options)
    call check(ierr == DISTFFT_SUCCESS, trim(name) // ': plan with default-integer Fortran shape (10, 6, 7)')
    call distfft_plan_output_shape(plan, shape)
    call check(all(shape == out), trim(name) // ': output shape')
    call distfft_plan_input_block(plan, local, start)
    total = int(product(local))
    call reduce(total, MPI_SUM)
    call check(total == 420 .and. all(start + local <= [10, 6, 7]), 'input blocks tile the Fortran shape')
    call check(index(distfft_plan_describe(plan), 'r2c') > 0, 'describe names the r2c step')
    call check(index(distfft_plan_describe(plan, verbosity=1), new_line('a') // '  (backward') > 0, &
               'describe(verbosity=1) nests the backward steps')
    call distfft_plan_output_block(plan, klocal)
    allocate(r(product(local)), r_back(product(local)), r_hat(product(klocal)))
    r = [(real(mod(i * 13 + rank, 17), c_double), i = 1, size(r))]
    call distfft_plan_execute(plan, r, r_hat, DISTFFT_FORWARD, ierr)
    call distfft_plan_execute(plan, r_hat, r_back, DISTFFT_BACKWARD, ierr)
    call check(ierr == DISTFFT_SUCCESS .and. maxval(abs(r - r_back)) < 1e-10_c_double, trim(name) // ': round trip')
    call distfft_plan_destroy(plan)
  end subroutine test_index_order

  ! exp(2 pi i (1 x/n1 + 2 y/n2 + 3 z/n3)) transforms to n1 n2 n3 at the
  ! 0-based wavenumber indices (1, 2, 3) of Fortran axes (1, 2, 3).
  subroutine test_single_mode()
    integer(c_int64_t), parameter :: n(3) = [6, 5, 8]
    type(distfft_plan) :: plan
    type(distfft_options) :: options
    complex(c_double_complex), allocatable :: u(:, :, :), u_hat(:, :, :)
    integer(c_int64_t) :: local(3), start(3), klocal(3), kstart(3), i, j, l
    real(c_double) :: phase, worst, want
    real(c_double), parameter :: two_pi = 2 * acos(-1.0_c_double)
    call distfft_options_init(options)
    options%rigor = DISTFFT_ESTIMATE
    call distfft_plan_create(plan, MPI_COMM_WORLD, n, DISTFFT_DOUBLE, ierr, options)
    call distfft_plan_input_block(plan, local, start)
    call distfft_plan_output_block(plan, klocal, kstart)
    allocate(u(local(1), local(2), local(3)), u_hat(klocal(1), klocal(2), klocal(3)))
    do l = 1, local(3)
      do j = 1, local(2)
        do i = 1, local(1)
          phase = two_pi * (real(start(1) + i - 1, c_double) / n(1) + 2 * real(start(2) + j - 1, c_double) / n(2) &
                            + 3 * real(start(3) + l - 1, c_double) / n(3))
          u(i, j, l) = cmplx(cos(phase), sin(phase), c_double_complex)
        end do
      end do
    end do
    call distfft_plan_execute(plan, u, u_hat, DISTFFT_FORWARD, ierr)
    worst = 0
    do l = 1, klocal(3)
      do j = 1, klocal(2)
        do i = 1, klocal(1)
          want = 0
          if (kstart(1) + i - 1 == 1 .and. kstart(2) + j - 1 == 2 .and. kstart(3) + l - 1 == 3) want = product(n)
          worst = max(worst, abs(u_hat(i, j, l) - want))
        end do
      end do
    end do
    call check(ierr == DISTFFT_SUCCESS .and. worst < 1e-9_c_double, 'a single mode lands at its Fortran indices')
    call distfft_plan_destroy(plan)
  end subroutine test_single_mode

  ! c2c double with a batch of 2 (batch = last Fortran axis), r2c single.
  subroutine test_round_trips()
    type(distfft_plan) :: plan
    type(distfft_options) :: options
    complex(c_double_complex), allocatable :: a(:, :, :, :), a_hat(:, :, :, :), b(:, :, :, :)
    real(c_float), allocatable :: r(:, :), r_back(:, :)
    complex(c_float_complex), allocatable :: r_hat(:, :)
    integer(c_int64_t) :: local(3), klocal(3), local2(2), klocal2(2)
    integer :: i
    call distfft_options_init(options)
    options%rigor = DISTFFT_ESTIMATE
    options%batch = 2
    call distfft_plan_create(plan, MPI_COMM_WORLD, [7_c_int64_t, 4_c_int64_t, 9_c_int64_t], DISTFFT_DOUBLE, &
                             ierr, options)
    call distfft_plan_input_block(plan, local)
    call distfft_plan_output_block(plan, klocal)
    allocate(a(local(1), local(2), local(3), 2), b(local(1), local(2), local(3), 2))
    allocate(a_hat(klocal(1), klocal(2), klocal(3), 2))
    a = reshape([(cmplx(mod(i * 37, 101), rank - i, c_double_complex), i = 1, size(a))], shape(a))
    call distfft_plan_execute(plan, a, a_hat, DISTFFT_FORWARD, ierr)
    call distfft_plan_execute(plan, a_hat, b, DISTFFT_BACKWARD, ierr)
    call check(ierr == DISTFFT_SUCCESS .and. maxval(abs(a - b)) < 1e-9_c_double, 'batched c2c round trip')
    call distfft_plan_destroy(plan)

    options%batch = 1
    options%kinds(1) = DISTFFT_R2C
    call distfft_plan_create(plan, MPI_COMM_WORLD, [12, 10], DISTFFT_FLOAT, ierr, options)
    call distfft_plan_input_block(plan, local2)
    call distfft_plan_output_block(plan, klocal2)
    allocate(r(local2(1), local2(2)), r_back(local2(1), local2(2)), r_hat(klocal2(1), klocal2(2)))
    r = reshape([(real(mod(i * 13, 17), c_float), i = 1, size(r))], shape(r))
    call distfft_plan_execute(plan, r, r_hat, DISTFFT_FORWARD, ierr)
    call distfft_plan_execute(plan, r_hat, r_back, DISTFFT_BACKWARD, ierr)
    call check(ierr == DISTFFT_SUCCESS .and. maxval(abs(r - r_back)) < 1e-4, 'r2c single-precision round trip')
    call distfft_plan_destroy(plan)
  end subroutine test_round_trips

  ! A (9, 7) array aligned in Fortran axis 1 (complete along it, axis 2
  ! split) moved to alignment in axis 2; values are the global Fortran
  ! linear index.
  subroutine test_redistribution()
    type(distfft_redist) :: redist
    integer(c_int64_t), parameter :: n(2) = [9, 7]
    integer(c_int64_t) :: in_shape(2), out_shape(2), in_start(2), out_start(2)
    real(c_double), allocatable :: a(:, :), b(:, :)
    integer(c_int64_t) :: i, j
    logical :: ok
    in_shape = [n(1), block_size(n(2), in_start(2))]
    in_start(1) = 0
    out_shape = [block_size(n(1), out_start(1)), n(2)]
    out_start(2) = 0
    allocate(a(in_shape(1), in_shape(2)), b(out_shape(1), out_shape(2)))
    do j = 1, in_shape(2)
      do i = 1, in_shape(1)
        a(i, j) = real(in_start(1) + i + n(1) * (in_start(2) + j - 1), c_double)
      end do
    end do
    call distfft_redist_create(redist, MPI_COMM_WORLD, DISTFFT_REAL_DOUBLE, in_shape, 1, out_shape, 2, ierr, &
                               method=DISTFFT_METHOD_ALLTOALLW)
    call distfft_redist_execute(redist, a, b, ierr)
    ok = ierr == DISTFFT_SUCCESS
    do j = 1, out_shape(2)
      do i = 1, out_shape(1)
        ok = ok .and. nint(b(i, j), c_int64_t) == out_start(1) + i + n(1) * (out_start(2) + j - 1)
      end do
    end do
    call check(ok, 'redistribution from Fortran axis 1 to axis 2')
    message = distfft_redist_describe(redist)   ! C order: alignment 1 -> 0
    call check(index(message, '(redist alltoallw 1->0 ') == 1, 'redistribution describe: ' // message)
    call distfft_redist_destroy(redist)
  end subroutine test_redistribution

  ! A (6, 5, 4) array with a batch of 2 written from blocks of Fortran axis
  ! 3 and read back through blocks of axis 1; the file is numpy's
  ! (2, 4, 5, 6), i.e. (6, 5, 4, 2) in Fortran order. Values: the global
  ! Fortran linear index (batch included).
  subroutine test_array_file()
    integer(c_int64_t), parameter :: n(3) = [6, 5, 4]
    character(len=64) :: path
    real(c_double), allocatable :: a(:, :, :, :), b(:, :, :, :)
    integer(c_int64_t) :: local(3), start(3), shape(DISTFFT_MAX_DIMS + 1)
    integer :: type, naxes
    logical :: ok
    type(distfft_layout) :: layout
    ! One file per rank count: ctest may run them at once.
    write (path, '(a, i0, a)') 'test_fortran_array_np', ranks, '.npy'
    local = n
    start = 0
    local(3) = block_size(n(3), start(3))
    allocate(a(local(1), local(2), local(3), 2))
    call fill_linear(a, local, start)
    call distfft_layout_from_box(layout, MPI_COMM_WORLD, n, start, local, ierr)
    if (ierr == DISTFFT_SUCCESS) call distfft_layout_array_write(layout, path, a, ierr, batch=2_c_int64_t)
    ok = ierr == DISTFFT_SUCCESS
    call distfft_layout_destroy(layout)
    call distfft_array_file_info(MPI_COMM_WORLD, path, type, naxes, shape, ierr)
    call check(ok .and. ierr == DISTFFT_SUCCESS .and. type == DISTFFT_REAL_DOUBLE .and. naxes == 4 .and. &
               all(shape(1:4) == [6, 5, 4, 2]), 'write a batched array file; its info in Fortran order')
    local = n
    start = 0
    local(1) = block_size(n(1), start(1))
    allocate(b(local(1), local(2), local(3), 2))
    call distfft_layout_from_box(layout, MPI_COMM_WORLD, n, start, local, ierr)
    if (ierr == DISTFFT_SUCCESS) call distfft_layout_array_read(layout, path, b, ierr, batch=2_c_int64_t)
    call fill_linear(a, local, start, b)
    call check(ierr == DISTFFT_SUCCESS .and. all(abs(a - b) < 0.25_c_double), 'read it back through other blocks')
    call distfft_layout_array_read(layout, path, b(:, :, :, 1), ierr, batch=2_c_int64_t)
    call check_error(ierr, DISTFFT_ERR_SHAPE, "this rank's block", 'an array file read into too small an array')
    call distfft_layout_destroy(layout)
  end subroutine test_array_file

  ! a = global Fortran linear index of each element of the block (batch
  ! last); with `like`, a is first reshaped to like's shape.
  subroutine fill_linear(a, local, start, like)
    real(c_double), allocatable, intent(inout) :: a(:, :, :, :)
    integer(c_int64_t), intent(in) :: local(3), start(3)
    real(c_double), intent(in), optional :: like(:, :, :, :)
    integer(c_int64_t), parameter :: n(3) = [6, 5, 4]
    integer(c_int64_t) :: i, j, l, f
    if (present(like)) then
      deallocate(a)
      allocate(a, mold=like)
    end if
    do f = 1, 2
      do l = 1, local(3)
        do j = 1, local(2)
          do i = 1, local(1)
            a(i, j, l, f) = real(start(1) + i + n(1) * (start(2) + j - 1 + n(2) * (start(3) + l - 1 &
                                 + n(3) * (f - 1))), c_double)
          end do
        end do
      end do
    end do
  end subroutine fill_linear

  ! This rank's part of n points split over the ranks (distfft_decompose).
  function block_size(n, start) result(count)
    integer(c_int64_t), intent(in) :: n
    integer(c_int64_t), intent(out) :: start
    integer(c_int64_t) :: count, base, extra
    base = n / ranks
    extra = mod(n, int(ranks, c_int64_t))
    count = base + merge(1_c_int64_t, 0_c_int64_t, rank < extra)
    start = rank * base + min(int(rank, c_int64_t), extra)
  end function block_size

  subroutine test_errors()
    type(distfft_plan) :: plan
    type(distfft_options) :: options
    complex(c_double_complex), allocatable :: u(:), u_hat(:)
    complex(c_float_complex), allocatable :: v(:), v_hat(:)
    integer(c_int64_t) :: local(3), klocal(3), extra
    call distfft_options_init(options)
    options%rigor = DISTFFT_ESTIMATE
    call distfft_plan_create(plan, MPI_COMM_WORLD, [8, 6, 5], DISTFFT_DOUBLE, ierr, options)
    call distfft_plan_input_block(plan, local)
    call distfft_plan_output_block(plan, klocal)
    extra = merge(1, 0, rank == ranks - 1)
    allocate(u(product(local) + extra), u_hat(product(klocal)))
    u = 0
    call distfft_plan_execute(plan, u, u_hat, DISTFFT_FORWARD, ierr)
    call check_error(ierr, DISTFFT_ERR_SHAPE, 'elements', 'an array of the wrong size on one rank')
    call check(index(message, 'rank ') > 0, 'the message names the rank')
    allocate(v(product(local)), v_hat(product(klocal)))
    call distfft_plan_execute(plan, v, v_hat, DISTFFT_FORWARD, ierr)
    call check_error(ierr, DISTFFT_ERR_ARGUMENT, 'complex-float', 'arrays of the wrong kind')
    call distfft_plan_destroy(plan)
    call distfft_plan_execute(plan, u, u_hat, DISTFFT_FORWARD, ierr)
    call check_error(ierr, DISTFFT_ERR_ARGUMENT, 'not created', 'a destroyed plan')
    call distfft_plan_create(plan, MPI_COMM_WORLD, [8, 6, 5], DISTFFT_DOUBLE, ierr, options)
    call distfft_plan_destroy(plan)
    options%kinds(2) = DISTFFT_R2C
    options%kinds(3) = DISTFFT_R2C
    call distfft_plan_create(plan, MPI_COMM_WORLD, [8, 6, 5], DISTFFT_DOUBLE, ierr, options)
    call check_error(ierr, DISTFFT_ERR_ARGUMENT, 'at most one axis can be r2c', 'r2c on two axes is refused')
  end subroutine test_errors

end program test_fortran
