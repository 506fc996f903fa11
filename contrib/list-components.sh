#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# List, through the installed ompi_info, the MCA components this repository
# adds (every <layer>/mca/<framework>/<component> directory of the overlay).
# Exits 1 if one of them is missing from the installation.
#
# Usage: contrib/list-components.sh PREFIX
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PREFIX=${1:?usage: $0 PREFIX}
info=$("$PREFIX/bin/ompi_info" 2>&1) || { echo "ompi_info failed: $info" >&2; exit 1; }

echo "$(echo "$info" | sed -n 's/^ *Open MPI: /Open MPI /p' | head -1), installed in $PREFIX"
echo "Components this project adds, as ompi_info lists them:"
# What the installed base's profile leaves off it (a name its series never had).
ver=$(echo "$info" | sed -n 's/^ *Open MPI: //p' | head -1)
skip=""
[ -f "$TOP/config/base/$ver" ] && skip=$(. "$TOP/config/base/$ver"; echo "${OMPI_OVERLAY_SKIP:-}")
found=0 missing=0
for d in "$TOP"/opal/mca/*/* "$TOP"/ompi/mca/*/* "$TOP"/orte/mca/*/*; do
    [ -d "$d" ] || continue
    comp=$(basename "$d"); fw=$(basename "$(dirname "$d")")
    [ "$comp" = base ] && continue
    # Shared code, not a component: autogen builds only directories with a
    # Makefile.am or configure.m4 (opal/mca/common/suite is header-only).
    [ -e "$d/Makefile.am" ] || [ -e "$d/configure.m4" ] || continue
    # Work in progress that autogen is told to skip is not expected to be built.
    if [ -e "$d/.ompi_ignore" ] || [ -e "$d/.opal_ignore" ]; then
        echo "  MCA $fw: $comp -- not built yet (work in progress: $(head -1 "$d"/.o*_ignore))"
        continue
    fi
    rel=${d#"$TOP"/} s=""
    for s in $skip; do [[ $rel == "$s" || $rel == "$s"/* ]] && break; s=""; done
    if [ -n "$s" ]; then
        echo "  MCA $fw: $comp -- not on Open MPI $ver (config/base/$ver leaves $s out, and says why)"
        continue
    fi
    line=$(echo "$info" | grep -E "^ *MCA $fw: $comp " | head -1)
    if [ -n "$line" ]; then
        echo "  $(echo "$line" | sed 's/^ *//')"; found=$((found + 1))
    else
        echo "  MCA $fw: $comp -- NOT in this installation"; missing=$((missing + 1))
    fi
done
[ $((found + missing)) -eq 0 ] && echo "  (none yet: see the status table in README.md)"
[ "$missing" -eq 0 ]
