dnl -*- autoconf -*-
dnl
dnl Copyright (c) 2026 The ompi-research-components authors.
dnl SPDX-License-Identifier: BSD-3-Clause
dnl
dnl What the suite's configure.m4 and Makefile.am files need from either
dnl Open MPI series (4.1 and 5.0), keyed on the macros each series defines,
dnl so that one component tree builds on both.

dnl OMPI_SUITE_SETUP: AC_SUBST suite_libopen_pal, the libtool library a
dnl DSO component links for OPAL's symbols: lib$(OPAL_LIB_PREFIX)open-pal.la
dnl on 4.1 (OPAL_SET_LIB_PREFIX), lib$(OPAL_LIB_NAME).la on 5.0
dnl (OPAL_SET_LIB_NAME).  Both are make variables in every Makefile, so the
dnl value is expanded by make, whenever configure sets them.
AC_DEFUN([OMPI_SUITE_SETUP],[
    m4_ifdef([OPAL_SET_LIB_NAME],
             [suite_libopen_pal='lib$(OPAL_LIB_NAME).la'],
             [suite_libopen_pal='lib$(OPAL_LIB_PREFIX)open-pal.la'])
    AC_SUBST([suite_libopen_pal])
])dnl

dnl OMPI_SUITE_CHECK_PACKAGE(prefix, header, library, function,
dnl                          [action-if-found], [action-if-not-found])
dnl Find a library the way each series does (4.1: OPAL_CHECK_PACKAGE;
dnl 5.0: OAC_CHECK_PACKAGE, pkg-config first); either sets prefix_CPPFLAGS,
dnl prefix_LDFLAGS and prefix_LIBS, which the caller AC_SUBSTs.
AC_DEFUN([OMPI_SUITE_CHECK_PACKAGE],[
    AC_REQUIRE([OMPI_SUITE_SETUP])
    m4_ifdef([OAC_CHECK_PACKAGE],
             [OAC_CHECK_PACKAGE([$1], [$1], [$2], [$3], [$4], [$5], [$6])],
             [OPAL_CHECK_PACKAGE([$1], [$2], [$3], [$4], [], [], [], [$5], [$6])])
])dnl
