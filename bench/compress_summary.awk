# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Summarise compress_bench output: for each data set at size SIZE (default
# 1048576), the ratio of every codec, the codec with the best ratio, and the
# codec that moves the data fastest over a link of LINK MB/s (default 125,
# i.e. 1 Gbit/s) with compression, transfer and decompression done one after
# the other, as the speedup over sending raw.  Usage:
#   awk -v SIZE=16777216 -v LINK=12.5 -f compress_summary.awk bench.txt
BEGIN { if (!SIZE) SIZE = 1048576; if (!LINK) LINK = 125 }
$2 == SIZE && $3 != "memcpy" && NF == 8 && $4 + 0 > 0 {
    d = $1; c = $3
    if (!(d in seen)) { order[++nd] = d; seen[d] = 1 }
    if (!(c in cseen)) { corder[++nc] = c; cseen[c] = 1 }
    ratio[d, c] = $4
    t = 1 / $5 + 1 / ($4 * LINK) + 1 / $6          # seconds per MB, sequential
    sp = (1 / LINK) / t
    if (!((d, "best") in ratio) || $4 > ratio[d, "best"]) { ratio[d, "best"] = $4; bestr[d] = c }
    if (!(d in bests) || sp > bests[d]) { bests[d] = sp; bestc[d] = c }
}
END {
    printf "| data set |"
    for (i = 1; i <= nc; i++) printf " %s |", corder[i]
    printf " best ratio | fastest at %g MB/s (speedup) |\n|---|", LINK
    for (i = 1; i <= nc; i++) printf "---|"
    printf "---|---|\n"
    for (j = 1; j <= nd; j++) {
        d = order[j]; printf "| %s |", d
        for (i = 1; i <= nc; i++) printf " %.2f |", ratio[d, corder[i]]
        printf " %s | %s (%.2fx) |\n", bestr[d], (bests[d] > 1 ? bestc[d] : "raw"), (bests[d] > 1 ? bests[d] : 1)
    }
}
