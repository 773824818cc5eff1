! late_sender_f08 (Fortran, `use mpi_f08`): a nonblocking receive completed by a wait that
! waits for a late send.
!
! Rank 0 posts MPI_Irecv with MPI_ANY_SOURCE and completes it with MPI_Wait and
! MPI_STATUS_IGNORE; rank 1 works DELAY_US longer before it sends. Expected finding:
! late_sender on rank 0 at the MPI_Wait line, 1.0 s of idle time. The ranks then exchange
! with MPI_Isend/MPI_Irecv and MPI_Waitall(MPI_STATUSES_IGNORE), read a status after
! MPI_Recv, and sum with MPI_Allreduce(MPI_IN_PLACE) and no IERROR argument (optional in
! mpi_f08). Every rank prints what it computed; traced and untraced output are the same.
!
!   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./late_sender_f08
program late_sender_f08
  use, intrinsic :: iso_c_binding, only: c_int
  use mpi_f08
  implicit none
  interface
    integer(c_int) function usleep(microseconds) bind(C, name="usleep")
      import :: c_int
      integer(c_int), value :: microseconds
    end function usleep
  end interface
  integer, parameter :: ITERATIONS = 5, DELAY_US = 200000
  integer :: rank, size, i, left, right, incoming(2), outgoing(2), count
  double precision :: value, total
  type(MPI_Request) :: request, requests(4)
  type(MPI_Status) :: status

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  call MPI_Barrier(MPI_COMM_WORLD) ! @startup: ranks leave MPI_Init at different times
  total = 0
  do i = 1, ITERATIONS
    if (rank == 1) then
      if (usleep(DELAY_US) /= 0) stop 1 ! the sender's extra work
      value = 0.25d0 * i
      call MPI_Send(value, 1, MPI_DOUBLE_PRECISION, 0, 3, MPI_COMM_WORLD)
    else if (rank == 0) then
      call MPI_Irecv(value, 1, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 3, MPI_COMM_WORLD, request)
      call MPI_Wait(request, MPI_STATUS_IGNORE) ! @expect late_sender rank=0 wait=1.0
      total = total + value
    end if
  end do

  left = mod(rank + size - 1, size)
  right = mod(rank + 1, size)
  outgoing = [rank, 100 + rank]
  incoming = -1
  call MPI_Irecv(incoming(1), 1, MPI_INTEGER, left, 7, MPI_COMM_WORLD, requests(1))
  call MPI_Irecv(incoming(2), 1, MPI_INTEGER, right, 8, MPI_COMM_WORLD, requests(2))
  call MPI_Isend(outgoing(1), 1, MPI_INTEGER, right, 7, MPI_COMM_WORLD, requests(3))
  call MPI_Isend(outgoing(2), 1, MPI_INTEGER, left, 8, MPI_COMM_WORLD, requests(4))
  call MPI_Waitall(4, requests, MPI_STATUSES_IGNORE)

  if (rank == 2) call MPI_Send(outgoing, 2, MPI_INTEGER, 3, 11, MPI_COMM_WORLD)
  if (rank == 3) then
    call MPI_Recv(outgoing, 2, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status)
    call MPI_Get_count(status, MPI_INTEGER, count)
    write (*, '(a,i0,a,i0,a,i0)') 'rank 3: status source ', status%MPI_SOURCE, ' tag ', &
      status%MPI_TAG, ' count ', count
  end if

  call MPI_Allreduce(MPI_IN_PLACE, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD)
  write (*, '(a,i0,a,2(1x,i0),a,f0.3)') 'rank ', rank, ': neighbors', incoming, ' total ', total
  call MPI_Finalize()
end program late_sender_f08
