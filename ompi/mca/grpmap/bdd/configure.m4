# -*- shell-script -*-
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# MCA_ompi_grpmap_bdd_CONFIG([action-if-can-compile], [action-if-cant-compile])
# Built when BuDDy (bdd.h, libbdd; Debian package libbdd-dev) is found.  A
# plugin (DSO) by default, so that libmpi itself does not depend on libbdd.
AC_DEFUN([MCA_ompi_grpmap_bdd_CONFIG],[
    AC_CONFIG_FILES([ompi/mca/grpmap/bdd/Makefile])
    OPAL_VAR_SCOPE_PUSH([ompi_grpmap_bdd_happy])

    OMPI_SUITE_CHECK_PACKAGE([grpmap_bdd], [bdd.h], [bdd], [bdd_init],
                             [ompi_grpmap_bdd_happy=yes],
                             [ompi_grpmap_bdd_happy=no])

    AS_IF([test "$ompi_grpmap_bdd_happy" = "yes"],
          [$1],
          [AC_MSG_WARN([grpmap:bdd will not be built: bdd.h or libbdd (BuDDy) not found (Debian package libbdd-dev)])
           $2])

    AC_SUBST([grpmap_bdd_CPPFLAGS])
    AC_SUBST([grpmap_bdd_LDFLAGS])
    AC_SUBST([grpmap_bdd_LIBS])
    OPAL_VAR_SCOPE_POP
])dnl
