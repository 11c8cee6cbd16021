"""Reads a store with the real nooa-memory package (test/store/pg-copy.test.ts): every memory,
archived ones included, as nooa returns it, its embedding and its edges. Prints one JSON object.

usage: python3 nooa-read.py <nooa src folder> <store path> <now>
nooa stamps objects it makes while reading (an Edge's created_at) with time.time: it is frozen at <now>.
A missing Python dependency is reported by name with exit code 3.
"""
import json
import sys

from nooa_reference import prepare

src, path, now = sys.argv[1], sys.argv[2], float(sys.argv[3])
prepare(src, now)

from nooa_memory.store import MemoryStore  # noqa: E402

store = MemoryStore(path)
out = []
for m in store.all_memories(include_archived=True):
    emb = store.get_embedding(m.id)
    out.append({
        "memory": m.model_dump(mode="json"),
        "embedding": None if emb is None else [float(x) for x in emb],
        "edges": [e.model_dump(mode="json") for e in store.neighbors(m.id)],
    })
print(json.dumps({"memories": out, "maintenance": store.maintenance_history(1000)}))
