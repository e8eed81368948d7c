! test_fortran_lifetime.f90 -- the Fortran release calls and collect under
! mpiexec (1-4 ranks): distfft_plan_release, distfft_redist_release and
! distfft_collect (C's, src/lifetime.c; docs/reliability.md, "Object
! lifetimes").
!
! Plans and redistributions with the shm method hold a window, whose
! MPI_Win_free waits for every rank: released at different moments on
! different ranks -- rank 0 before a collective the others make while
! still holding theirs, the last rank only after a first collect -- and
! then collected, nothing hangs. Each release is local, resets the handle
! (a second release is a no-op) and parks the module's own duplicate
! communicator with the object's; after the collects of each cycle this
! rank holds exactly the communicators and windows it held after the
! first (PMPI counters, tests/support/mpi_handle_counter.c, through
! handle_counts.c). A plan released on one rank only is freed by no
! collect until the others release it too; a plan created meanwhile
! works. The verdict is reduced over all ranks.
program test_fortran_lifetime
  use, intrinsic :: iso_c_binding
  use mpi
  use distfft
  use fortran_checks   ! rank, failures, reduce, check
  implicit none
  integer, parameter :: cycles = 12
  integer :: ranks, ierr, k
  integer :: bad_cycles = 0           ! on this rank (checked, reduced, at the end)
  integer(c_long) :: comms, windows   ! held after the first cycle
  interface
    function distfft_test_comms() bind(C, name="distfft_test_comms") result(count)
      import :: c_long
      integer(c_long) :: count
    end function distfft_test_comms
    function distfft_test_windows() bind(C, name="distfft_test_windows") result(count)
      import :: c_long
      integer(c_long) :: count
    end function distfft_test_windows
  end interface

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)
  failures = 0
  call test_release_no_op()
  do k = 1, cycles
    call test_cycle(k)
    if (k == 1) then
      comms = distfft_test_comms()
      windows = distfft_test_windows()
    end if
    if (distfft_test_comms() /= comms .or. distfft_test_windows() /= windows) bad_cycles = bad_cycles + 1
  end do
  call check(bad_cycles == 0, 'every cycle: releases at different moments, collects, no hang, and the '// &
             'communicators and windows of the released objects freed')
  call test_held_by_one()
  call reduce(failures, MPI_SUM)
  if (rank == 0) write (*, '(a, i0, a, i0, a)') 'test_fortran_lifetime: ', failures, ' failed checks (', &
    ranks, ' ranks)'
  call MPI_Finalize(ierr)
  if (failures /= 0) error stop 1

