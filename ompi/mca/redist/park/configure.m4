# -*- shell-script -*-
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Built into libmpi (static), like the comm_store components: the madre
# extension's calls reach it without a component search path.
AC_DEFUN([MCA_ompi_redist_park_COMPILE_MODE], [
    AC_MSG_CHECKING([for MCA component $2:$3 compile mode])
    $4="static"
    AC_MSG_RESULT([$$4])
])

AC_DEFUN([MCA_ompi_redist_park_CONFIG], [
    AC_CONFIG_FILES([ompi/mca/redist/park/Makefile])
    $1
])dnl
