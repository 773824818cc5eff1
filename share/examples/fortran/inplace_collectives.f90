! inplace_collectives (Fortran, mpif.h): collectives with MPI_IN_PLACE, and a slow rank.
!
! Rank 1 works DELAY_US longer before each MPI_Allreduce(MPI_IN_PLACE, ...): ranks 0, 2 and 3
! wait for it (wait_at_nxn, 1.0 s each). MPI_Reduce and MPI_Gather use MPI_IN_PLACE at the
! root, MPI_Bcast sends from MPI_BOTTOM (a datatype holding an absolute address), and
! MPI_Sendrecv_replace moves data around the ring with MPI_STATUS_IGNORE. Every rank
! prints what it computed; the traced run must print exactly what the untraced one does.
!
!   mpirun -np 4 -x LD_PRELOAD=libcollwrap.so ./inplace_collectives_f
program inplace_collectives_f
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  include 'mpif.h'
  interface
    integer(c_int) function usleep(microseconds) bind(C, name="usleep")
      import :: c_int
      integer(c_int), value :: microseconds
    end function usleep
  end interface
  integer, parameter :: ITERATIONS = 5, DELAY_US = 200000, N = 3
  integer :: rank, size, ierr, i, k, ring(1)
  integer :: sums(N), maxima(N)
  integer, allocatable :: gathered(:)
  integer, volatile :: token
  integer(kind=MPI_ADDRESS_KIND) :: where(1)
  integer :: blocks(1), bottom_type

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr) ! @startup: ranks leave MPI_Init at different times
  do i = 1, ITERATIONS
    do k = 1, N
      sums(k) = (rank + 1) * k + i
    end do
    if (rank == 1) then
      if (usleep(DELAY_US) /= 0) stop 1 ! the slow rank's extra work
    end if
    call MPI_Allreduce(MPI_IN_PLACE, sums, N, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr) ! @expect wait_at_nxn rank=0,2,3 wait=1.0
  end do
  write (*, '(a,i0,a,3(1x,i0))') 'rank ', rank, ': allreduce in place', sums

  do k = 1, N
    maxima(k) = mod((rank + 3) * (k + 5), 7)
  end do
  if (rank == 0) then
    call MPI_Reduce(MPI_IN_PLACE, maxima(1), N, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
    write (*, '(a,3(1x,i0))') 'rank 0: reduce in place', maxima
  else
    call MPI_Reduce(maxima(1), sums(1), N, MPI_INTEGER, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  end if

  allocate (gathered(size))
  gathered = -1
  gathered(rank + 1) = 10 * rank + 7
  if (rank == 0) then
    call MPI_Gather(MPI_IN_PLACE, 1, MPI_INTEGER, gathered(1), 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    write (*, '(a,*(1x,i0))') 'rank 0: gather in place', gathered
  else
    call MPI_Gather(gathered(rank + 1), 1, MPI_INTEGER, gathered(1), 1, MPI_INTEGER, 0, &
                    MPI_COMM_WORLD, ierr)
  end if

  ! The datatype carries the absolute address of token; the buffer is MPI_BOTTOM.
  token = -1
  if (rank == 0) token = 4242
  call MPI_Get_address(token, where(1), ierr)
  blocks(1) = 1
  call MPI_Type_create_hindexed(1, blocks, where, MPI_INTEGER, bottom_type, ierr)
  call MPI_Type_commit(bottom_type, ierr)
  call MPI_Bcast(MPI_BOTTOM, 1, bottom_type, 0, MPI_COMM_WORLD, ierr)
  call MPI_Type_free(bottom_type, ierr)
  write (*, '(a,i0,a,i0)') 'rank ', rank, ': bcast from MPI_BOTTOM ', token

  ring(1) = rank
  call MPI_Sendrecv_replace(ring, 1, MPI_INTEGER, mod(rank + 1, size), 5, &
                            mod(rank + size - 1, size), 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  write (*, '(a,i0,a,i0,a,i0)') 'rank ', rank, ': ring ', ring(1), ' ierr ', ierr
  call MPI_Finalize(ierr)
end program inplace_collectives_f
