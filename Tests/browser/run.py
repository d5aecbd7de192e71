"""Runs the browser tests (Tests/browser/test_*.py) and ends with one count line for CI's guard:
`browser tests: N passed, M failed`. Exit status 0 only when every test ran and passed.

Usage (from the clone, inside scripts/isolated.sh): /usr/bin/python3 Tests/browser/run.py [-k PATTERN]
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def main():
    loader = unittest.TestLoader()
    if len(sys.argv) == 3 and sys.argv[1] == "-k":
        loader.testNamePatterns = ["*" + sys.argv[2] + "*"]
    elif len(sys.argv) != 1:
        print("usage: run.py [-k PATTERN]", file=sys.stderr)
        return 64
    suite = loader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    passed = result.testsRun - failed - len(result.skipped)
    print("browser tests: %d passed, %d failed" % (passed, failed + len(result.skipped)))
    return 0 if failed == 0 and not result.skipped and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
