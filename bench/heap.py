"""Where a waiting long-poll's memory goes: reads the dhat-heap.json of a
server built with `--features dhat-heap` that had N long-polls waiting at
its peak, and prints the allocation sites live at that peak (t-gmax),
largest first, in bytes per waiter (sites with at least N/2 blocks, so one
per waiter or more), named by their first frame outside the allocator.

    python3 bench/heap.py dhat-heap.json N
"""

import json
import re
import sys

path, n = sys.argv[1], int(sys.argv[2])
data = json.load(open(path))
frames = data["ftbl"]
ALLOCATOR = ("dhat::", "alloc::", "<alloc::", "__rust", "std::alloc", "core::ptr", "hashbrown::raw",
             "<hashbrown", "bytes::bytes_mut", "<bytes::", "<dhat")


def name(frame: str) -> str:
    frame = re.sub(r"^0x[0-9a-f]+: ", "", frame)
    return re.sub(r" \(\?\?\?:0:0\)$", "", frame)[:110]


sites: dict[str, list[int]] = {}
for pp in data["pps"]:
    if pp["gbk"] < n // 2:
        continue
    own = [name(frames[i]) for i in pp["fs"] if not any(a in frames[i] for a in ALLOCATOR)]
    site = own[0] if own else "?"
    total = sites.setdefault(site, [0, 0])
    total[0] += pp["gb"]
    total[1] += pp["gbk"]
print(f"live at the peak: {sum(p['gb'] for p in data['pps']):,} B; per waiter by site ({n:,} waiting):")
shown = 0
for site, (size, blocks) in sorted(sites.items(), key=lambda kv: -kv[1][0]):
    shown += size
    print(f"{size / n:8.0f} B  {blocks / n:4.1f} blocks  {site}")
print(f"{shown / n:8.0f} B  per waiter in all")
