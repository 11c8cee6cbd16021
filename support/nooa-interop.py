"""Drives the real nooa-memory package against a store Mnemo has written (test/store/nooa-interop.test.ts).

usage: python3 nooa-interop.py <nooa src folder> <store path> <now>

With the clock frozen at <now>, nooa opens the store and adds a memory, updates one, archives one,
links two and recalls (which logs accesses on the memories it returns and saves them). Prints one
JSON object naming the memories each step wrote, for the test to find in the change feed.
A missing Python dependency is reported by name with exit code 3.
"""
import json
import sys

from nooa_reference import prepare

src, path, now = sys.argv[1], sys.argv[2], float(sys.argv[3])
prepare(src, now)

from nooa_memory.config import RetrievalConfig  # noqa: E402
from nooa_memory.embeddings import HashingEmbedder  # noqa: E402
from nooa_memory.retrieval import RetrievalEngine  # noqa: E402
from nooa_memory.schema import EdgeType, Memory, MemoryType  # noqa: E402
from nooa_memory.store import MemoryStore  # noqa: E402

store = MemoryStore(path)
embedder = HashingEmbedder(256)
live = store.all_memories()
assert len(live) >= 4, "the fixture has live memories to work on"

added = Memory(type=MemoryType.INFO, content="written by nooa beside mnemo: the deploy key rotates monthly")
store.add(added, embedder.embed(added.embedding_text()))

updated = live[0]
updated.content = updated.content + " (updated by nooa)"
store.save(updated)

archived = live[1]
store.archive(archived.id)

src_id, dst_id = live[2].id, live[3].id
store.add_edge(src_id, dst_id, EdgeType.SUPPORTS, 0.625)

engine = RetrievalEngine(store, embedder, RetrievalConfig())
recalled = [m.id for m in engine.recall("deploy key rotates", k=3)]

store.close()
print(json.dumps({"added": added.id, "updated": updated.id, "archived": archived.id, "linked": [src_id, dst_id], "recalled": recalled}))
