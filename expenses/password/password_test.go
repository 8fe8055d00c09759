package password

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// vectors are PHC strings made by another implementation, the reference one's command-line
// tool (Debian package argon2, 0~20171227), with the commands given; its -k is the memory in
// KiB (its -m is the base-2 logarithm of it). Verify must accept each for its password, under
// the string's own parameters.
var vectors = []struct{ password, encoded string }{
	// printf '%s' 'correct horse battery staple' | argon2 'bananaqr-salt-16' -id -t 2 -k 19456 -p 1 -l 32 -e
	{"correct horse battery staple", "$argon2id$v=19$m=19456,t=2,p=1$YmFuYW5hcXItc2FsdC0xNg$alzaDrOJHk7Jk4qRiFn1ELK7r4QGIBEmwNNfEaotiZQ"},
	// printf '%s' 'pässwörd ünïcode' | argon2 'another-salt-0123' -id -t 3 -k 8192 -p 2 -l 24 -e
	{"pässwörd ünïcode", "$argon2id$v=19$m=8192,t=3,p=2$YW5vdGhlci1zYWx0LTAxMjM$8Y9sLQ/kCppTknjZiWPZKGzfiMSkbpBF"},
}

func TestVectors(t *testing.T) {
	for _, v := range vectors {
		if ok, err := Verify(v.encoded, v.password); !ok || err != nil {
			t.Errorf("Verify(%s, %q) = %v, %v; want true", v.encoded, v.password, ok, err)
		}
		// The right password against the stored key with one bit changed, first or last, or
		// under another salt: every byte of the key counts, and the salt too.
		h, err := parse(v.encoded)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range [][]byte{h.key[:1], h.key[len(h.key)-1:], h.salt[len(h.salt)-1:]} {
			b[0] ^= 1
			if ok, err := Verify(h.String(), v.password); ok || err != nil {
				t.Errorf("Verify(%s, %q) = %v, %v; want false", h.String(), v.password, ok, err)
			}
			b[0] ^= 1
		}
		for _, wrong := range []string{v.password + " ", strings.ToUpper(v.password), v.password[1:], ""} {
			if ok, err := Verify(v.encoded, wrong); ok || err != nil {
				t.Errorf("Verify(%s, %q) = %v, %v; want false", v.encoded, wrong, ok, err)
			}
		}
	}
}

var phc = regexp.MustCompile(`^\$argon2id\$v=19\$m=19456,t=2,p=1\$([A-Za-z0-9+/]{22})\$([A-Za-z0-9+/]{43})$`)

// TestHash: Hash writes the PHC string with OWASP's parameters, a 16-byte salt and a 32-byte
// key; Verify accepts it for its password only; two hashes of one password differ in salt and
// key.
func TestHash(t *testing.T) {
	const pw = "correct horse battery staple"
	a, err := Hash(pw)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Hash(pw)
	if err != nil {
		t.Fatal(err)
	}
	ma, mb := phc.FindStringSubmatch(a), phc.FindStringSubmatch(b)
	if ma == nil || mb == nil {
		t.Fatalf("hashes %s and %s, want the form %s", a, b, phc)
	}
	if ma[1] == mb[1] || ma[2] == mb[2] {
		t.Errorf("two hashes of one password share salt or key: %s and %s", a, b)
	}
	for _, h := range []string{a, b} {
		if ok, err := Verify(h, pw); !ok || err != nil {
			t.Errorf("Verify(%s, %q) = %v, %v; want true", h, pw, ok, err)
		}
		if ok, err := Verify(h, "correct horse battery stapler"); ok || err != nil {
			t.Errorf("Verify of another password = %v, %v; want false", ok, err)
		}
	}
	// The fixed vector's salt under Hash's own code gives the reference implementation's key.
	h, err := parse(vectors[0].encoded)
	if err != nil {
		t.Fatal(err)
	}
	h.key = h.derive(vectors[0].password)
	if h.String() != vectors[0].encoded {
		t.Errorf("derive and String: %s, want %s", h.String(), vectors[0].encoded)
	}
}

