! Copyright (c) 2026 The ompi-research-components authors.
! SPDX-License-Identifier: BSD-3-Clause
!
! Fortran through 'use mpi' (test/mpi/fortran.sh): a broadcast character
! string, a nonblocking ring (MPI_Isend/MPI_Irecv/MPI_Waitall) of a
! struct type (an integer and two doubles, MPI_Type_create_struct), a
! periodic 1-D Cartesian topology (MPI_Cart_shift) and MPI_Gather.
! Every rank counts its wrong results; the sum is reduced, rank 0 prints
! "f_usempi: N ranks OK" or "f_usempi: FAILED", and a failure ends with
! exit status 1 on every rank.
program f_usempi
    use mpi
    implicit none
    integer, parameter :: n = 10
    type rec_t
        sequence
        integer :: id
        double precision :: x, y
    end type rec_t
    integer :: ierr, rank, nprocs, errs, toterrs, i, left, right
    integer :: stype, cart, crank, reqs(2)
    integer :: blens(2), types(2)
    integer(kind=MPI_ADDRESS_KIND) :: disps(2), a0, a1
    integer :: statuses(MPI_STATUS_SIZE, 2)
    character(len=32) :: msg
    type(rec_t) :: sre(n), rre(n)
    integer, allocatable :: gath(:)

    errs = 0
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

    ! broadcast a string from the last rank
    msg = ''
    if (rank == nprocs - 1) msg = 'hello from the last rank'
    call MPI_Bcast(msg, len(msg), MPI_CHARACTER, nprocs - 1, MPI_COMM_WORLD, ierr)
    if (msg /= 'hello from the last rank') call bad('bcast string')

    ! struct type: id (integer) then x, y (two doubles)
    call MPI_Get_address(sre(1)%id, a0, ierr)
    call MPI_Get_address(sre(1)%x, a1, ierr)
    blens = (/ 1, 2 /)
    types = (/ MPI_INTEGER, MPI_DOUBLE_PRECISION /)
    disps = (/ 0_MPI_ADDRESS_KIND, a1 - a0 /)
    call MPI_Type_create_struct(2, blens, disps, types, stype, ierr)
    call MPI_Get_address(sre(2)%id, a1, ierr)
    call MPI_Type_create_resized(stype, 0_MPI_ADDRESS_KIND, a1 - a0, i, ierr)
    call MPI_Type_free(stype, ierr)
    stype = i
    call MPI_Type_commit(stype, ierr)

    ! periodic ring through a Cartesian communicator
    call MPI_Cart_create(MPI_COMM_WORLD, 1, (/ nprocs /), (/ .true. /), .false., cart, ierr)
    call MPI_Comm_rank(cart, crank, ierr)
    call MPI_Cart_shift(cart, 0, 1, left, right, ierr)
    if (right /= mod(crank + 1, nprocs) .or. left /= mod(crank - 1 + nprocs, nprocs)) &
        call bad('cart shift')
    do i = 1, n
        sre(i) = rec_t(100 * crank + i, dble(crank) + 0.25d0 * i, -dble(i))
        rre(i) = rec_t(-1, 0d0, 0d0)
    end do
    call MPI_Irecv(rre, n, stype, left, 3, cart, reqs(1), ierr)
    call MPI_Isend(sre, n, stype, right, 3, cart, reqs(2), ierr)
    call MPI_Waitall(2, reqs, statuses, ierr)
    if (statuses(MPI_SOURCE, 1) /= left) call bad('ring source')
    do i = 1, n
        if (rre(i)%id /= 100 * left + i .or. rre(i)%x /= dble(left) + 0.25d0 * i &
            .or. rre(i)%y /= -dble(i)) call bad('ring struct data')
    end do
    call MPI_Type_free(stype, ierr)
    call MPI_Comm_free(cart, ierr)

    ! gather rank squares on rank 0
    allocate(gath(nprocs))
    gath = -1
    call MPI_Gather(rank * rank, 1, MPI_INTEGER, gath, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
    if (rank == 0) then
        do i = 1, nprocs
            if (gath(i) /= (i - 1) * (i - 1)) call bad('gather')
        end do
    end if

    call MPI_Allreduce(errs, toterrs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank == 0) then
        if (toterrs == 0) then
            print '(a,i0,a)', 'f_usempi: ', nprocs, ' ranks OK'
        else
            print '(a,i0,a)', 'f_usempi: FAILED (', toterrs, ' wrong results)'
        end if
    end if
    call MPI_Finalize(ierr)
    if (toterrs /= 0) stop 1

contains

    subroutine bad(what)
        character(len=*), intent(in) :: what
        errs = errs + 1
        print '(a,i0,2a)', 'f_usempi: rank ', rank, ': wrong result in ', what
    end subroutine bad

end program f_usempi
