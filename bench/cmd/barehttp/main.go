// Command barehttp is the baseline of bench/http.sh: a bare net/http server whose only
// route, GET /, answers a constant 3 KB (3,072-byte) text/plain body. Its requests per
// second are what the bananaqr service's throughput is compared against.
//
// Usage:
//
//	barehttp -addr 127.0.0.1:18081
package main

import (
	"bytes"
	"flag"
	"log"
	"net/http"
	"strconv"
)

// bodySize is the size of the constant response body, about that of a small QR code SVG.
const bodySize = 3072

func main() {
	addr := flag.String("addr", "127.0.0.1:18081", "listen `address`, host:port")
	flag.Parse()

	body := bytes.Repeat([]byte("0123456789abcdef"), bodySize/16)
	length := strconv.Itoa(len(body))

	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("Content-Length", length)
		w.Write(body)
	})
	log.Printf("barehttp: listening on %s", *addr)
	log.Fatal(http.ListenAndServe(*addr, mux))
}
