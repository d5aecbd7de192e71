# The check runner of the install checks (scripts/test-install.sh) and the package checks
# (scripts/test-package.sh), sourced by both: `check NAME COMMAND...` runs the command, counts it
# in $passed or $failed, says "ok: NAME" or "FAILED: NAME" and shows its output only when it fails.
passed=0
failed=0

check() {
    name=$1
    shift
    if output=$("$@" 2>&1); then
        passed=$((passed + 1))
        echo "ok: $name"
    else
        failed=$((failed + 1))
        echo "FAILED: $name"
        printf '%s\n' "$output" | sed 's/^/    /'
    fi
}
