# -*- shell-script -*-
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# MCA_opal_compress_lzo_CONFIG([action-if-can-compile], [action-if-cant-compile])
# Build the lzo codec when lzo/lzo1x.h and liblzo2 are found (Debian: liblzo2-dev).
AC_DEFUN([MCA_opal_compress_lzo_CONFIG],[
    AC_CONFIG_FILES([opal/mca/compress/lzo/Makefile])
    OPAL_VAR_SCOPE_PUSH([opal_compress_lzo_happy])

    OMPI_SUITE_CHECK_PACKAGE([compress_lzo], [lzo/lzo1x.h], [lzo2], [lzo1x_1_compress],
                             [opal_compress_lzo_happy=yes],
                             [opal_compress_lzo_happy=no])

    AS_IF([test "$opal_compress_lzo_happy" = "yes"],
          [$1],
          [AC_MSG_WARN([compress:lzo will not be built: lzo/lzo1x.h or liblzo2 not found (Debian package liblzo2-dev)])
           $2])

    AC_SUBST([compress_lzo_CPPFLAGS])
    AC_SUBST([compress_lzo_LDFLAGS])
    AC_SUBST([compress_lzo_LIBS])
    OPAL_VAR_SCOPE_POP
])dnl
