#!/usr/bin/env python3
"""eggtimer benchmarks: the entry point `make bench` and `make bench-quick` run (the package is
bench/, this file only starts it; see bench/__init__.py and bench/README.md).

    python3 bench/bench.py --binary PATH/eggtimer            # full: < 10 min, writes BENCHMARKS.md
    python3 bench/bench.py --quick --binary PATH/eggtimer    # seconds; prints, writes bench/out/ only

Exit status: 0 whatever the figures; 2 if the harness itself breaks (a crash, eggtimer missing)."""

import os
import sys

if __name__ == "__main__":
    sys.dont_write_bytecode = True  # no __pycache__ in the tree
    # This file's folder is the package: import it from the repository root, not as a module.
    sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    from bench.runner import main
    sys.exit(main())
