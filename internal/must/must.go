// Package must stops a test whose set-up fails: must.Get(f())(t) is f's value, or the end of
// the test with f's error. It is imported by tests only.
package must

import "testing"

// Get returns a function that gives v to the test t, or fails t at once with err. It takes the
// two results of a call as they come, must.Get(os.ReadFile(name))(t), which Go allows only
// as the whole argument list; hence the second call, which names the test.
func Get[T any](v T, err error) func(testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}
