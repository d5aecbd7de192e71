"""Makes (or reuses) the Home Assistant venv of the tests: .build/ha-venv.

Run by make test-home-assistant with Debian's python3, outside the tests' private network
namespace: pip needs PyPI. Home Assistant core needs Python >= 3.13, which Debian 12 lacks, so one
is looked for: python3.14, then python3.13 on PATH (a pyenv shim that cannot run counts as none),
then each version under `pyenv root`/versions, then under ~/.pyenv/versions, newest first. None:
one line on standard error and exit 69 (EX_UNAVAILABLE); the tests never skip.

The venv is made with that Python and gets requirements.txt (Home Assistant, pinned there, and what
the tests' integrations need) under constraints.txt (everything else, pinned). It is reused when
its stamp (.build/ha-venv/eggtimer-stamp: the Python's version and both files' bytes) matches; else
it is made again from nothing. Then the pins of requirements.txt are checked against Home
Assistant's own manifests (mqtt, frontend): a version bump that forgets one fails here, not as an
integration Home Assistant cannot load without pip.

Usage: python3 Tests/homeassistant/venv.py        (prints the venv's python on its last line)
       python3 Tests/homeassistant/venv.py --lock (writes constraints.txt from a fresh resolution)
"""

import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
VENV = os.path.join(ROOT, ".build", "ha-venv")
REQUIREMENTS = os.path.join(HERE, "requirements.txt")
CONSTRAINTS = os.path.join(HERE, "constraints.txt")
STAMP = os.path.join(VENV, "eggtimer-stamp")
NEEDED = (3, 13)
# The integrations whose requirements.txt pins must match Home Assistant's manifests.
INTEGRATIONS = ("mqtt", "frontend", "conversation")


