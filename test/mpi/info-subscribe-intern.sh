#!/usr/bin/env bash
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Info subscriptions keep their keys and default values once per process
# (config/patches/<series>/0033-info-subscriber-interned.patch, issue 38):
# test/mpi/src/info_intern.c subscribes 64 objects to two keys each, from
# buffers it rewrites, and asks the records to cost at most 200 bytes per
# object (with copies: about 270) and every callback, at subscription and
# when the info is made, to see its own key and value.
. "$TEST_LIB"
needs patch:0033
build_opal intern "$TOP/test/mpi/src/info_intern.c"
./intern >out.txt 2>&1 || { cat out.txt; fail "info_intern failed"; }
assert_grep '^info_intern: ok' out.txt "info_intern: no result"
cat out.txt
echo "info-subscribe-intern: OK"
