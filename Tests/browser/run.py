"""Runs the browser tests (Tests/browser/test_*.py) once per engine (harness.ENGINES: Chromium,
then WebKitGTK) and ends with one count line for CI's guard, both engines counted:
`browser tests: N passed, M failed`. Exit status 0 only when every test ran and passed.

Each test runs as its class's copy for the engine, named for it (`test_page.PageTests[webkit]`),
whose `engine` the test hands to harness.Browser. WebKitGTK's tests share one private X server
(harness.Display), started for the first of them and killed at the end.

Usage (from the clone, inside scripts/isolated.sh): /usr/bin/python3 Tests/browser/run.py [-k PATTERN]
PATTERN is found anywhere in a test's name, engine included (`-k webkit`, `-k PageTests[chromium]`),
as text or as a shell-style pattern (`-k 'Page*soft'`).
"""

import fnmatch
import os
import signal
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from harness import ENGINES, Display  # noqa: E402 (after the path it is found on)


def tests_of(suite):
    """The tests in a suite, flattened; a module that failed to load is one (failing) test."""
    for item in suite:
        if isinstance(item, unittest.TestSuite):
            yield from tests_of(item)
        else:
            yield item


def for_engine(test, engine, classes):
    """A copy of `test` in its class's subclass for `engine`: `engine` set, the name saying it."""
    base = type(test)
    key = (base, engine)
    if key not in classes:
        classes[key] = type(base.__name__ + "[" + engine + "]", (base,), {
            "engine": engine, "__module__": base.__module__, "__qualname__": base.__qualname__ + "[" + engine + "]"})
    return classes[key](test._testMethodName)


class Result(unittest.TextTestResult):
    """A text result that knows the test running now, whose cleanups an interrupted run still runs."""

    running = None

    def startTest(self, test):
        # Kept after it stops (unittest stops a test even as an interrupt leaves it): cleanups
        # already run are not run twice.
        Result.running = test
        super().startTest(test)


def interrupted(number, frame):
    """SIGTERM as Ctrl-C: unittest lets KeyboardInterrupt through (it takes any other exception,
    SystemExit too, for the test's error and goes on to the next test)."""
    raise KeyboardInterrupt


def main():
    pattern = None
    if len(sys.argv) == 3 and sys.argv[1] == "-k":
        pattern = sys.argv[2]
    elif len(sys.argv) != 1:
        print("usage: run.py [-k PATTERN]", file=sys.stderr)
        return 64
    # Ended by a signal or Ctrl-C, the run still ends the test's browser and kitchen (its
    # cleanups) and the X server.
    signal.signal(signal.SIGTERM, interrupted)
    found = list(tests_of(unittest.TestLoader().discover(HERE, pattern="test_*.py", top_level_dir=HERE)))
    classes = {}
    suite = unittest.TestSuite()
    for engine in ENGINES:
        for test in found:
            # A module that did not load (unittest.loader._FailedTest) fails once, not per engine.
            if not isinstance(test, unittest.TestCase) or type(test).__module__ == "unittest.loader":
                if engine == ENGINES[0]:
                    suite.addTest(test)
                continue
            test = for_engine(test, engine, classes)
            if pattern is None or pattern in test.id() or fnmatch.fnmatchcase(test.id(), "*" + pattern + "*"):
                suite.addTest(test)
    try:
        result = unittest.TextTestRunner(verbosity=2, resultclass=Result).run(suite)
    except KeyboardInterrupt:
        if Result.running is not None:
            Result.running.doCleanups()
        print("browser tests: interrupted", file=sys.stderr)
        return 130
    finally:
        Display.stop_shared()
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    passed = result.testsRun - failed - len(result.skipped)
    print("browser tests: %d passed, %d failed" % (passed, failed + len(result.skipped)))
    return 0 if failed == 0 and not result.skipped and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
