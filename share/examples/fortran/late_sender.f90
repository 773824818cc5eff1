! late_sender (Fortran, `use mpi`): a receive waits for a send that starts late.
!
! In each of ITERATIONS rounds rank 1 works DELAY_US longer (usleep stands for the extra work)
! before it sends; rank 0 is already blocked in MPI_Recv, with MPI_ANY_SOURCE and
! MPI_STATUS_IGNORE, so the tracer must take the sender from a status of its own. Expected
! finding: late_sender on rank 0 at the MPI_Recv line, peer rank 1, 1.0 s of idle time.
! Every rank prints what it computed; the output is the same traced and untraced.
!
!   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./late_sender_f && analyzer collwrap-late_sender_f-*
program late_sender_f
  use, intrinsic :: iso_c_binding, only: c_int
  use mpi
  implicit none
  interface
    integer(c_int) function usleep(microseconds) bind(C, name="usleep")
      import :: c_int
      integer(c_int), value :: microseconds
    end function usleep
  end interface
  integer, parameter :: ITERATIONS = 5, DELAY_US = 200000
  integer :: rank, size, ierr, i, status(MPI_STATUS_SIZE)
  double precision :: value, total

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  if (size < 2) then
    write (0, '(a)') 'late_sender_f: run with at least 2 ranks (mpirun -np 4)'
    call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr) ! @startup: ranks leave MPI_Init at different times
  total = 0
  do i = 1, ITERATIONS
    if (rank == 1) then
      if (usleep(DELAY_US) /= 0) stop 1 ! the sender's extra work
      value = 1.5d0 * i
      call MPI_Send(value, 1, MPI_DOUBLE_PRECISION, 0, i, MPI_COMM_WORLD, ierr)
    else if (rank == 0) then
      call MPI_Recv(value, 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr) ! @expect late_sender rank=0 wait=1.0
      total = total + value
    end if
  end do
  ! A receive with a real status: the program reads it, the tracer must not disturb it.
  if (rank == 1) then
    call MPI_Send(total, 1, MPI_DOUBLE_PRECISION, 0, 99, MPI_COMM_WORLD, ierr)
  else if (rank == 0) then
    status = -7 ! MPI leaves MPI_ERROR alone in single-completion calls; so must the tracer
    call MPI_Recv(value, 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
    write (*, '(a,i0,a,i0,a,i0)') 'rank 0: status source ', status(MPI_SOURCE), ' tag ', &
      status(MPI_TAG), ' error ', status(MPI_ERROR)
  end if
  write (*, '(a,i0,a,f0.3,a,i0)') 'rank ', rank, ': total ', total, ' ierr ', ierr
  call MPI_Finalize(ierr)
end program late_sender_f
