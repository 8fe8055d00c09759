// Package password hashes and checks the passwords with which the shared-expenses server's
// users sign in (the authorization page of its OAuth 2.1 server).
//
// A password is stored as an Argon2id hash (RFC 9106) in the PHC string format that the
// reference implementation and libsodium write:
//
//	$argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>
//
// salt and key in unpadded standard base64. Hash uses the parameters OWASP's Password Storage
// Cheat Sheet recommends for Argon2id (19 MiB of memory, two passes, one lane), a 16-byte random
// salt and a 32-byte key. Verify reads the parameters from the string, so hashes made under
// older defaults keep working when the defaults change; it refuses parameters no honest hash
// has, so that a hostile stored string cannot make it take memory or time without bound.
//
// Check is the policy for new passwords, after NIST SP 800-63B 5.1.1.2: length rather than
// composition rules.
package password

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// The policy for new passwords (Check).
const (
	// MinLength is the fewest characters (runes) a new password has. NIST SP 800-63B 5.1.1.2
	// asks for at least 8, and 15 where a password is the only factor; OWASP's Authentication
	// Cheat Sheet, 12.
	MinLength = 12
	// MaxBytes bounds a password's length in bytes (UTF-8), so that hashing stays cheap to
	// ask for; NIST asks that at least 64 characters be allowed.
	MaxBytes = 1024
)

// params are Argon2id's cost parameters and the lengths of salt and key.
type params struct {
	Memory  uint32 // m, KiB
	Time    uint32 // t, passes over the memory
	Threads uint8  // p, lanes
	SaltLen uint32 // bytes
	KeyLen  uint32 // bytes
}

// defaults are the parameters of Hash: the first of the equivalent choices OWASP's Password
// Storage Cheat Sheet lists for Argon2id (m=19456 KiB, t=2, p=1), a 16-byte salt (RFC 9106
// 3.1) and a 32-byte key.
var defaults = params{Memory: 19456, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}

// The bounds Verify puts on a stored hash's parameters. Honest hashes sit far inside them;
// they only stop a hostile string from asking for a gibibyte at a time or minutes of work.
const (
	maxMemory  = 1 << 20 // KiB: 1 GiB
	maxTime    = 100
	maxThreads = 64
	minLen     = 8 // salt and key bytes; RFC 9106 3.1 asks for a salt of at least 8
	maxLen     = 1024
	// maxEncoded bounds the string before any of it is decoded: the longest that the bounds
	// above allow, rounded up.
	maxEncoded = 4096
)

// version is Argon2 version 1.3 (0x13), the only one golang.org/x/crypto/argon2 computes and
// the one RFC 9106 specifies.
const version = 19

// b64 is the PHC format's base64: the standard alphabet, without padding; Strict refuses
// the non-zero trailing bits that would give one salt or key two spellings (and decode the
// line breaks that the decoder skips).
var b64 = base64.RawStdEncoding.Strict()

// ErrMalformed is the error Verify wraps when the stored string is not an Argon2id PHC string
// it can check: the stored data is at fault, not the password.
var ErrMalformed = errors.New("password: malformed hash")

// hash is a parsed PHC string.
type hash struct {
	params    params
	salt, key []byte
}

// Hash returns the PHC string of password's Argon2id hash under the default parameters and a
// new random salt.
func Hash(password string) (string, error) {
	salt := make([]byte, defaults.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("password: salt: %w", err)
	}
	h := hash{params: defaults, salt: salt}
	h.key = h.derive(password)
	return h.String(), nil
}

// Verify reports whether password is the one encoded (a PHC string from Hash, or from another
// Argon2id implementation) was made from, comparing the keys in constant time. A string it
// cannot parse, or whose parameters are out of bounds, is an error wrapping ErrMalformed.
func Verify(encoded, password string) (bool, error) {
	h, err := parse(encoded)
	if err != nil {
		return false, err
	}
	return h.matches(password), nil
}

// dummy is what VerifyDummy checks against: a hash under the default parameters that no
// password matches but in astronomically rare luck (an all-zero key).
var dummy = hash{params: defaults, salt: make([]byte, defaults.SaltLen), key: make([]byte, defaults.KeyLen)}

// VerifyDummy spends the time of a Verify of a hash made by Hash, and tells nothing. Sign-in
// calls it for a name that has no user (or no password), so that how long a refusal takes
// does not tell which names exist.
func VerifyDummy(password string) {
	dummy.matches(password)
}

