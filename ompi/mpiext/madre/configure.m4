# -*- shell-script -*-
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# MPI extension "madre": MPIX_Redist_* over the redist framework.
# MPI_Init runs its init hook (opens the framework).
m4_define([OMPI_MPIEXT_madre_NEED_INIT], [1])

AC_DEFUN([OMPI_MPIEXT_madre_CONFIG], [
    AC_CONFIG_FILES([ompi/mpiext/madre/Makefile])
    AC_CONFIG_FILES([ompi/mpiext/madre/c/Makefile])

    AS_IF([test "$ENABLE_madre" = "1" || \
           test "$ENABLE_EXT_ALL" = "1"],
          [$1],
          [$2])
])
