package main

import (
	"strings"
	"testing"
)

// A stream of go test -json events as Go 1.26 writes them: a passing, a failing and a skipped
// test, a skipped subtest, a package that does not build.
const events = `{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"TestPass"}
{"Action":"output","Package":"p","Test":"TestPass","Output":"=== RUN   TestPass\n"}
{"Action":"output","Package":"p","Test":"TestPass","Output":"    a_test.go:9: chatter\n"}
{"Action":"pass","Package":"p","Test":"TestPass","Elapsed":0}
{"Action":"run","Package":"p","Test":"TestFail"}
{"Action":"output","Package":"p","Test":"TestFail","Output":"=== RUN   TestFail\n"}
{"Action":"output","Package":"p","Test":"TestFail","Output":"    a_test.go:12: got 1, want 2\n"}
{"Action":"output","Package":"p","Test":"TestFail","Output":"--- FAIL: TestFail (0.00s)\n"}
{"Action":"fail","Package":"p","Test":"TestFail","Elapsed":0}
{"Action":"run","Package":"p","Test":"TestRedis"}
{"Action":"output","Package":"p","Test":"TestRedis","Output":"=== RUN   TestRedis\n"}
{"Action":"output","Package":"p","Test":"TestRedis","Output":"    redis_test.go:29: SKIPPED: set BANANAQR_TEST_REDIS_URL\n"}
{"Action":"output","Package":"p","Test":"TestRedis","Output":"--- SKIP: TestRedis (0.00s)\n"}
{"Action":"skip","Package":"p","Test":"TestRedis","Elapsed":0}
{"Action":"output","Package":"p","Test":"TestSub/slow","Output":"--- SKIP: TestSub/slow (0.00s)\n"}
{"Action":"skip","Package":"p","Test":"TestSub/slow","Elapsed":0}
{"Action":"output","Package":"p","Output":"FAIL\n"}
{"Action":"output","Package":"p","Output":"FAIL\tp\t0.01s\n"}
{"Action":"fail","Package":"p","Elapsed":0.01}
{"ImportPath":"q","Action":"build-output","Output":"q/x.go:3:1: syntax error\n"}
{"ImportPath":"q","Action":"build-fail"}
not json at all
`

func TestReport(t *testing.T) {
	var out strings.Builder
	skips, err := report(strings.NewReader(events), &out)
	if err != nil {
		t.Fatal(err)
	}
	want := "=== RUN   TestFail\n    a_test.go:12: got 1, want 2\n--- FAIL: TestFail (0.00s)\nFAIL\nFAIL\tp\t0.01s\n" +
		"q/x.go:3:1: syntax error\nnot json at all\n"
	if out.String() != want {
		t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
	}
	wantSkips := []string{"p TestRedis: SKIPPED: set BANANAQR_TEST_REDIS_URL", "p TestSub/slow: (no reason given)"}
	if strings.Join(skips, "\n") != strings.Join(wantSkips, "\n") {
		t.Errorf("skips %q, want %q", skips, wantSkips)
	}
}
