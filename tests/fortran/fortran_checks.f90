! fortran_checks.f90 -- what the Fortran tests share: this rank, the count
! of failed checks, and a check reduced over the ranks of MPI_COMM_WORLD.
module fortran_checks
  use mpi
  implicit none
  private
  public :: reduce, check
  ! This rank in MPI_COMM_WORLD (the program sets it after MPI_Init).
  integer, public :: rank = 0
  ! Checks failed so far (alike on every rank: each is reduced).
  integer, public :: failures = 0

contains

  ! In-place reduction of one default integer over all ranks: the one
  ! MPI_Allreduce call site (MPICH's `use mpi` has no interfaces for choice
  ! buffers, so gfortran compares the types of every call site).
  subroutine reduce(value, op)
    integer, intent(inout) :: value
    integer, intent(in) :: op
    integer :: values(1), mpi_error   ! not ierr: callers pass it as an argument
    values(1) = value
    call MPI_Allreduce(MPI_IN_PLACE, values, 1, MPI_INTEGER, op, MPI_COMM_WORLD, mpi_error)
    value = values(1)
  end subroutine reduce

  ! One check, reduced over the ranks (every rank calls it).
  subroutine check(ok, name)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: name
    logical :: all_ok
    integer :: flag
    flag = merge(1, 0, ok)
    call reduce(flag, MPI_MIN)
    all_ok = flag == 1
    if (.not. ok) write (*, '(a, i0, 2a)') '[rank ', rank, '] failed here: ', name
    if (.not. all_ok) then
      failures = failures + 1
      if (rank == 0) write (*, '(2a)') 'FAIL ', name
    else if (rank == 0) then
      write (*, '(2a)') 'ok   ', name
    end if
  end subroutine check

end module fortran_checks
