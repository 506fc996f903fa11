# -*- shell-script -*-
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# MCA_opal_compress_bzip2_CONFIG([action-if-can-compile], [action-if-cant-compile])
# Build the bzip2 codec when bzlib.h and libbz2 are found (Debian: libbz2-dev).
AC_DEFUN([MCA_opal_compress_bzip2_CONFIG],[
    AC_CONFIG_FILES([opal/mca/compress/bzip2/Makefile])
    OPAL_VAR_SCOPE_PUSH([opal_compress_bzip2_happy])

    OMPI_SUITE_CHECK_PACKAGE([compress_bzip2], [bzlib.h], [bz2], [BZ2_bzBuffToBuffCompress],
                             [opal_compress_bzip2_happy=yes],
                             [opal_compress_bzip2_happy=no])

    AS_IF([test "$opal_compress_bzip2_happy" = "yes"],
          [$1],
          [AC_MSG_WARN([compress:bzip2 will not be built: bzlib.h or libbz2 not found (Debian package libbz2-dev)])
           $2])

    AC_SUBST([compress_bzip2_CPPFLAGS])
    AC_SUBST([compress_bzip2_LDFLAGS])
    AC_SUBST([compress_bzip2_LIBS])
    OPAL_VAR_SCOPE_POP
])dnl
