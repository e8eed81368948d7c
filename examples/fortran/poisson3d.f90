! poisson3d.f90 -- a 3-D Poisson solve with distfft's Fortran module.
!
! Solve -laplace(u) = f on the periodic box [0, 2 pi)^3 for the manufactured
! solution u = sin(x) cos(2y) sin(3z) + cos(x + z), whose right-hand side
! is f = 14 sin(x) cos(2y) sin(3z) + 2 cos(x + z): forward-transform f
! (real to complex along x), divide by |k|^2, transform back, and compare
! with u. Fortran order throughout: the array is f(nx, ny, nz), x varying
! fastest, and options%kinds(1) is the kind of x.
!
!   mpiexec -n 4 ./poisson3d            # 32 x 24 x 20
!   mpiexec -n 4 ./poisson3d 64 64 64
program poisson3d
  use, intrinsic :: iso_c_binding, only: c_double, c_double_complex, c_int64_t
  use mpi
  use distfft
  implicit none
  real(c_double), parameter :: pi = acos(-1.0_c_double)
  integer(c_int64_t) :: n(3) = [32_c_int64_t, 24_c_int64_t, 20_c_int64_t]
  integer(c_int64_t) :: local(3), start(3), klocal(3), kstart(3)
  real(c_double), allocatable :: f(:, :, :), u(:, :, :), exact(:, :, :)
  complex(c_double_complex), allocatable :: f_hat(:, :, :)
  type(distfft_options) :: options
  type(distfft_plan) :: plan
  real(c_double) :: error, x, y, z
  integer :: ierr, rank, ranks, i, j, l
  character(len=32) :: argument

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)
  if (command_argument_count() == 3) then
    do i = 1, 3
      call get_command_argument(i, argument)
      read (argument, *) n(i)
    end do
  end if

  ! Real input, r2c along x (Fortran axis 1); FFTW_ESTIMATE keeps it quick.
  call distfft_options_init(options)
  options%kinds(1) = DISTFFT_R2C
  options%rigor = DISTFFT_ESTIMATE
  call distfft_plan_create(plan, MPI_COMM_WORLD, n, DISTFFT_DOUBLE, ierr, options)
  if (ierr /= DISTFFT_SUCCESS) then
    if (rank == 0) write (*, '(a)') distfft_last_error()
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if

  ! This rank's blocks: f(i, j, l) is the global point (start + (i, j, l)),
  ! 1-based; f_hat(i, j, l) the wavenumber index (kstart + (i, j, l)).
  call distfft_plan_input_block(plan, local, start)
  call distfft_plan_output_block(plan, klocal, kstart)
  allocate(f(local(1), local(2), local(3)), u(local(1), local(2), local(3)), exact(local(1), local(2), local(3)))
  allocate(f_hat(klocal(1), klocal(2), klocal(3)))
  do l = 1, int(local(3))
    z = 2 * pi * (start(3) + l - 1) / n(3)
    do j = 1, int(local(2))
      y = 2 * pi * (start(2) + j - 1) / n(2)
      do i = 1, int(local(1))
        x = 2 * pi * (start(1) + i - 1) / n(1)
        f(i, j, l) = 14 * sin(x) * cos(2 * y) * sin(3 * z) + 2 * cos(x + z)
        exact(i, j, l) = sin(x) * cos(2 * y) * sin(3 * z) + cos(x + z)
      end do
    end do
  end do

  call distfft_plan_execute(plan, f, f_hat, DISTFFT_FORWARD)
  do l = 1, int(klocal(3))
    do j = 1, int(klocal(2))
      do i = 1, int(klocal(1))
        f_hat(i, j, l) = f_hat(i, j, l) * inverse_k2(kstart(1) + i - 1, kstart(2) + j - 1, kstart(3) + l - 1)
      end do
    end do
  end do
  call distfft_plan_execute(plan, f_hat, u, DISTFFT_BACKWARD)

  error = 0
  if (size(u) > 0) error = maxval(abs(u - exact))
  call MPI_Allreduce(MPI_IN_PLACE, error, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (rank == 0) write (*, '(a, i0, a, i0, a, i0, a, i0, a, es9.2, a)') 'poisson3d: ', n(1), 'x', n(2), 'x', &
    n(3), ' on ', ranks, ' ranks, max error ', error, merge(' OK    ', ' FAILED', error < 1e-10_c_double)
  call distfft_plan_destroy(plan)
  call MPI_Finalize(ierr)
  if (error >= 1e-10_c_double) error stop 1

contains

  ! 1 / |k|^2 for the 0-based wavenumber indices (g1 along the r2c axis,
  ! 0..n1/2), 0 for the mean.
  function inverse_k2(g1, g2, g3) result(factor)
    integer(c_int64_t), intent(in) :: g1, g2, g3
    real(c_double) :: factor
    real(c_double) :: k1, k2, k3
    k1 = real(g1, c_double)
    k2 = real(merge(g2, g2 - n(2), g2 <= n(2) / 2), c_double)
    k3 = real(merge(g3, g3 - n(3), g3 <= n(3) / 2), c_double)
    factor = 0
    if (g1 /= 0 .or. g2 /= 0 .or. g3 /= 0) factor = 1 / (k1**2 + k2**2 + k3**2)
  end function inverse_k2

end program poisson3d
