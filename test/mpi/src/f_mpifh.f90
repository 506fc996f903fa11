! Copyright (c) 2026 The ompi-research-components authors.
! SPDX-License-Identifier: BSD-3-Clause
!
! Fortran through include 'mpif.h' (test/mpi/fortran.sh): allreduce of
! integers and doubles, a sendrecv ring whose send side is a strided
! derived type (MPI_Type_vector), a split of MPI_COMM_WORLD, and a status
! and MPI_Get_count check.  Every rank counts its wrong results; the sum is
! reduced, rank 0 prints "f_mpifh: N ranks OK" or "f_mpifh: FAILED", and a
! failure ends with exit status 1 on every rank.
program f_mpifh
    implicit none
    include 'mpif.h'
    integer, parameter :: n = 64
    integer :: ierr, rank, nprocs, errs, toterrs, i, isum, left, right
    integer :: vtype, sub, subrank, subsize, color, cnt
    integer :: status(MPI_STATUS_SIZE)
    integer :: sbuf(2*n), rbuf(n)
    double precision :: dloc(3), dmax(3)

    errs = 0
    call MPI_Init(ierr)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)

    ! allreduce: sum of rank+1, max of doubles
    call MPI_Allreduce(rank + 1, isum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (isum /= nprocs * (nprocs + 1) / 2) call bad('allreduce sum')
    dloc = (/ dble(rank), -dble(rank), 0.5d0 * rank /)
    call MPI_Allreduce(dloc, dmax, 3, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
    if (dmax(1) /= dble(nprocs - 1) .or. dmax(2) /= 0d0 .or. dmax(3) /= 0.5d0 * (nprocs - 1)) &
        call bad('allreduce max')

    ! ring: send every other element of sbuf (a vector type), receive
    ! contiguously from the left neighbour
    right = mod(rank + 1, nprocs)
    left = mod(rank - 1 + nprocs, nprocs)
    do i = 1, 2*n
        sbuf(i) = -1
    end do
    do i = 1, n
        sbuf(2*i - 1) = 1000 * rank + i
    end do
    rbuf = 0
    call MPI_Type_vector(n, 1, 2, MPI_INTEGER, vtype, ierr)
    call MPI_Type_commit(vtype, ierr)
    call MPI_Sendrecv(sbuf, 1, vtype, right, 7, rbuf, n, MPI_INTEGER, left, 7, &
                      MPI_COMM_WORLD, status, ierr)
    call MPI_Get_count(status, MPI_INTEGER, cnt, ierr)
    if (cnt /= n .or. status(MPI_SOURCE) /= left .or. status(MPI_TAG) /= 7) call bad('ring status')
    do i = 1, n
        if (rbuf(i) /= 1000 * left + i) call bad('ring data')
    end do
    call MPI_Type_free(vtype, ierr)

    ! split into even and odd ranks, reverse order inside
    color = mod(rank, 2)
    call MPI_Comm_split(MPI_COMM_WORLD, color, -rank, sub, ierr)
    call MPI_Comm_rank(sub, subrank, ierr)
    call MPI_Comm_size(sub, subsize, ierr)
    if (subsize /= (nprocs + 1 - color) / 2) call bad('split size')
    if (subrank /= subsize - 1 - rank / 2) call bad('split rank order')
    call MPI_Allreduce(rank, isum, 1, MPI_INTEGER, MPI_SUM, sub, ierr)
    if (isum /= subsum(color, nprocs)) call bad('split allreduce')
    call MPI_Comm_free(sub, ierr)

    call MPI_Allreduce(errs, toterrs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (rank == 0) then
        if (toterrs == 0) then
            print '(a,i0,a)', 'f_mpifh: ', nprocs, ' ranks OK'
        else
            print '(a,i0,a)', 'f_mpifh: FAILED (', toterrs, ' wrong results)'
        end if
    end if
    call MPI_Finalize(ierr)
    if (toterrs /= 0) stop 1

contains

    subroutine bad(what)
        character(len=*), intent(in) :: what
        errs = errs + 1
        print '(a,i0,2a)', 'f_mpifh: rank ', rank, ': wrong result in ', what
    end subroutine bad

    integer function subsum(c, np)
        integer, intent(in) :: c, np
        integer :: r
        subsum = 0
        do r = c, np - 1, 2
            subsum = subsum + r
        end do
    end function subsum

end program f_mpifh