// TestMalformed: each part of a PHC string broken in turn is an error wrapping ErrMalformed,
// never a panic nor a false that would look like a wrong password.
func TestMalformed(t *testing.T) {
	const salt, key = "YmFuYW5hcXItc2FsdC0xNg", "alzaDrOJHk7Jk4qRiFn1ELK7r4QGIBEmwNNfEaotiZQ"
	ok := "$argon2id$v=19$m=19456,t=2,p=1$" + salt + "$" + key
	if _, err := parse(ok); err != nil {
		t.Fatalf("the unbroken string: %v", err)
	}
	for _, bad := range []string{
		"",
		"$",
		"argon2id$v=19$m=19456,t=2,p=1$" + salt + "$" + key,        // no leading $
		"x$argon2id$v=19$m=19456,t=2,p=1$" + salt + "$" + key,      // something before it
		"$argon2i$v=19$m=19456,t=2,p=1$" + salt + "$" + key,        // another variant
		"$argon2d$v=19$m=19456,t=2,p=1$" + salt + "$" + key,        //
		"$bcrypt$v=19$m=19456,t=2,p=1$" + salt + "$" + key,         //
		"$argon2id$m=19456,t=2,p=1$" + salt + "$" + key,            // no version (1.0)
		"$argon2id$v=16$m=19456,t=2,p=1$" + salt + "$" + key,       // version 1.0
		"$argon2id$v=$m=19456,t=2,p=1$" + salt + "$" + key,         //
		"$argon2id$19$m=19456,t=2,p=1$" + salt + "$" + key,         //
		"$argon2id$v=19$$" + salt + "$" + key,                      // no parameters
		"$argon2id$v=19$m=19456,t=2$" + salt + "$" + key,           // p missing
		"$argon2id$v=19$m=19456,t=2,p=1,x=3$" + salt + "$" + key,   // one too many
		"$argon2id$v=19$t=2,m=19456,p=1$" + salt + "$" + key,       // out of order
		"$argon2id$v=19$m=,t=2,p=1$" + salt + "$" + key,            // no number
		"$argon2id$v=19$m=-1,t=2,p=1$" + salt + "$" + key,          // negative
		"$argon2id$v=19$m=+9,t=2,p=1$" + salt + "$" + key,          //
		"$argon2id$v=19$m=019456,t=2,p=1$" + salt + "$" + key,      // leading zero
		"$argon2id$v=19$m=19456,t=two,p=1$" + salt + "$" + key,     //
		"$argon2id$v=19$m=19456,t=2,p=1.5$" + salt + "$" + key,     //
		"$argon2id$v=19$m=99999999999,t=2,p=1$" + salt + "$" + key, // over 32 bits
		"$argon2id$v=19$m=19456,t=2,p=1$" + key,                    // salt missing
		"$argon2id$v=19$m=19456,t=2,p=1$" + salt + "$",             // key empty
		"$argon2id$v=19$m=19456,t=2,p=1$$" + key,                   // salt empty
		"$argon2id$v=19$m=19456,t=2,p=1$" + salt + "==$" + key,     // padded
		"$argon2id$v=19$m=19456,t=2,p=1$" + salt + "$" + key + "=",
		"$argon2id$v=19$m=19456,t=2,p=1$" + salt[:21] + "$" + key,  // not whole bytes
		"$argon2id$v=19$m=19456,t=2,p=1$" + salt[:21] + "h$" + key, // non-zero trailing bits
		"$argon2id$v=19$m=19456,t=2,p=1$" + salt + "$" + key[:42] + "R",
		"$argon2id$v=19$m=19456,t=2,p=1$" + salt + "$" + key[:42] + "-", // URL alphabet
		"$argon2id$v=19$m=19456,t=2,p=1$YmFu_W5hcXItc2FsdC0xNg$" + key,
		"$argon2id$v=19$m=19456,t=2,p=1$" + salt + "$" + key + "$",      // one field too many
		"$argon2id$v=19$m=19456,t=2,p=1$" + salt + "$" + key + "$extra", //
		"$argon2id$v=19$m=19456,t=2,p=1$" + salt + "$" + key + "\n",     //
		" " + ok,
		strings.Repeat("$", 100000),
	} {
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("Verify(%.80q) panicked: %v", bad, p)
				}
			}()
			if ok, err := Verify(bad, "correct horse battery staple"); ok || !errors.Is(err, ErrMalformed) {
				t.Errorf("Verify(%.80q) = %v, %v; want an error wrapping ErrMalformed", bad, ok, err)
			}
		}()
	}
}

// TestBounds: parameters at the bounds are accepted, those past them refused before any work.
func TestBounds(t *testing.T) {
	b64of := func(n int) string { return b64.EncodeToString([]byte(strings.Repeat("s", n))) }
	salt, key := b64of(16), b64of(32)
	phcOf := func(costs, salt, key string) string { return "$argon2id$v=19$" + costs + "$" + salt + "$" + key }
	for _, c := range []struct {
		encoded string
		ok      bool
	}{
		{phcOf("m=1048576,t=1,p=1", salt, key), true}, // 1 GiB
		{phcOf("m=1048577,t=1,p=1", salt, key), false},
		{phcOf("m=4294967295,t=1,p=1", salt, key), false},
		{phcOf("m=64,t=100,p=1", salt, key), true},
		{phcOf("m=64,t=101,p=1", salt, key), false},
		{phcOf("m=64,t=0,p=1", salt, key), false},
		{phcOf("m=512,t=1,p=64", salt, key), true},
		{phcOf("m=520,t=1,p=65", salt, key), false},
		{phcOf("m=4096,t=1,p=255", salt, key), false},
		{phcOf("m=4096,t=1,p=256", salt, key), false}, // past uint8
		{phcOf("m=64,t=1,p=0", salt, key), false},
		{phcOf("m=8,t=1,p=1", salt, key), true}, // RFC 9106: m ≥ 8p
		{phcOf("m=7,t=1,p=1", salt, key), false},
		{phcOf("m=15,t=1,p=2", salt, key), false},
		{phcOf("m=19456,t=2,p=1", b64of(8), key), true},
		{phcOf("m=19456,t=2,p=1", b64of(7), key), false},
		{phcOf("m=19456,t=2,p=1", b64of(1024), key), true},
		{phcOf("m=19456,t=2,p=1", b64of(1025), key), false},
		{phcOf("m=19456,t=2,p=1", salt, b64of(8)), true},
		{phcOf("m=19456,t=2,p=1", salt, b64of(7)), false},
		{phcOf("m=19456,t=2,p=1", salt, b64of(1024)), true},
		{phcOf("m=19456,t=2,p=1", salt, b64of(1025)), false},
		{phcOf("m=19456,t=2,p=1", b64of(3000), key), false}, // too long to decode at all
	} {
		h, err := parse(c.encoded)
		if (err == nil) != c.ok {
			t.Errorf("parse(%.60s…): %v, want accepted %v", c.encoded, err, c.ok)
		}
		if err != nil && !errors.Is(err, ErrMalformed) {
			t.Errorf("parse(%.60s…): %v does not wrap ErrMalformed", c.encoded, err)
		}
		if err == nil && h.String() != c.encoded {
			t.Errorf("parse and String: %.60s…, want %.60s…", h.String(), c.encoded)
		}
	}
}

