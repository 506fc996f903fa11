# -*- shell-script -*-
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Built into libmpi (static): every group of every process may be held by
# it from MPI_Init on, and the group code calls it on lookups.
AC_DEFUN([MCA_ompi_grpmap_array_COMPILE_MODE], [
    AC_MSG_CHECKING([for MCA component $2:$3 compile mode])
    $4="static"
    AC_MSG_RESULT([$$4])
])

AC_DEFUN([MCA_ompi_grpmap_array_CONFIG], [
    AC_CONFIG_FILES([ompi/mca/grpmap/array/Makefile])
    $1
])dnl
