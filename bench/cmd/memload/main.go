// Command memload is bench/memory.sh's load: it starts bananaqr serve, has many callers POST
// batches of large codes at once, each caller from an address of its own on loopback
// (127.x.y.z: every one within its own budget of 60 codes a minute), checks every answer, and
// reads the server's peak resident memory (VmHWM in /proc/PID/status).
//
// Each caller POSTs one batch of -codes version 40 codes (1,250 random lower-case letters at
// level H: byte mode, version 40 is the only fit) with rounded corners for each format of
// -formats in turn, each format from an address of its own (127.<format>.<caller/200>.<caller
// %200+1>), so that no address asks for more than -codes codes. A 200 must be a whole ZIP
// archive of -codes files, each read back (CRC-32 checked); a 503 must say OVERLOADED with a
// Retry-After of at least a second, which the caller waits before it sends the batch again (the
// refused codes were given back: a 429 after a 503 is a failure); anything else is a failure.
//
// Usage:
//
//	memload -bananaqr ./bananaqr [-callers 64] [-codes 60] [-formats eps,pdf] [-limit-mib 150] [-- serve flags]
//
// Output: one line a format (answers, 503s, the longest Retry-After, the time), the peak RSS,
// and PASS or FAIL. Exit status 0 when every batch came back whole and the peak RSS is under
// -limit-mib, 1 when not, 2 when the run could not be made.
package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	bin := flag.String("bananaqr", "", "the bananaqr `binary` to serve")
	addr := flag.String("addr", "127.0.0.1:18086", "`address` the server listens on")
	callers := flag.Int("callers", 64, "callers at once")
	codes := flag.Int("codes", 60, "codes a batch")
	formats := flag.String("formats", "eps,pdf", "comma-separated `formats`, a batch of each a caller")
	limit := flag.Int("limit-mib", 150, "the peak RSS allowed, in `MiB`")
	deadline := flag.Duration("deadline", 10*time.Minute, "the longest the run may take")
	logFile := flag.String("server-log", "", "write the server's log (JSON, its access log included) to this `file`")
	flag.Parse()
	if *bin == "" || *callers < 1 || *callers > 40_000 || *codes < 1 {
		fmt.Fprintln(os.Stderr, "memload: -bananaqr is required; -callers 1..40000 and -codes 1 or more")
		os.Exit(2)
	}
	os.Exit(run(*bin, *addr, *callers, *codes, strings.Split(*formats, ","), *limit, *deadline, *logFile, flag.Args()))
}

// run starts the server, loads it and reports; it returns the exit status.
func run(bin, addr string, callers, codes int, formats []string, limitMiB int, deadline time.Duration, logFile string, serveArgs []string) int {
	cmd := exec.Command(bin, append([]string{"serve", "--addr", addr, "--log-format", "json"}, serveArgs...)...)
	var serverLog bytes.Buffer
	cmd.Stderr = &serverLog
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "memload:", err)
		return 2
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
		if logFile != "" {
			os.WriteFile(logFile, serverLog.Bytes(), 0o644)
		}
	}()
	base := "http://" + addr
	if err := waitReady(base+"/healthz", 15*time.Second); err != nil {
		fmt.Fprintf(os.Stderr, "memload: the server did not start: %v\n%s", err, serverLog.String())
		return 2
	}
	fmt.Printf("memload: %d callers, a batch of %d version 40 rounded codes each in %s; bananaqr serve %s\n",
		callers, codes, strings.Join(formats, " and "), strings.Join(serveArgs, " "))
	start := time.Now()
	stats := load(base, callers, codes, formats, deadline)
	hwm, err := peakRSS(cmd.Process.Pid)
	if err != nil {
		fmt.Fprintln(os.Stderr, "memload:", err)
		return 2
	}
	cpu, _ := cpuSeconds(cmd.Process.Pid)
	ok := true
	for f, format := range formats {
		s := &stats[f]
		fmt.Printf("  %s: %d of %d batches whole, %d answered 503 first (longest Retry-After %d s), failures %d, last done after %.1f s\n",
			format, s.whole.Load(), callers, s.busy.Load(), s.longestRetry.Load(), s.failed.Load(), time.Duration(s.last.Load()).Seconds())
		for _, e := range s.errors() {
			fmt.Println("    failure:", e)
		}
		ok = ok && s.failed.Load() == 0 && s.whole.Load() == int64(callers)
	}
	mib := float64(hwm) / 1024
	verdict := "PASS"
	if mib >= float64(limitMiB) {
		verdict, ok = "FAIL", false
	}
	fmt.Printf("  the server's CPU time: %.1f s over %.1f s\n", cpu, time.Since(start).Seconds())
	fmt.Printf("  peak RSS (VmHWM) of the server: %d kB = %.1f MiB, limit %d MiB: %s\n", hwm, mib, limitMiB, verdict)
	if !ok {
		fmt.Println("memload: FAIL")
		return 1
	}
	fmt.Println("memload: PASS")
	return 0
}

