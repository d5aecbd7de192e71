"""`python3 -m bench` (from the repository root): the same as `python3 bench/bench.py`."""

import sys

from bench.runner import main

sys.exit(main())
