# -*- shell-script -*-
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# MCA_opal_compress_lz4_CONFIG([action-if-can-compile], [action-if-cant-compile])
# Build the lz4 codec when lz4.h and liblz4 are found (Debian: liblz4-dev).
AC_DEFUN([MCA_opal_compress_lz4_CONFIG],[
    AC_CONFIG_FILES([opal/mca/compress/lz4/Makefile])
    OPAL_VAR_SCOPE_PUSH([opal_compress_lz4_happy])

    OMPI_SUITE_CHECK_PACKAGE([compress_lz4], [lz4.h], [lz4], [LZ4_compress_fast],
                             [opal_compress_lz4_happy=yes],
                             [opal_compress_lz4_happy=no])

    AS_IF([test "$opal_compress_lz4_happy" = "yes"],
          [$1],
          [AC_MSG_WARN([compress:lz4 will not be built: lz4.h or liblz4 not found (Debian package liblz4-dev)])
           $2])

    AC_SUBST([compress_lz4_CPPFLAGS])
    AC_SUBST([compress_lz4_LDFLAGS])
    AC_SUBST([compress_lz4_LIBS])
    OPAL_VAR_SCOPE_POP
])dnl
