"""What the scripts that drive the real nooa-memory package share (nooa-interop.py, nooa-read.py):
checking that Python has nooa's dependencies (a missing one is reported by name, exit code 3),
freezing nooa's clock, and putting the reference's sources on the path."""
import sys
import time


def prepare(src: str, now: float) -> None:
    missing = []
    for module in ("numpy", "pydantic"):
        try:
            __import__(module)
        except ImportError:
            missing.append(module)
    if missing:
        print(f"python3 lacks {', '.join(missing)}, which the nooa-memory reference needs; install them (pip install {' '.join(missing)})", file=sys.stderr)
        sys.exit(3)
    # nooa reads the time through time.time: freeze it before anything of nooa's is imported.
    time.time = lambda: now
    sys.path.insert(0, src)