// TestVerifyDummy: VerifyDummy takes about as long as Verify of a hash from Hash: the fastest
// of ten runs each, taken in turns, so that a busy machine does not decide; a VerifyDummy that
// did no work would take a thousandth of it.
func TestVerifyDummy(t *testing.T) {
	h, err := Hash("correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	timed := func(f func()) time.Duration {
		start := time.Now()
		f()
		return time.Since(start)
	}
	verify, dummyTime := time.Duration(1<<63-1), time.Duration(1<<63-1)
	for range 10 {
		verify = min(verify, timed(func() { Verify(h, "wrong password, long enough") }))
		dummyTime = min(dummyTime, timed(func() { VerifyDummy("wrong password, long enough") }))
	}
	if ratio := float64(dummyTime) / float64(verify); ratio < 1.0/3 || ratio > 3 {
		t.Errorf("VerifyDummy took %v, Verify %v: want about the same", dummyTime, verify)
	}
}

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		password string
		want     string // in the error; "" for none
	}{
		{"", "at least 12"},
		{"elevenchars", "has 11 characters"},
		{"twelve chars", ""},
		{"ääääääääääää", ""},                 // 12 characters, 24 bytes
		{"äääääääääää", "has 11 characters"}, // 11 characters, 22 bytes: runes count, not bytes
		{"🍌🍌🍌🍌🍌🍌🍌🍌🍌🍌🍌", "at least 12"},       // 44 bytes
		{strings.Repeat("a", MaxBytes), ""},  //
		{strings.Repeat("a", MaxBytes+1), "1025 bytes"},
		{strings.Repeat("ä", MaxBytes/2) + "a", "at most 1024"},
		{"\xffvalid after it", "UTF-8"},
		{"twelve chars\xc3", "UTF-8"},
		{strings.Repeat(" ", 12), "white space"},
		{" \t\n\r\u00a0\u2003\u3000    \v\f", "white space"},
		{"     a      ", ""},
		{"correct horse battery staple", ""},
		{"password1234", ""}, // no blocklist yet: length only
	} {
		err := Check(c.password)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("Check(%.40q) = %v, want nil", c.password, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("Check(%.40q) = %v, want an error with %q", c.password, err, c.want)
		}
	}
}

// FuzzVerify: no string panics Verify; a string parse accepts is one String writes back.
// Strings whose parameters would make a run slow are parsed only.
func FuzzVerify(f *testing.F) {
	for _, v := range vectors {
		f.Add(v.encoded, v.password)
	}
	f.Add("$argon2id$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5", "x")
	f.Add("$argon2id$v=19$m=,t=,p=$$", "")
	f.Fuzz(func(t *testing.T, encoded, password string) {
		h, err := parse(encoded)
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("%v does not wrap ErrMalformed", err)
			}
			return
		}
		if h.String() != encoded {
			t.Fatalf("parse and String: %s, want %s", h.String(), encoded)
		}
		if uint64(h.params.Memory)*uint64(h.params.Time) <= 1<<16 {
			Verify(encoded, password)
		}
	})
}

func ExampleCheck() {
	for _, pw := range []string{"banana", "bananas are yellow"} {
		fmt.Println(Check(pw))
	}
	// Output:
	// the password has 6 characters; it needs at least 12 (a few unrelated words make a long one that is easy to remember)
	// <nil>
}

func ExampleVerify() {
	encoded, err := Hash("bananas are yellow")
	if err != nil {
		panic(err)
	}
	ok, err := Verify(encoded, "bananas are yellow")
	fmt.Println(ok, err)
	ok, err = Verify(encoded, "bananas are blue")
	fmt.Println(ok, err)
	// Output:
	// true <nil>
	// false <nil>
}
