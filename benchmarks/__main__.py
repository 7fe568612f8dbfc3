"""`make bench`: run every benchmarks/bench_*.py module's ``run()``, which prints its own figures."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time

import benchmarks
from benchmarks import results
from railbook import compiled


def main(selected: list[str]) -> None:
    print(f"== interpreter: {results.interpreter()}; {compiled.status()}")
    names = sorted(m.name for m in pkgutil.iter_modules(benchmarks.__path__) if m.name.startswith("bench_"))
    for name in names:
        if selected and not any(s in name for s in selected):
            continue
        module = importlib.import_module(f"benchmarks.{name}")
        if getattr(module, "OPT_IN", False) and not selected:
            print(f"== {name}: opt-in, skipped (python -m benchmarks {name.removeprefix('bench_')})")
            continue
        print(f"== {name}: {(module.__doc__ or '').strip().splitlines()[0]}")
        start = time.perf_counter()
        module.run()
        print(f"   ({time.perf_counter() - start:.1f} s)")
    path = results.write()
    print(f"== figures written to {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
