// Package testenv is what tests ask of the machine they run on: the services (Redis,
// PostgreSQL) that the environment names, and the programs they drive. What a test needs and
// does not find skips it with a SKIPPED message on a developer's machine, and fails it in CI
// (CI set), where .ci/run installs and sets everything: a test that CI must run can never pass
// by skipping. It is imported by tests only.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// InCI reports whether the tests run in CI, where nothing they need may be missing.
func InCI() bool { return os.Getenv("CI") != "" }

// Missing stops a test that needs what is missing: it fails in CI and is skipped elsewhere,
// with how to get it.
func Missing(t testing.TB, what, how string) {
	t.Helper()
	if InCI() {
		t.Fatalf("%s, and CI must run this test (%s)", what, how)
	}
	t.Skipf("SKIPPED: %s (%s)", what, how)
}

// Optional reports whether a part of a test that needs what is missing may go on (false:
// leave that part out): it fails the test in CI and logs elsewhere.
func Optional(t testing.TB, ok bool, what string) bool {
	t.Helper()
	if ok {
		return true
	}
	if InCI() {
		t.Fatalf("%s, and CI must run this part of the test", what)
	}
	t.Logf("%s: this part of the test is left out", what)
	return false
}

// Program returns the path of the program name, or stops the test as Missing does.
func Program(t testing.TB, name, how string) string {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name+" is not installed", how)
	}
	return path
}

// RedisURL returns BANANAQR_TEST_REDIS_URL, the Redis the tests may use, or stops the test as
// Missing does.
func RedisURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("BANANAQR_TEST_REDIS_URL")
	if url == "" {
		Missing(t, "BANANAQR_TEST_REDIS_URL is not set", "set it, e.g. redis://127.0.0.1:6379/0, to run the Redis tests")
	}
	return url
}

// PostgresURL returns BANANAQR_TEST_POSTGRES_URL, the PostgreSQL the tests may use, or stops
// the test as Missing does.
func PostgresURL(t testing.TB) string {
	t.Helper()
	url := os.Getenv("BANANAQR_TEST_POSTGRES_URL")
	if url == "" {
		Missing(t, "BANANAQR_TEST_POSTGRES_URL is not set",
			"set it, e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable, to run against PostgreSQL")
	}
	return url
}

// Full reports whether the long sweeps run whole: BANANAQR_FULL set to anything but "" or "0".
// By default, in CI too, each runs a deterministic sample (Sampled).
func Full() bool {
	v := os.Getenv("BANANAQR_FULL")
	return v != "" && v != "0"
}

// Sampled reports whether case i of a long sweep runs: every case under BANANAQR_FULL=1, and
// otherwise each fourth (i a multiple of 4), the same on every run. A sweep over several
// dimensions adds their indexes (version + class, say), so that the sample moves along one as
// the other changes and every value of each still runs.
func Sampled(i int) bool { return Full() || i%4 == 0 }

// SampleNote is what a sampled sweep logs: how many of its cases ran, and how to run them all.
func SampleNote(t testing.TB, ran, total int) {
	t.Helper()
	if ran < total {
		t.Logf("sampled: %d of %d cases (BANANAQR_FULL=1 runs them all)", ran, total)
	}
}