def version_of(python):
    """(major, minor, micro) of the Python at `python`, or None when it does not run."""
    try:
        done = subprocess.run(
            [python, "-c", "import sys; print('%d %d %d' % sys.version_info[:3])"],
            capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    try:
        return tuple(int(part) for part in done.stdout.split())
    except ValueError:
        return None


def pyenv_root():
    """What `pyenv root` says, or None without pyenv."""
    pyenv = shutil.which("pyenv")
    if not pyenv:
        return None
    try:
        done = subprocess.run([pyenv, "root"], capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired):
        return None
    root = done.stdout.decode().strip()
    return root if done.returncode == 0 and root else None


def versions_in(folder):
    """The python3 of each version folder under `folder`/versions, newest version name first."""
    found = glob.glob(os.path.join(folder, "versions", "*", "bin", "python3"))

    def key(path):
        name = os.path.basename(os.path.dirname(os.path.dirname(path)))
        return [int(part) if part.isdigit() else -1 for part in re.split(r"[.]", name)]

    return sorted(found, key=key, reverse=True)


def find_python():
    """The first Python >= 3.13 found, in the documented order: (path, version) or None."""
    candidates = [shutil.which(name) for name in ("python3.14", "python3.13")]
    root = pyenv_root()
    if root:
        candidates += versions_in(root)
    candidates += versions_in(os.path.expanduser("~/.pyenv"))
    for candidate in candidates:
        if not candidate:
            continue
        version = version_of(candidate)
        if version and version[:2] >= NEEDED:
            return candidate, version
    return None


def stamp_text(version):
    """What the stamp of a venv made now would say."""
    digest = hashlib.sha256()
    for path in (REQUIREMENTS, CONSTRAINTS):
        with open(path, "rb") as source:
            digest.update(source.read())
    return "python %d.%d.%d\npins %s\n" % (*version, digest.hexdigest())


def pip(*arguments):
    """Runs the venv's pip; a failure ends this script with pip's status."""
    done = subprocess.run([os.path.join(VENV, "bin", "python"), "-m", "pip", "--disable-pip-version-check", *arguments],
                          stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        print("venv.py: pip %s failed (%d)" % (arguments[0], done.returncode), file=sys.stderr)
        sys.exit(done.returncode)


def pinned():
    """requirements.txt's pins: {name (lower case, - for _): version}."""
    pins = {}
    with open(REQUIREMENTS) as source:
        for line in source:
            line = line.split("#")[0].strip()
            if line:
                name, version = line.split("==")
                pins[name.strip().lower().replace("_", "-")] = version.strip()
    return pins


def check_manifests():
    """Fails (exit 1) when a requirement of INTEGRATIONS in the installed Home Assistant is not
    pinned in requirements.txt at the manifest's version."""
    python = os.path.join(VENV, "bin", "python")
    script = (
        "import json, os, sys, homeassistant.components as c\n"
        "base = os.path.dirname(c.__file__)\n"
        "print(json.dumps({d: json.load(open(os.path.join(base, d, 'manifest.json'))).get('requirements', [])"
        " for d in sys.argv[1:]}))\n")
    done = subprocess.run([python, "-c", script, *INTEGRATIONS], capture_output=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        print("venv.py: cannot read Home Assistant's manifests: %s" % done.stderr.decode().strip(), file=sys.stderr)
        sys.exit(1)
    pins = pinned()
    wrong = []
    for domain, requirements in json.loads(done.stdout).items():
        for requirement in requirements:
            name, _, version = requirement.partition("==")
            if pins.get(name.lower().replace("_", "-")) != version:
                wrong.append("%s needs %s" % (domain, requirement))
    if wrong:
        print("venv.py: requirements.txt does not pin what Home Assistant's integrations need: %s"
              % "; ".join(wrong), file=sys.stderr)
        sys.exit(1)


def make(python, version, constrained=True):
    """Makes the venv from nothing with `python` and installs the pins."""
    shutil.rmtree(VENV, ignore_errors=True)
    os.makedirs(os.path.dirname(VENV), exist_ok=True)
    done = subprocess.run([python, "-m", "venv", VENV], stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        print("venv.py: %s -m venv failed (%d)" % (python, done.returncode), file=sys.stderr)
        sys.exit(done.returncode)
    arguments = ["install", "--quiet", "-r", REQUIREMENTS]
    if constrained:
        arguments += ["-c", CONSTRAINTS]
    pip(*arguments)
    check_manifests()


def main():
    lock = sys.argv[1:] == ["--lock"]
    if sys.argv[1:] and not lock:
        print("usage: venv.py [--lock]", file=sys.stderr)
        return 64
    found = find_python()
    if not found:
        print("eggtimer: the Home Assistant tests need Python >= 3.13 (python3.14 or python3.13 on PATH, or one "
              "under pyenv); none found", file=sys.stderr)
        return 69
    python, version = found
    if lock:
        make(python, version, constrained=False)
        frozen = subprocess.run([os.path.join(VENV, "bin", "python"), "-m", "pip", "freeze"], capture_output=True,
                                check=True).stdout.decode().splitlines()
        keep = [line for line in frozen if line.split("==")[0].lower().replace("_", "-") not in pinned()]
        with open(CONSTRAINTS, "w") as out:
            out.write("# Every other package in .build/ha-venv, pinned as pip resolved them for requirements.txt on\n"
                      "# Python %d.%d.%d (pip freeze, less what is pinned there), so each fresh venv gets the same ones.\n"
                      "# Made again with: python3 Tests/homeassistant/venv.py --lock (after changing requirements.txt).\n"
                      % version)
            out.write("\n".join(keep) + "\n")
        with open(STAMP, "w") as out:
            out.write(stamp_text(version))
        print(os.path.join(VENV, "bin", "python"))
        return 0
    try:
        with open(STAMP) as source:
            current = source.read()
    except OSError:
        current = None
    wanted = stamp_text(version)
    if current == wanted and os.access(os.path.join(VENV, "bin", "hass"), os.X_OK):
        print("Home Assistant venv: %s, reused (%s)" % (VENV, wanted.splitlines()[0]))
    else:
        print("Home Assistant venv: making %s with %s (Python %d.%d.%d)" % (VENV, python, *version))
        make(python, version)
        with open(STAMP, "w") as out:
            out.write(wanted)
    print(os.path.join(VENV, "bin", "python"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
