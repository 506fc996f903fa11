! Copyright (c) 2026 The ompi-research-components authors.
! SPDX-License-Identifier: BSD-3-Clause
!
! Fortran through 'use mpi_f08' (test/mpi/fortran.sh): MPI_Alltoall, a
! ring with MPI_Sendrecv_replace and the status object, then collective
! MPI-IO in the file named by the first argument: every rank writes its
! NBLK blocks of BLEN integers interleaved with the other ranks' (a vector
! file view, MPI_File_write_all), reads them back through the same view
! (MPI_File_read_all), and reads a contiguous slice of the file through the
! default view (MPI_File_read_at_all) that must hold the other ranks'
! blocks where the layout puts them.  Every rank counts its wrong results;
! the sum is reduced, rank 0 prints "f_f08: N ranks OK" or "f_f08:
! FAILED", and a failure ends with exit status 1 on every rank.
program f_f08
    use mpi_f08
    implicit none
    integer, parameter :: blen = 1000, nblk = 48
    integer :: rank, nprocs, errs, toterrs, i, j, left, right, val, ierr
    integer :: nints, per, first, p
    integer, allocatable :: sb(:), rb(:), wbuf(:), rbuf(:), slice(:)
    type(MPI_Status) :: st
    type(MPI_Datatype) :: ftype
    type(MPI_File) :: fh
    integer(kind=MPI_OFFSET_KIND) :: disp, fsize, off
    character(len=512) :: path

    errs = 0
    call MPI_Init()
    call MPI_Comm_rank(MPI_COMM_WORLD, rank)
    call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
    if (command_argument_count() < 1) then
        if (rank == 0) print '(a)', 'usage: f_f08 FILE'
        call MPI_Abort(MPI_COMM_WORLD, 2)
    end if
    call get_command_argument(1, path)

    ! alltoall: element j goes to rank j-1
    allocate(sb(nprocs), rb(nprocs))
    do j = 1, nprocs
        sb(j) = 100 * rank + (j - 1)
    end do
    rb = -1
    call MPI_Alltoall(sb, 1, MPI_INTEGER, rb, 1, MPI_INTEGER, MPI_COMM_WORLD)
    do j = 1, nprocs
        if (rb(j) /= 100 * (j - 1) + rank) call bad('alltoall')
    end do

    ! ring with sendrecv_replace
    right = mod(rank + 1, nprocs)
    left = mod(rank - 1 + nprocs, nprocs)
    val = 7 * rank + 1
    call MPI_Sendrecv_replace(val, 1, MPI_INTEGER, right, 11, left, 11, MPI_COMM_WORLD, st)
    if (val /= 7 * left + 1 .or. st%MPI_SOURCE /= left .or. st%MPI_TAG /= 11) call bad('sendrecv_replace')

    ! collective I/O: block j (0-based) of rank r is block j*nprocs + r of the file
    allocate(wbuf(blen * nblk), rbuf(blen * nblk))
    do i = 1, blen * nblk
        wbuf(i) = 1000000 * rank + i
    end do
    call MPI_File_open(MPI_COMM_WORLD, trim(path), MPI_MODE_CREATE + MPI_MODE_RDWR, &
                       MPI_INFO_NULL, fh, ierr)
    if (ierr /= MPI_SUCCESS) call die('MPI_File_open')
    call MPI_File_set_size(fh, 0_MPI_OFFSET_KIND)
    call MPI_Type_vector(nblk, blen, blen * nprocs, MPI_INTEGER, ftype)
    call MPI_Type_commit(ftype)
    disp = int(rank, MPI_OFFSET_KIND) * blen * 4
    call MPI_File_set_view(fh, disp, MPI_INTEGER, ftype, 'native', MPI_INFO_NULL)
    call MPI_File_write_all(fh, wbuf, blen * nblk, MPI_INTEGER, st, ierr)
    if (ierr /= MPI_SUCCESS) call die('MPI_File_write_all')
    call MPI_File_sync(fh)
    call MPI_Barrier(MPI_COMM_WORLD)
    call MPI_File_sync(fh)
    call MPI_File_get_size(fh, fsize)
    if (fsize /= int(nprocs, MPI_OFFSET_KIND) * blen * nblk * 4) call bad('file size')

    rbuf = -1
    call MPI_File_seek(fh, 0_MPI_OFFSET_KIND, MPI_SEEK_SET)
    call MPI_File_read_all(fh, rbuf, blen * nblk, MPI_INTEGER, st, ierr)
    if (ierr /= MPI_SUCCESS) call die('MPI_File_read_all')
    if (any(rbuf /= wbuf)) call bad('read_all through the view')

    ! a contiguous slice through the default view
    call MPI_File_set_view(fh, 0_MPI_OFFSET_KIND, MPI_INTEGER, MPI_INTEGER, 'native', MPI_INFO_NULL)
    nints = nprocs * blen * nblk
    per = nints / nprocs
    first = rank * per
    allocate(slice(per))
    slice = -1
    off = first
    call MPI_File_read_at_all(fh, off, slice, per, MPI_INTEGER, st, ierr)
    if (ierr /= MPI_SUCCESS) call die('MPI_File_read_at_all')
    do i = 1, per
        ! file index k (0-based) -> block k/blen -> owner mod nprocs, local block / nprocs
        j = (first + i - 1) / blen
        p = mod(j, nprocs)
        if (slice(i) /= 1000000 * p + (j / nprocs) * blen + mod(first + i - 1, blen) + 1) then
            call bad('contiguous slice')
            exit
        end if
    end do
    call MPI_File_close(fh)
    call MPI_Type_free(ftype)

    call MPI_Allreduce(errs, toterrs, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (rank == 0) then
        if (toterrs == 0) then
            print '(a,i0,a)', 'f_f08: ', nprocs, ' ranks OK'
        else
            print '(a,i0,a)', 'f_f08: FAILED (', toterrs, ' wrong results)'
        end if
    end if
    call MPI_Finalize()
    if (toterrs /= 0) stop 1

contains

    subroutine bad(what)
        character(len=*), intent(in) :: what
        errs = errs + 1
        print '(a,i0,2a)', 'f_f08: rank ', rank, ': wrong result in ', what
    end subroutine bad

    subroutine die(what)
        character(len=*), intent(in) :: what
        print '(a,i0,3a)', 'f_f08: rank ', rank, ': ', what, ' failed'
        call MPI_Abort(MPI_COMM_WORLD, 1)
    end subroutine die

end program f_f08
