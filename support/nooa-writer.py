"""
A nooa agent writing a store beside Mnemo, driven by JSON lines on stdin (one operation each),
answering one JSON line per operation on stdout. It runs the real nooa-memory reference package
(argv[1]: its folder), which knows nothing of Mnemo: every change it makes reaches the change feed
as a foreign writer's.

argv: <nooa reference folder> <db>
in:  {"op": "add"|"update"|"touch"|"archive"|"restore"|"link"|"unlink"|"delete", ...}
out: {"ok": true, "id": ...} or {"ok": false, "error": "..."}
"""
import json
import sys

sys.path.insert(0, sys.argv[1] + "/src")
from nooa_memory.schema import AccessRecord, EdgeType, Memory  # noqa: E402
from nooa_memory.store import MemoryStore  # noqa: E402

store = MemoryStore(sys.argv[2])


def run(cmd):
    op = cmd["op"]
    if op == "add":
        m = Memory(content=cmd["content"], importance=cmd.get("importance", 5.0), tags=cmd.get("tags", []))
        store.add(m)
        return m.id
    m = store.get(cmd["id"])
    if m is None:
        raise KeyError(cmd["id"])
    if op == "update":
        m.content = cmd["content"]
        m.importance = cmd.get("importance", m.importance)
        store.save(m)
    elif op == "touch":
        m.log_access(AccessRecord(ts=cmd["ts"], channel="recalled"))
        store.save(m)
    elif op == "archive":
        store.archive(m.id)
    elif op == "restore":
        m.archived = False
        store.save(m)
    elif op == "link":
        store.add_edge(m.id, cmd["dst"], EdgeType(cmd.get("type", "related")), cmd.get("weight", 1.0))
    elif op == "unlink":
        m.edges = [e for e in m.edges if e.target_id != cmd["dst"]]
        store.save(m)
    elif op == "delete":
        store.delete(m.id)
    else:
        raise ValueError(op)
    return m.id


for line in sys.stdin:
    try:
        out = {"ok": True, "id": run(json.loads(line))}
    except Exception as err:  # the driver reports every failure instead of dying
        out = {"ok": False, "error": f"{type(err).__name__}: {err}"}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
