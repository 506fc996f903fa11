# -*- shell-script -*-
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Always built into libmpi: Open MPI's plugin loader splits a DSO's name
# (mca_<framework>_<component>) at the first underscore, which a framework
# called comm_store cannot survive; and the store must exist before any
# communicator, on every message's receive path.
AC_DEFUN([MCA_ompi_comm_store_rbtree_COMPILE_MODE], [
    AC_MSG_CHECKING([for MCA component $2:$3 compile mode])
    $4="static"
    AC_MSG_RESULT([$$4])
])

AC_DEFUN([MCA_ompi_comm_store_rbtree_CONFIG], [
    AC_CONFIG_FILES([ompi/mca/comm_store/rbtree/Makefile])
    $1
])dnl