// Check returns why password may not be set as a new password, or nil: it must be valid UTF-8,
// at least MinLength characters, at most MaxBytes bytes, and not only white space. Per NIST
// SP 800-63B 5.1.1.2 it asks for length, not for a mix of kinds of characters. The error is a
// sentence for the person choosing the password.
func Check(password string) error {
	switch n := utf8.RuneCountInString(password); {
	case !utf8.ValidString(password):
		return errors.New("the password is not valid UTF-8 text; type it again in a UTF-8 terminal")
	case len(password) > MaxBytes:
		return fmt.Errorf("the password is %d bytes long; it may be at most %d", len(password), MaxBytes)
	case n < MinLength:
		return fmt.Errorf("the password has %d characters; it needs at least %d (a few unrelated words make a long one that is easy to remember)", n, MinLength)
	case strings.TrimSpace(password) == "":
		return errors.New("the password is only white space; choose one with other characters")
	}
	return nil
}

// derive computes the Argon2id key of password under h's parameters and salt (RFC 9106 3.2).
func (h *hash) derive(password string) []byte {
	p := h.params
	return argon2.IDKey([]byte(password), h.salt, p.Time, p.Memory, p.Threads, p.KeyLen)
}

// matches reports whether password's key under h's parameters and salt is h's key; the
// comparison takes the same time wherever they differ.
func (h *hash) matches(password string) bool {
	return subtle.ConstantTimeCompare(h.derive(password), h.key) == 1
}

// String is h in the PHC string format.
func (h *hash) String() string {
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", version,
		h.params.Memory, h.params.Time, h.params.Threads, b64.EncodeToString(h.salt), b64.EncodeToString(h.key))
}

// parse reads an Argon2id PHC string: $argon2id$v=19$m=M,t=T,p=P$salt$key, the parameters in
// that order (as the reference implementation writes them), and checks them against the
// bounds.
func parse(encoded string) (hash, error) {
	bad := func(format string, a ...any) (hash, error) {
		return hash{}, fmt.Errorf("%w: "+format, append([]any{ErrMalformed}, a...)...)
	}
	if len(encoded) > maxEncoded {
		return bad("%d bytes long, more than %d", len(encoded), maxEncoded)
	}
	fields := strings.Split(encoded, "$")
	if len(fields) != 6 || fields[0] != "" {
		return bad("want $argon2id$v=…$m=…,t=…,p=…$salt$key")
	}
	if fields[1] != "argon2id" {
		return bad("algorithm %q, want argon2id", fields[1])
	}
	if v, ok := strings.CutPrefix(fields[2], "v="); !ok || v != strconv.Itoa(version) {
		return bad("version %q, want v=%d", fields[2], version)
	}
	var h hash
	costs := strings.Split(fields[3], ",")
	if len(costs) != 3 {
		return bad("parameters %q, want m=…,t=…,p=…", fields[3])
	}
	for i, name := range []string{"m", "t", "p"} {
		s, ok := strings.CutPrefix(costs[i], name+"=")
		n, err := strconv.ParseUint(s, 10, 32)
		if !ok || err != nil || strconv.FormatUint(n, 10) != s { // decimal, no leading zero
			return bad("parameter %q, want %s=<number>", costs[i], name)
		}
		switch name {
		case "m":
			h.params.Memory = uint32(n)
		case "t":
			h.params.Time = uint32(n)
		case "p":
			if n > maxThreads {
				return bad("p=%d, more than %d", n, maxThreads)
			}
			h.params.Threads = uint8(n)
		}
	}
	p := h.params
	switch {
	case p.Threads < 1:
		return bad("p=0")
	case p.Time < 1 || p.Time > maxTime:
		return bad("t=%d, want 1 to %d", p.Time, maxTime)
	case p.Memory < 8*uint32(p.Threads) || p.Memory > maxMemory: // RFC 9106 3.1: m ≥ 8p
		return bad("m=%d, want %d to %d KiB", p.Memory, 8*uint32(p.Threads), maxMemory)
	}
	var err error
	if h.salt, err = decode(fields[4]); err != nil {
		return bad("salt: %v", err)
	}
	if h.key, err = decode(fields[5]); err != nil {
		return bad("key: %v", err)
	}
	h.params.SaltLen, h.params.KeyLen = uint32(len(h.salt)), uint32(len(h.key))
	return h, nil
}

// decode decodes a salt or key and checks its length.
func decode(s string) ([]byte, error) {
	b, err := b64.DecodeString(s)
	if err != nil {
		return nil, err
	}
	if b64.EncodeToString(b) != s { // the decoder skips line breaks
		return nil, errors.New("not canonical base64")
	}
	if len(b) < minLen || len(b) > maxLen {
		return nil, fmt.Errorf("%d bytes, want %d to %d", len(b), minLen, maxLen)
	}
	return b, nil
}
