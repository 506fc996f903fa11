# -*- shell-script -*-
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# MCA_opal_compress_zstd_CONFIG([action-if-can-compile], [action-if-cant-compile])
# Build the zstd codec when zstd.h and libzstd are found (Debian: libzstd-dev).
AC_DEFUN([MCA_opal_compress_zstd_CONFIG],[
    AC_CONFIG_FILES([opal/mca/compress/zstd/Makefile])
    OPAL_VAR_SCOPE_PUSH([opal_compress_zstd_happy])

    OMPI_SUITE_CHECK_PACKAGE([compress_zstd], [zstd.h], [zstd], [ZSTD_compressCCtx],
                             [opal_compress_zstd_happy=yes],
                             [opal_compress_zstd_happy=no])

    AS_IF([test "$opal_compress_zstd_happy" = "yes"],
          [$1],
          [AC_MSG_WARN([compress:zstd will not be built: zstd.h or libzstd not found (Debian package libzstd-dev)])
           $2])

    AC_SUBST([compress_zstd_CPPFLAGS])
    AC_SUBST([compress_zstd_LDFLAGS])
    AC_SUBST([compress_zstd_LIBS])
    OPAL_VAR_SCOPE_POP
])dnl
