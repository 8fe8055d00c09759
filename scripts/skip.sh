# Sourced by the test scripts: their one rule for what a machine lacks.
# note_skipped says what did not run on a developer's machine (a SKIPPED line, which test.sh
# lists in its summary) and goes on; with CI set it fails the script instead. skip does the same
# and then ends the script (exit 0).
note_skipped() {
	if [ -n "${CI:-}" ]; then
		echo "FAIL: $*" >&2
		exit 1
	fi
	echo "SKIPPED: $*"
}

skip() {
	note_skipped "$@"
	exit 0
}
