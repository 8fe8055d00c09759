package oauth

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// always lets every fetch happen.
func always() bool { return true }

func TestPublicAddress(t *testing.T) {
	for addr, want := range map[string]bool{
		"93.184.215.14": true, "2606:2800:21f:cb07:6820:80da:af6b:8b2c": true, "8.8.8.8": true,
		"127.0.0.1": false, "::1": false, "10.1.2.3": false, "172.16.0.1": false, "192.168.1.1": false,
		"169.254.169.254": false, "fe80::1": false, "fd00::1": false, "100.64.0.1": false, "0.0.0.0": false,
		"::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "224.0.0.1": false, "255.255.255.255": false,
		"192.0.2.1": false, "198.18.0.1": false, "2001:db8::1": false, "64:ff9b::7f00:1": false, "::": false,
	} {
		if got := publicAddress(netip.MustParseAddr(addr)); got != want {
			t.Errorf("publicAddress(%s) = %v, want %v", addr, got, want)
		}
	}
}

// TestGuardedClient: the client of metadata fetches does not reach this machine (the test
// server listens on a loopback address), nor follow redirects.
func TestGuardedClient(t *testing.T) {
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("{}")) }))
	defer ts.Close()
	c := guardedClient()
	if _, err := c.Get(ts.URL + "/client.json"); err == nil || !strings.Contains(err.Error(), "not a public address") {
		t.Errorf("fetch from a loopback address: %v", err)
	}
	if err := c.CheckRedirect(nil, nil); err == nil {
		t.Error("redirects are followed")
	}
	cache := newCIMDCache(nil, time.Now)
	if _, err := cache.lookup(context.Background(), ts.URL+"/client.json", always); !errors.Is(err, errUnknownClient) {
		t.Errorf("lookup through the guard: %v", err)
	}
}

func TestCheckMetadataURL(t *testing.T) {
	for id, ok := range map[string]bool{
		"https://app.example/client.json": true, "https://app.example:8443/oauth/client": true,
		"http://app.example/client.json": false, "https://app.example": false, "https://app.example/": false,
		"https://user@app.example/c": false, "https://app.example/c?x=1": false, "https://app.example/c#f": false,
		"https://app.example/a/../c": false, "https://app.example/./c": false,
		"https://app.example/" + strings.Repeat("a", 600): false,
	} {
		if err := checkMetadataURL(id); (err == nil) != ok {
			t.Errorf("%s: %v", id, err)
		}
	}
}

// TestMetadataDocuments fetches documents from a test server (through its own client, since the
// guard would refuse it): what is taken, what is refused, and how long a document is kept.
func TestMetadataDocuments(t *testing.T) {
	var fetches atomic.Int32
	type served struct {
		body, contentType, cache string
		status                   int
	}
	docs := map[string]served{}
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		d, ok := docs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", d.contentType)
		if d.cache != "" {
			w.Header().Set("Cache-Control", d.cache)
		}
		w.WriteHeader(d.status)
		w.Write([]byte(d.body))
	}))
	defer ts.Close()
	doc := func(path, extra string) string {
		return `{"client_id":"` + ts.URL + path + `","client_name":"Example","redirect_uris":["http://127.0.0.1/cb"]` + extra + `}`
	}
	docs["/good"] = served{doc("/good", ""), "application/json", "max-age=60", 200}
	docs["/other-id"] = served{doc("/good", ""), "application/json", "", 200}
	docs["/secret"] = served{doc("/secret", `,"token_endpoint_auth_method":"client_secret_basic"`), "application/json", "", 200}
	docs["/html"] = served{doc("/html", ""), "text/html", "", 200}
	docs["/big"] = served{doc("/big", `,"x":"`+strings.Repeat("x", maxDocumentBytes)+`"`), "application/json", "", 200}
	docs["/bad-redirect"] = served{`{"client_id":"` + ts.URL + `/bad-redirect","redirect_uris":["http://evil.example/cb"]}`, "application/json", "", 200}
	docs["/error"] = served{doc("/error", ""), "application/json", "", 500}
	now := time.Now()
	clock := func() time.Time { return now }
	cache := newCIMDCache(ts.Client(), clock)
	ctx := context.Background()

	c, err := cache.lookup(ctx, ts.URL+"/good", always)
	if err != nil || c.name != "Example" || !c.metadataURL || !c.redirectMatches("http://127.0.0.1:5555/cb") {
		t.Fatalf("good document: %+v %v", c, err)
	}
	for _, path := range []string{"/other-id", "/secret", "/html", "/big", "/bad-redirect", "/error", "/missing"} {
		if _, err := cache.lookup(ctx, ts.URL+path, always); !errors.Is(err, errUnknownClient) {
			t.Errorf("%s: %v", path, err)
		}
	}
	// Kept for its max-age (60 s), then fetched again; a failure is kept for minCacheTTL.
	before := fetches.Load()
	cache.lookup(ctx, ts.URL+"/good", always)
	cache.lookup(ctx, ts.URL+"/error", always)
	if fetches.Load() != before {
		t.Errorf("a kept document was fetched again")
	}
	now = now.Add(61 * time.Second)
	cache.lookup(ctx, ts.URL+"/good", always)
	cache.lookup(ctx, ts.URL+"/error", always)
	if got := fetches.Load() - before; got != 2 {
		t.Errorf("after the documents' time: %d fetches, want 2", got)
	}
}

// TestFetchLimit: a document not kept is fetched only when the limit allows; one kept is served
// whatever the limit.
func TestFetchLimit(t *testing.T) {
	var fetches atomic.Int32
	var url string
	ts := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"client_id":"` + url + `","redirect_uris":["http://127.0.0.1/cb"]}`))
	}))
	defer ts.Close()
	url = ts.URL + "/c"
	cache := newCIMDCache(ts.Client(), time.Now)
	never := func() bool { return false }
	if _, err := cache.lookup(context.Background(), url, never); !errors.Is(err, errTooManyFetches) || fetches.Load() != 0 {
		t.Fatalf("over the limit: %v, %d fetches", err, fetches.Load())
	}
	if _, err := cache.lookup(context.Background(), url, always); err != nil {
		t.Fatal(err)
	}
	if _, err := cache.lookup(context.Background(), url, never); err != nil || fetches.Load() != 1 {
		t.Errorf("a kept document over the limit: %v, %d fetches", err, fetches.Load())
	}
}

func TestCacheTTL(t *testing.T) {
	for cc, want := range map[string]time.Duration{
		"": defaultCacheTTL, "max-age=600": 10 * time.Minute, "public, max-age=1": minCacheTTL,
		"max-age=99999999": maxCacheTTL, "no-store": minCacheTTL, "max-age=abc": defaultCacheTTL,
	} {
		h := http.Header{}
		h.Set("Cache-Control", cc)
		if got := cacheTTL(h); got != want {
			t.Errorf("%q: %v, want %v", cc, got, want)
		}
	}
}
