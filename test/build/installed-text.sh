#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# What the suite installs speaks a user's language: no MCA help text
# (ompi_info --all --level 9), show_help file, man page or header of the
# suite's own talks of "the seed", "seed 001", a thesis, the research
# documents' file names or the project's internal issues ("issue 21").
# Sources are cited as a paper would (authors, title, venue).  A random
# seed is not in question.  The help files, man pages and headers checked
# are those this repository provides, found where the installation put them.
. "$TEST_LIB"

# Internal vocabulary, and the uses of "seed" that are fine.
vocab="\\bseeds?\\b|\\bseed's|\\bthes[ie]s\\b|\\bissue[ -]?#?[0-9]+|\\bISSUE[0-9]+|\\b00[0-9]_[0-9a-f]{16}"
fine='random (number )?seeds?|seeds? (of|for) (the|a) random|RNG seed'

: >hits.txt
scan() {    # scan FILE: append its lines in the internal vocabulary to hits.txt
    grep -EinH -- "$vocab" "$1" | grep -Eiv -- "$fine" >>hits.txt || true
}

note "ompi_info --all --level 9 (parsable: one line per variable, help text whole)"
"$OMPI_INFO" --all --level 9 --parsable >ompi_info.txt 2>&1 || { tail ompi_info.txt; fail "ompi_info failed"; }
# (less the frameworks a base does not carry yet: config/base/<version>)
for fw in compress:opal/mca/compress grpmap:ompi/mca/grpmap redist:ompi/mca/redist \
          comm_store:ompi/mca/comm_store fcoll:ompi/mca/fcoll/la_twophase pml:ompi/mca/pml/zcomp; do
    have "${fw#*:}" || continue
    grep -q "^mca:${fw%%:*}:" ompi_info.txt || fail "ompi_info lists no ${fw%%:*} parameters"
done
scan ompi_info.txt

note "help files, man pages and headers the repository provides"
n_help=0 n_man=0 n_hdr=0 missing=()
while IFS= read -r rel; do
    f=$PREFIX/share/openmpi/$(basename "$rel")
    if [ -f "$f" ]; then scan "$f"; n_help=$((n_help + 1)); else missing+=("$rel"); fi
done < <(cd "$TOP" && find ompi opal -name 'help-*.txt' | sort)
while IFS= read -r rel; do
    f=$PREFIX/share/man/man3/$(basename "$rel" .3in).3
    if [ -f "$f" ]; then scan "$f"; n_man=$((n_man + 1)); else missing+=("$rel"); fi
done < <(cd "$TOP" && find ompi opal -name '*.3in' | sort)
# Headers: an installed header whose path ends with a repository header's
# path (devel headers), or an MPI extension's header (include/.../mpiext/).
(cd "$TOP" && find ompi opal -name '*.h' | sort) >repo_headers.txt
find "$PREFIX/include" -name '*.h' | sort | awk '
    NR == FNR { rel[$0] = 1; if ($0 ~ /^ompi\/mpiext\//) { n = split($0, p, "/"); ext[p[n]] = 1 } next }
    { for (r in rel) if (substr($0, length($0) - length(r)) == "/" r) { print; next }
      n = split($0, p, "/"); if (p[n - 1] == "mpiext" && (p[n] in ext)) print }
' repo_headers.txt - >headers.txt
while IFS= read -r h; do scan "$h"; n_hdr=$((n_hdr + 1)); done <headers.txt
echo "checked: $(grep -c . ompi_info.txt) ompi_info lines, $n_help help files, $n_man man pages, $n_hdr headers"
[ ${#missing[@]} -eq 0 ] || echo "not installed (component not built?): ${missing[*]}"
[ "$n_help" -gt 0 ] && [ "$n_man" -gt 0 ] && [ "$n_hdr" -gt 0 ] ||
    fail "found too little of the suite's installed text to check"

if [ -s hits.txt ]; then
    sed "s|^$PREFIX/||" hits.txt | cut -c1-300
    fail "$(wc -l <hits.txt) installed line(s) in internal vocabulary (seed, thesis, issue N)"
fi
echo "no internal vocabulary in the suite's installed text"
