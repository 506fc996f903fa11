! Copyright (c) 2026 The ompi-research-components authors.
! SPDX-License-Identifier: BSD-3-Clause
!
! Predefined attributes through Fortran (test/mpi/comm-attrs.sh): on a
! duplicate of MPI_COMM_WORLD and a duplicate of that, MPI_COMM_GET_ATTR
! and MPI_ATTR_GET return what they return on WORLD, flag and value (the
! Fortran bindings must read them from WORLD too: the duplicate of a
! duplicate has no attribute hash at all).  Each rank prints "f_attrs: ok"
! or each difference, and then stops with status 1.
program f_attrs
    implicit none
    include 'mpif.h'
    integer, parameter :: nk = 5
    integer :: keys(nk), ierr, d1, d2, dups(2), i, j, errs, iw, id
    character(len=10), parameter :: names(2) = (/ 'dup       ', 'dup of dup' /)
    integer(kind=MPI_ADDRESS_KIND) :: vw, vd
    logical :: fw, fd

    keys = (/ MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_APPNUM /)
    errs = 0
    call MPI_Init(ierr)
    call MPI_Comm_dup(MPI_COMM_WORLD, d1, ierr)
    call MPI_Comm_dup(d1, d2, ierr)
    dups = (/ d1, d2 /)
    do i = 1, nk
        call MPI_Comm_get_attr(MPI_COMM_WORLD, keys(i), vw, fw, ierr)
        do j = 1, 2
            call MPI_Comm_get_attr(dups(j), keys(i), vd, fd, ierr)
            if (fw .neqv. fd .or. (fw .and. vw /= vd)) then
                print *, 'f_attrs: ', trim(names(j)), ': key', keys(i), 'WORLD', fw, vw, 'copy', fd, vd
                errs = errs + 1
            end if
        end do
        call MPI_Attr_get(MPI_COMM_WORLD, keys(i), iw, fw, ierr)
        call MPI_Attr_get(d2, keys(i), id, fd, ierr)
        if (fw .neqv. fd .or. (fw .and. iw /= id)) then
            print *, 'f_attrs: MPI_ATTR_GET: key', keys(i), 'WORLD', fw, iw, 'dup', fd, id
            errs = errs + 1
        end if
    end do
    call MPI_Comm_free(d2, ierr)
    call MPI_Comm_free(d1, ierr)
    if (errs == 0) print *, 'f_attrs: ok'
    call MPI_Finalize(ierr)
    if (errs /= 0) stop 1
end program