// load sends each of callers, at once, a batch of codes in each of formats in turn, from an
// address of its own, within deadline, and returns the outcomes by format.
func load(base string, callers, codes int, formats []string, deadline time.Duration) []formatStats {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	stats := make([]formatStats, len(formats))
	var wg sync.WaitGroup
	start := time.Now()
	for c := range callers {
		wg.Go(func() {
			for f, format := range formats {
				ip := fmt.Sprintf("127.%d.%d.%d", 1+f, c/200, 1+c%200)
				body := batchBody(uint64(c), uint64(f), codes, format)
				stats[f].add(sendBatch(ctx, base, ip, body, codes), time.Since(start))
			}
		})
	}
	wg.Wait()
	return stats
}

// formatStats counts the outcomes of one format's batches.
type formatStats struct {
	whole, busy, failed, longestRetry, last atomic.Int64
	mu                                      sync.Mutex
	errs                                    []string
}

// outcome is what became of one caller's batch.
type outcome struct {
	busy    int // 503s before it came back
	longest int // the longest Retry-After, seconds
	err     error
}

func (s *formatStats) add(o outcome, at time.Duration) {
	s.busy.Add(int64(o.busy))
	for {
		if l := s.longestRetry.Load(); int64(o.longest) <= l || s.longestRetry.CompareAndSwap(l, int64(o.longest)) {
			break
		}
	}
	for {
		if l := s.last.Load(); int64(at) <= l || s.last.CompareAndSwap(l, int64(at)) {
			break
		}
	}
	if o.err == nil {
		s.whole.Add(1)
		return
	}
	s.failed.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.errs) < 5 {
		s.errs = append(s.errs, o.err.Error())
	}
}

func (s *formatStats) errors() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.errs
}

// batchBody returns the JSON body of a batch of n codes in format, each 1,250 random lower-case
// letters at level H (a version 40 symbol), from a seed of its own.
func batchBody(caller, format uint64, n int, f string) []byte {
	rng := rand.New(rand.NewPCG(caller, format))
	type item struct {
		Type    string `json:"type"`
		Text    string `json:"text"`
		Format  string `json:"format"`
		ECC     string `json:"ecc"`
		Corners string `json:"corners"`
	}
	items := make([]item, n)
	text := make([]byte, 1250)
	for i := range items {
		for j := range text {
			text[j] = byte('a' + rng.IntN(26))
		}
		items[i] = item{Type: "text", Text: string(text), Format: f, ECC: "H", Corners: "rounded"}
	}
	b, _ := json.Marshal(items) // plain strings: cannot fail
	return b
}

// sendBatch POSTs body from ip until it comes back whole, waiting out each 503's Retry-After.
func sendBatch(ctx context.Context, base, ip string, body []byte, n int) outcome {
	dialer := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	client := &http.Client{Transport: &http.Transport{DialContext: dialer.DialContext}}
	defer client.CloseIdleConnections()
	var o outcome
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"/api/qr-code/batch", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			o.err = fmt.Errorf("%s: %w", ip, err)
			return o
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		switch {
		case err != nil:
			o.err = fmt.Errorf("%s: %d, the body cut off after %d bytes: %w", ip, resp.StatusCode, len(got), err)
			return o
		case resp.StatusCode == http.StatusOK:
			o.err = checkArchive(got, n)
			if o.err != nil {
				o.err = fmt.Errorf("%s: %w", ip, o.err)
			}
			return o
		case resp.StatusCode == http.StatusServiceUnavailable && bytes.Contains(got, []byte(`"OVERLOADED"`)):
			secs, err := strconv.Atoi(resp.Header.Get("Retry-After"))
			if err != nil || secs < 1 {
				o.err = fmt.Errorf("%s: 503 with Retry-After %q", ip, resp.Header.Get("Retry-After"))
				return o
			}
			o.busy++
			o.longest = max(o.longest, secs)
			select {
			case <-time.After(time.Duration(secs) * time.Second):
			case <-ctx.Done():
				o.err = fmt.Errorf("%s: the deadline passed, still refused", ip)
				return o
			}
		default:
			o.err = fmt.Errorf("%s: %d %.200s", ip, resp.StatusCode, got)
			return o
		}
	}
}

// checkArchive checks that b is a ZIP archive of n files that read back whole.
func checkArchive(b []byte, n int) error {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return fmt.Errorf("not a whole archive (%d bytes): %w", len(b), err)
	}
	if len(zr.File) != n {
		return fmt.Errorf("%d files, want %d", len(zr.File), n)
	}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return err
		}
		_, err = io.Copy(io.Discard, rc) // checks the CRC-32 at the end
		rc.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", f.Name, err)
		}
	}
	return nil
}

// waitReady waits until url answers 200.
func waitReady(url string, within time.Duration) error {
	end := time.Now().Add(within)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(end) {
			return errors.Join(errors.New("no 200 from "+url), err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// cpuSeconds returns the process's CPU time, user and system (fields 14 and 15 of
// /proc/PID/stat, in clock ticks of 100 a second, Linux's USER_HZ).
func cpuSeconds(pid int) (float64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The fields after the command's name, which is in parentheses and may hold spaces.
	fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(fields) < 13 {
		return 0, errors.New("short /proc/PID/stat")
	}
	utime, _ := strconv.ParseFloat(fields[11], 64)
	stime, _ := strconv.ParseFloat(fields[12], 64)
	return (utime + stime) / 100, nil
}

// peakRSS returns the process's peak resident set (VmHWM), in kB.
func peakRSS(pid int) (int, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	return 0, errors.New("no VmHWM in /proc/" + strconv.Itoa(pid) + "/status")
}
