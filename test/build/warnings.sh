#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# The suite's own C sources stay warning-free: every .c file under ompi/ and
# opal/ of this repository is compiled (syntax and semantic checks only, no
# code generated) with the flags its Makefile in the configured object tree
# gives it, plus -Wall -Wextra -Wshadow -Werror.  Open MPI's build has no
# -Wall, so nothing else keeps them so.  The repository's file is compiled
# (not the staged copy), with the repository's headers found first.
# Components the configured tree did not build (a missing library) are
# skipped, saying so.  WARN_FLAGS overrides the warning set; WARN_CODEGEN=1
# compiles for real (-c -o /dev/null: the flow-based warnings of the
# optimiser too, about three times slower).
. "$TEST_LIB"
OBJ=$OVERLAY_BUILD_DIR/obj
[ -f "$OBJ/opal/include/opal_config.h" ] || skip "no configured object tree in $OBJ"
warn=${WARN_FLAGS:--Wall -Wextra -Wshadow}

# The flags make would pass, printed by a rule added to the directory's
# Makefile (per-target *_CPPFLAGS included; -o Makefile: never remade), and
# the components and MPI extensions configure chose to build.
cat >flags.mk <<'EOF'
suite-print-flags:
	@echo $(DEFS) $(DEFAULT_INCLUDES) $(INCLUDES) $(AM_CPPFLAGS) $(CPPFLAGS) $(foreach v,$(filter %_CPPFLAGS,$(.VARIABLES)),$($(v))) $(AM_CFLAGS) $(CFLAGS)
suite-print-built:
	@echo $(foreach v,$(filter MCA_%_DSO_SUBDIRS MCA_%_STATIC_SUBDIRS,$(.VARIABLES)),$($(v))) $(OMPI_MPIEXT_C_DIRS)
EOF
mk() { make -s -C "$1" -o Makefile -f Makefile -f "$PWD/flags.mk" "$2"; }
mk "$OBJ/ompi" suite-print-built | tr ' ' '\n' | sort -u >built.txt ||
    fail "cannot read the built components from $OBJ/ompi/Makefile"
[ -s built.txt ] || fail "no built components listed in $OBJ/ompi/Makefile"

: >jobs.txt
skipped=()
declare -A dflags
while IFS= read -r rel; do
    # Not laid on this base (its profile's OMPI_OVERLAY_SKIP: core hooks not
    # yet ported).
    for s in ${OMPI_OVERLAY_SKIP:-}; do
        [[ $rel == "$s"/* ]] && { skipped+=("$rel"); continue 2; }
    done
    d=$(dirname "$rel")
    while [ "$d" != . ] && [ ! -f "$OBJ/$d/Makefile" ]; do d=$(dirname "$d"); done
    [ "$d" != . ] || fail "no Makefile in $OBJ for $rel"
    # A component or extension configure left out (a library missing)?
    unit=$(sed -nE 's|^.*/(mca/[^/]+/[^/]+)/.*$|\1|p; s|^.*/(mpiext/[^/]+/c)/.*$|\1|p' <<<"$rel")
    if [ -n "$unit" ] && [[ $unit != mca/*/base ]] && ! grep -qx "$unit" built.txt; then
        skipped+=("$rel"); continue
    fi
    [ -n "${dflags[$d]:-}" ] || dflags[$d]=$(mk "$OBJ/$d" suite-print-flags) ||
        fail "cannot read the compile flags of $OBJ/$d"
    printf '%s\t%s\t%s\n' "$OBJ/$d" "$rel" "${dflags[$d]}" >>jobs.txt
done < <(cd "$TOP" && find ompi opal -name '*.c' | sort)
[ -s jobs.txt ] || fail "no source of the suite was built in $OBJ"

cat >one.sh <<'EOF'
#!/usr/bin/env bash
# one.sh JOBLINE: compile one file; its diagnostics in diag/<name>.txt
IFS=$'\t' read -r dir rel flags <<<"$1"
out=$DIAG/$(echo "$rel" | tr / _).txt
cd "$dir" && gcc $MODE $WARN -Werror -I"$TOP" $flags "$TOP/$rel" >"$out" 2>&1 || { echo "$rel" >>"$DIAG/failed"; }
EOF
chmod +x one.sh
mkdir -p diag
t0=$(date +%s)
mode=-fsyntax-only
[ "${WARN_CODEGEN:-0}" = 1 ] && mode="-c -o /dev/null"
DIAG=$PWD/diag WARN="$warn" MODE=$mode TOP=$TOP nice -n 10 xargs -d '\n' -P 2 -n 1 ./one.sh <jobs.txt
echo "compiled $(wc -l <jobs.txt) files with $warn -Werror in $(( $(date +%s) - t0 )) s"
[ ${#skipped[@]} -eq 0 ] || echo "not built in $OBJ, not checked: ${skipped[*]}"
if [ -s diag/failed ]; then
    while IFS= read -r rel; do cat "diag/$(echo "$rel" | tr / _).txt"; done <diag/failed
    fail "warnings in $(wc -l <diag/failed) file(s): $(tr '\n' ' ' <diag/failed)"
fi
echo "no warnings"
