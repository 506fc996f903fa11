# -*- shell-script -*-
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# MCA_opal_compress_gzip_CONFIG([action-if-can-compile], [action-if-cant-compile])
# Build the gzip codec when zlib.h and libz are found (Debian: zlib1g-dev).
AC_DEFUN([MCA_opal_compress_gzip_CONFIG],[
    AC_CONFIG_FILES([opal/mca/compress/gzip/Makefile])
    OPAL_VAR_SCOPE_PUSH([opal_compress_gzip_happy])

    OMPI_SUITE_CHECK_PACKAGE([compress_gzip], [zlib.h], [z], [deflateBound],
                             [opal_compress_gzip_happy=yes],
                             [opal_compress_gzip_happy=no])

    AS_IF([test "$opal_compress_gzip_happy" = "yes"],
          [$1],
          [AC_MSG_WARN([compress:gzip will not be built: zlib.h or libz not found (Debian package zlib1g-dev)])
           $2])

    AC_SUBST([compress_gzip_CPPFLAGS])
    AC_SUBST([compress_gzip_LDFLAGS])
    AC_SUBST([compress_gzip_LIBS])
    OPAL_VAR_SCOPE_POP
])dnl