contains

  ! A 2-D c2c plan with the shm method (a window per exchange).
  subroutine make_plan(plan, rc)
    type(distfft_plan), intent(out) :: plan
    integer, intent(out) :: rc
    type(distfft_options) :: options
    call distfft_options_init(options)
    options%rigor = DISTFFT_ESTIMATE
    options%method = DISTFFT_METHOD_SHM
    call distfft_plan_create(plan, MPI_COMM_WORLD, [8, 6], DISTFFT_DOUBLE, rc, options)
  end subroutine make_plan

  ! A (9, 7) redistribution from Fortran axis 1 to axis 2, shm.
  subroutine make_redist(redist, rc)
    type(distfft_redist), intent(out) :: redist
    integer, intent(out) :: rc
    integer(c_int64_t) :: in_shape(2), out_shape(2)
    in_shape = [9_c_int64_t, block_size(7_c_int64_t)]
    out_shape = [block_size(9_c_int64_t), 7_c_int64_t]
    call distfft_redist_create(redist, MPI_COMM_WORLD, DISTFFT_REAL_DOUBLE, in_shape, 1, out_shape, 2, rc, &
                               method=DISTFFT_METHOD_SHM)
  end subroutine make_redist

  ! This rank's part of n split over the ranks (distfft_decompose's blocks).
  function block_size(n) result(local)
    integer(c_int64_t), intent(in) :: n
    integer(c_int64_t) :: local
    local = n / ranks
    if (rank < mod(n, int(ranks, c_int64_t))) local = local + 1
  end function block_size

  ! Releasing what was never made, or twice, does nothing; collect on a
  ! communicator nothing was made on does nothing.
  subroutine test_release_no_op()
    type(distfft_plan) :: plan
    type(distfft_redist) :: redist
    integer :: rc1, rc2, rc3
    call distfft_plan_release(plan, rc1)
    call distfft_redist_release(redist, rc2)
    call distfft_collect(MPI_COMM_SELF, rc3)
    call check(rc1 == DISTFFT_SUCCESS .and. rc2 == DISTFFT_SUCCESS .and. rc3 == DISTFFT_SUCCESS, &
               'release of an unmade object and collect on an unused communicator: no-ops')
  end subroutine test_release_no_op

  ! Cycle k: a plan (run once, checked on the first cycle) and a
  ! redistribution; rank 0 releases the plan before a collective the others
  ! make holding theirs, the last rank releases the redistribution only
  ! after a first collect (which then frees the plan only), and a second
  ! collect frees the rest. A second release is a no-op.
  subroutine test_cycle(k)
    integer, intent(in) :: k
    type(distfft_plan) :: plan
    type(distfft_redist) :: redist
    complex(c_double_complex), allocatable :: a(:, :), a_hat(:, :), b(:, :)
    integer(c_int64_t) :: local(2), klocal(2)
    integer :: rc, made, released, flag, i
    logical :: ok
    call make_plan(plan, rc)
    made = rc
    call make_redist(redist, rc)
    if (made == DISTFFT_SUCCESS) made = rc
    if (k == 1) then
      call check(made == DISTFFT_SUCCESS, 'shm plan and redistribution created')
      call distfft_plan_input_block(plan, local)
      call distfft_plan_output_block(plan, klocal)
      allocate(a(local(1), local(2)), b(local(1), local(2)), a_hat(klocal(1), klocal(2)))
      a = reshape([(cmplx(mod(i * 7, 13), rank, c_double_complex), i = 1, size(a))], shape(a))
      call distfft_plan_execute(plan, a, a_hat, DISTFFT_FORWARD, rc)
      call distfft_plan_execute(plan, a_hat, b, DISTFFT_BACKWARD, rc)
      call check(rc == DISTFFT_SUCCESS .and. maxval(abs(a - b)) < 1e-9_c_double, 'shm plan round trip')
    end if
    released = DISTFFT_SUCCESS
    if (rank == 0) call distfft_plan_release(plan, released)
    flag = k
    call reduce(flag, MPI_MAX)              ! the others still hold theirs here
    if (rank /= 0) call distfft_plan_release(plan, released)
    ok = released == DISTFFT_SUCCESS .and. .not. c_associated(plan%handle)
    call distfft_plan_release(plan, rc)     ! again: nothing to do
    ok = ok .and. rc == DISTFFT_SUCCESS
    if (rank /= ranks - 1 .or. ranks == 1) call distfft_redist_release(redist, rc)
    ok = ok .and. rc == DISTFFT_SUCCESS
    call distfft_collect(MPI_COMM_WORLD, rc)
    ok = ok .and. rc == DISTFFT_SUCCESS
    if (rank == ranks - 1) call distfft_redist_release(redist, rc)
    ok = ok .and. rc == DISTFFT_SUCCESS .and. .not. c_associated(redist%handle)
    call distfft_collect(MPI_COMM_WORLD, rc)
    ok = ok .and. rc == DISTFFT_SUCCESS
    if (.not. ok .or. made /= DISTFFT_SUCCESS) bad_cycles = bad_cycles + 1
  end subroutine test_cycle

  ! Rank 0 releases a plan the others keep; collects free nothing of it (a
  ! plan made meanwhile works); once the others release, a collect frees it.
  subroutine test_held_by_one()
    type(distfft_plan) :: held, other
    complex(c_double_complex), allocatable :: a(:, :), a_hat(:, :)
    integer(c_int64_t) :: local(2), klocal(2)
    integer :: rc, i
    logical :: ok
    call make_plan(held, rc)
    ok = rc == DISTFFT_SUCCESS
    if (rank == 0) call distfft_plan_release(held, rc)
    call distfft_collect(MPI_COMM_WORLD, rc)
    ok = ok .and. rc == DISTFFT_SUCCESS
    if (ranks > 1) ok = ok .and. distfft_test_windows() > windows   ! still parked (rank 0) or held
    call make_plan(other, rc)                ! its creation collects too
    ok = ok .and. rc == DISTFFT_SUCCESS
    call distfft_plan_input_block(other, local)
    call distfft_plan_output_block(other, klocal)
    allocate(a(local(1), local(2)), a_hat(klocal(1), klocal(2)))
    a = reshape([(cmplx(i, -i, c_double_complex), i = 1, size(a))], shape(a))
    call distfft_plan_execute(other, a, a_hat, DISTFFT_FORWARD, rc)
    ok = ok .and. rc == DISTFFT_SUCCESS
    call distfft_plan_destroy(other, rc)
    ok = ok .and. rc == DISTFFT_SUCCESS
    if (rank /= 0) call distfft_plan_release(held, rc)
    ok = ok .and. rc == DISTFFT_SUCCESS
    call distfft_collect(MPI_COMM_WORLD, rc)
    ok = ok .and. distfft_test_comms() == comms .and. distfft_test_windows() == windows
    call check(ok .and. rc == DISTFFT_SUCCESS, 'a plan released on one rank waits for the others')
  end subroutine test_held_by_one

end program test_fortran_lifetime
