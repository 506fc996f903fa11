# -*- shell-script -*-
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# MCA_opal_compress_rice_CONFIG([action-if-can-compile], [action-if-cant-compile])
# Always built (no external library); configured only for suite_libopen_pal,
# the OPAL library its Makefile.am links on either Open MPI series.
AC_DEFUN([MCA_opal_compress_rice_CONFIG],[
    AC_REQUIRE([OMPI_SUITE_SETUP])
    AC_CONFIG_FILES([opal/mca/compress/rice/Makefile])
    $1
])dnl
