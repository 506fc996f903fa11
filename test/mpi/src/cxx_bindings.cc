// Copyright (c) 2026 The ompi-research-components authors.
// SPDX-License-Identifier: BSD-3-Clause
//
// The MPI-2 C++ bindings (libmpi_cxx, test/mpi/fortran.sh): MPI::Init,
// MPI::COMM_WORLD, Allreduce, Split, Sendrecv with a status, Dup and
// Bcast (no exceptions: like Debian's, the build has no
// --enable-cxx-exceptions).  Rank 0 prints "cxx_bindings: N ranks OK"; a
// wrong result exits with status 1.
#include <mpi.h>
#include <cstdio>

int main(int argc, char **argv)
{
    MPI::Init(argc, argv);
    const int rank = MPI::COMM_WORLD.Get_rank(), size = MPI::COMM_WORLD.Get_size();
    int errs = 0;

    int one = rank + 1, sum = 0;
    MPI::COMM_WORLD.Allreduce(&one, &sum, 1, MPI::INT, MPI::SUM);
    if (sum != size * (size + 1) / 2) { std::printf("cxx_bindings: rank %d: allreduce\n", rank); errs++; }

    MPI::Intracomm half = MPI::COMM_WORLD.Split(rank % 2, rank);
    if (half.Get_size() != (size + 1 - rank % 2) / 2 || half.Get_rank() != rank / 2) {
        std::printf("cxx_bindings: rank %d: split\n", rank); errs++;
    }
    half.Free();

    const int right = (rank + 1) % size, left = (rank + size - 1) % size;
    double out = 1.5 * rank, in = -1.0;
    MPI::Status st;
    MPI::COMM_WORLD.Sendrecv(&out, 1, MPI::DOUBLE, right, 5, &in, 1, MPI::DOUBLE, left, 5, st);
    if (in != 1.5 * left || st.Get_source() != left || st.Get_count(MPI::DOUBLE) != 1) {
        std::printf("cxx_bindings: rank %d: sendrecv\n", rank); errs++;
    }

    MPI::Intracomm dup = MPI::COMM_WORLD.Dup();
    int bval = rank == size - 1 ? 42 : 0;
    dup.Bcast(&bval, 1, MPI::INT, size - 1);
    if (bval != 42 || MPI::Comm::Compare(dup, MPI::COMM_WORLD) != MPI::CONGRUENT) {
        std::printf("cxx_bindings: rank %d: dup/bcast\n", rank); errs++;
    }
    dup.Free();

    int total = 0;
    MPI::COMM_WORLD.Allreduce(&errs, &total, 1, MPI::INT, MPI::SUM);
    if (rank == 0) {
        if (total == 0) std::printf("cxx_bindings: %d ranks OK\n", size);
        else std::printf("cxx_bindings: FAILED (%d wrong results)\n", total);
    }
    MPI::Finalize();
    return total == 0 ? 0 : 1;
}
