"""Runs every bench/tests/test_*.py and ends with one line the CI guard reads (.ci/run):
`bench unit tests: N passed, 0 failed`. Exit status 1 when any failed or none ran."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

suite = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py", top_level_dir=ROOT)
result = unittest.TextTestRunner(verbosity=1).run(suite)
failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
passed = result.testsRun - failed - len(result.skipped)
sys.stderr.flush()
print(f"bench unit tests: {passed} passed, {failed} failed")
sys.exit(0 if failed == 0 and passed > 0 else 1)
