"""Runs the Home Assistant tests (Tests/homeassistant/test_*.py) against one Session (a broker, a
Home Assistant, a kitchen: harness.py) and ends with one count line for CI's guard:
`home assistant tests: N passed, M failed`. Exit status 0 only when every test ran and passed.

Usage (from the clone, inside scripts/isolated.sh, with the venv's python):
    .build/ha-venv/bin/python -B Tests/homeassistant/run.py [-k PATTERN]
"""

import os
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import harness  # noqa: E402  (found through the path above)


def main():
    started = time.monotonic()
    loader = unittest.TestLoader()
    if len(sys.argv) == 3 and sys.argv[1] == "-k":
        loader.testNamePatterns = ["*" + sys.argv[2] + "*"]
    elif len(sys.argv) != 1:
        print("usage: run.py [-k PATTERN]", file=sys.stderr)
        return 64
    suite = loader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)
    result = None
    try:
        result = unittest.TextTestRunner(verbosity=2).run(suite)
    finally:
        if result is None or not result.wasSuccessful():
            # What Home Assistant and the kitchen said stays for a look (their folders are named).
            os.environ["EGGTIMER_KEEP_HA"] = "1"
        harness.close_session()
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    passed = max(0, result.testsRun - failed - len(result.skipped))
    print("home assistant tests took %.0f s in all" % (time.monotonic() - started))
    print("home assistant tests: %d passed, %d failed" % (passed, failed + len(result.skipped)))
    return 0 if failed == 0 and not result.skipped and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
