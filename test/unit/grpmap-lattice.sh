#!/usr/bin/env bash
# test-scope: any base (the code under test is the same on every Open MPI base)
# The grpmap `lattice` representation (ranks[i] = first + sum x_k stride_k,
# up to 8 levels): ranges, strides, block-cyclic sets, cube faces, the
# thesis's application maps and Cartesian sub-blocks in any dimension order
# held exactly in 24 + 20 L bytes; skewed lattices, 9 levels, almost-
# lattices and random maps declined or exact; edge cases; a timing line.
# Under AddressSanitizer + UndefinedBehaviorSanitizer.
. "$TEST_LIB"
build_unit t -I"$TOP" "$TOP/test/unit/grpmap_lattice_test.c" \
    "$TOP/ompi/mca/grpmap/lattice/grpmap_lattice.c"
./t 2>&1 | tee out.txt
assert_grep '^grpmap_lattice_test: OK$' out.txt
