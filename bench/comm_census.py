#!/usr/bin/env python3
#
# Copyright (c) 2026 The ompi-research-components authors.
# SPDX-License-Identifier: BSD-3-Clause
#
# Reads the massif snapshots bench/comm_census.sh takes (before and after K
# used communicators of a kind, one pair per rank) and prints the heap
# bytes per communicator by owner: each allocation's stack is walked from
# the allocation site towards main, and the first frame that names an
# owner (a collective component, the PML, attributes, the info subscriber
# table, ...) takes its bytes.  Generic containers (hash tables, pointer
# arrays, free lists, opal_obj_new) are walked through, so a hash table a
# collective module makes counts as that module's.
#
#   comm_census.py DIR  (DIR/<kind>.<np>.{a,b}.<rank> and DIR/<kind>.<np>.info)
import glob
import os
import re
import statistics
import sys

OWNERS = [
    (r'infosubscri', 'info subscriber table'),
    (r'^(?:ompi|mca)_coll_([a-z0-9]+)', 'coll/{}'),
    # components' static functions (called through module pointers)
    (r'^(libnbc|tuned|basic|han|adapt)_', 'coll/{}'),
    (r'^mca_pml_([a-z0-9]+)', 'pml/{}'),
    (r'^mca_(?:bml|btl)_', 'bml/btl'),
    (r'^(?:ompi_attr_|attr_)', 'attributes'),
    (r'grpmap', 'grpmap'),
    (r'^ompi_group_|^ompi_proc_', 'group'),
    (r'^(?:mca_topo_|ompi_topo)', 'topo'),
    (r'comm_store', 'comm_store'),
    (r'^(?:opal_info_|ompi_info_|ompi_mpiinfo)', 'info object'),
    (r'^(?:ompi_comm_|ompi_errhandler)', 'communicator'),
    (r'^(?:PMPI_|MPI_)', 'MPI call: {}'),
]
OWNERS = [(re.compile(p), n) for p, n in OWNERS]
NODE = re.compile(r'^( *)n(\d+): (\d+) (.*)$')
FUNC = re.compile(r'^(?:0x[0-9A-Fa-f]+: )?(\S+)')


def owner_of(path):
    for f in path:
        for rx, name in OWNERS:
            m = rx.search(f)
            if m:
                return name.format(*(m.groups() or [f])), f
    return 'other: ' + (path[0] if path else '?'), path[0] if path else '?'


def read_snapshot(fn):
    """owner -> bytes, site -> bytes, heap, extra"""
    owners, sites, heap, extra = {}, {}, 0, 0
    path = []
    in_tree = False
    with open(fn) as fh:
        for line in fh:
            if line.startswith('mem_heap_B='):
                heap = int(line.split('=')[1])
            elif line.startswith('mem_heap_extra_B='):
                extra = int(line.split('=')[1])
            elif line.startswith('heap_tree='):
                in_tree = True
            elif in_tree:
                m = NODE.match(line.rstrip('\n'))
                if not m:
                    continue
                depth, nchild, nbytes, rest = len(m.group(1)), int(m.group(2)), int(m.group(3)), m.group(4)
                if depth == 0:
                    continue
                f = FUNC.match(rest)
                name = f.group(1) if f else rest
                if rest.startswith('in ') and 'below massif' in rest:
                    name = '(below threshold)'
                del path[depth - 1:]
                path.append(name)
                if nchild == 0:
                    o, site = owner_of(path)
                    owners[o] = owners.get(o, 0) + nbytes
                    key = (o, path[0] if path[0] == site else '%s <- %s' % (path[0], site))
                    sites[key] = sites.get(key, 0) + nbytes
    return owners, sites, heap, extra


def main():
    d = sys.argv[1]
    runs = {}
    for info in sorted(glob.glob(os.path.join(d, '*.info'))):
        kind, np_ = os.path.basename(info)[:-5].rsplit('.', 1)
        with open(info) as fh:
            m = re.search(r'members=(\d+) k=(\d+)', fh.read())
        runs.setdefault(kind, []).append((int(np_), int(m.group(1)), int(m.group(2))))
    order = ['dup', 'row', 'col', 'plane', 'cart']
    for kind in sorted(runs, key=lambda k: order.index(k) if k in order else 99):
        cols = sorted(runs[kind])
        table, totals, site_tab = {}, [], {}
        for np_, members, k in cols:
            per_rank, tot, ext, site_rank = [], [], [], []
            for r in range(np_):
                base = os.path.join(d, '%s.%d' % (kind, np_))
                oa, sa, ha, xa = read_snapshot('%s.a.%d' % (base, r))
                ob, sb, hb, xb = read_snapshot('%s.b.%d' % (base, r))
                per_rank.append({o: (ob.get(o, 0) - oa.get(o, 0)) / k for o in set(oa) | set(ob)})
                site_rank.append({s: (sb.get(s, 0) - sa.get(s, 0)) / k for s in set(sa) | set(sb)})
                tot.append((hb - ha) / k)
                ext.append((xb - xa) / k)
            owners = set().union(*per_rank)
            for o in owners:
                table.setdefault(o, {})[np_] = statistics.median(p.get(o, 0) for p in per_rank)
            for s in set().union(*site_rank):
                site_tab.setdefault(s, {})[np_] = statistics.median(p.get(s, 0) for p in site_rank)
            totals.append((np_, members, statistics.median(tot), statistics.median(ext)))
        hdr = ''.join('%12s' % ('np=%d (%d)' % (n, m)) for n, m, _ in cols)
        print('\n%s: bytes per used communicator by owner (median rank; members in parentheses)' % kind)
        print('%-28s%s %12s' % ('owner', hdr, 'B/member'))
        xs = [m for _, m, _ in cols]

        def slope(ys):
            if len(xs) < 2 or max(xs) == min(xs):
                return float('nan')
            mx, my = statistics.mean(xs), statistics.mean(ys)
            return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)

        rows = sorted(table.items(), key=lambda kv: -max(kv[1].values()))
        for o, v in rows:
            ys = [v.get(n, 0) for n, _, _ in cols]
            if max(abs(y) for y in ys) < 8:
                continue
            print('%-28s%s %12.2f' % (o[:28], ''.join('%12.0f' % y for y in ys), slope(ys)))
        ys = [t for _, _, t, _ in totals]
        print('%-28s%s %12.2f' % ('total (bytes asked)', ''.join('%12.0f' % y for y in ys), slope(ys)))
        ys = [x for _, _, _, x in totals]
        print('%-28s%s %12.2f' % ('malloc overhead', ''.join('%12.0f' % y for y in ys), slope(ys)))
        if os.environ.get('SITES'):
            print('  call sites (owner <- allocation site):')
            for (o, s), v in sorted(site_tab.items(), key=lambda kv: -max(kv[1].values())):
                ys = [v.get(n, 0) for n, _, _ in cols]
                if max(abs(y) for y in ys) >= 16:
                    print('  %-22s %-56s%s' % (o[:22], s[:56], ''.join('%8.0f' % y for y in ys)))


if __name__ == '__main__':
    main()
