package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
)

// bodySizeAnnotation is ingress-nginx's client_max_body_size.
const bodySizeAnnotation = "nginx.ingress.kubernetes.io/proxy-body-size"

// unreachableRedis stands in for a Redis URL: a port nothing listens on, so that the rate
// limit fails open at once, as it does with the cluster's Redis down.
const unreachableRedis = "redis://127.0.0.1:1/0"

// unreachableCollector stands in for an OpenTelemetry collector: the server exports to
// nothing, and no request leaves the machine.
const unreachableCollector = "http://127.0.0.1:1"

// running is the server started from a container's spec on loopback ports.
type running struct {
	addr, metrics string // host:port of the service and of /metrics ("" when not separate)
	client        *http.Client
}

// checkRunning starts the binary with the container's args and environment (its addresses on
// free loopback ports, a Redis URL or Secret replaced by an unreachable Redis, a collector by
// an unreachable one, the SQLite file and a PostgreSQL URL by a temporary SQLite file), then checks that the probes' paths answer
// 200, that /metrics answers on the metrics address, and that each Ingress path's body limit
// is the binary's own: a body of that size is not refused with 413, one byte more is.
func (c *checker) checkRunning(ctx context.Context, bin string, s server) {
	dir, err := os.MkdirTemp("", "bananaqr-kubecheck-")
	if err != nil {
		c.failf("%v", err)
		return
	}
	defer os.RemoveAll(dir)
	r, env, err := c.runEnv(s, dir)
	if err != nil {
		c.failf("container %s: %v", s.container.Name, err)
		return
	}
	cmd := exec.CommandContext(ctx, bin, s.container.Args...)
	cmd.Env, cmd.Dir = env, dir
	log := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		c.failf("%v", err)
		return
	}
	exited := make(chan struct{}) // closed when the server has exited
	go func() { _ = cmd.Wait(); close(exited) }()
	defer stop(cmd, exited)
	if err := r.waitUp(ctx, exited); err != nil {
		c.failf("container %s run as `%s %s`: %v; its output:\n%s", s.container.Name, bin, strings.Join(s.container.Args, " "), err, log.String())
		return
	}
	c.checkProbesServed(r, s)
	if r.metrics != "" {
		if status, body := r.get("http://" + r.metrics + "/metrics"); status != http.StatusOK || !strings.Contains(body, "# TYPE") {
			c.failf("container %s: GET /metrics on the metrics address answered %d", s.container.Name, status)
		}
	}
	for _, ing := range c.m.Ingresses {
		c.checkBodyLimit(r, ing)
	}
}

// runEnv returns the environment to run the container's server with on this machine, and
// where it listens.
func (c *checker) runEnv(s server, dir string) (*running, []string, error) {
	r := &running{client: &http.Client{Timeout: 5 * time.Second}}
	env := []string{"TMPDIR=" + dir}
	p := c.envPrefix()
	for _, e := range s.container.Env {
		value := e.Value
		switch {
		case e.Name == p+"ADDR" || e.Name == p+"METRICS_ADDR":
			a, err := freeAddr()
			if err != nil {
				return nil, nil, err
			}
			value = a
			if e.Name == p+"ADDR" {
				r.addr = a
			} else {
				r.metrics = a
			}
		case e.Name == "BANANAQR_REDIS_URL":
			value = unreachableRedis
		case strings.HasSuffix(e.Name, "OTLP_ENDPOINT"):
			value = unreachableCollector
		case e.Name == "BANANAQR_EXPENSES_DB" || e.Name == "BANANAQR_EXPENSES_DATABASE_URL":
			e.Name, value = "BANANAQR_EXPENSES_DB", filepath.Join(dir, "expenses.db")
		case e.ValueFrom != nil:
			return nil, nil, fmt.Errorf("env %s comes from %v, which kubecheck has no stand-in for", e.Name, e.ValueFrom)
		}
		env = append(env, e.Name+"="+value)
	}
	if r.addr == "" {
		return nil, nil, fmt.Errorf("no %sADDR", p)
	}
	return r, env, nil
}

// freeAddr returns a loopback address with a port nothing listens on now.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// waitUp waits until the server accepts connections, for up to 15 seconds, or has exited.
func (r *running) waitUp(ctx context.Context, exited <-chan struct{}) error {
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return errors.New("it exited")
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if conn, err := net.Dial("tcp", r.addr); err == nil {
			conn.Close()
			return nil
		}
	}
	return fmt.Errorf("nothing listened on %s within 15 s", r.addr)
}

// stop kills the server (SIGKILL: how it stops is not checked here, and a graceful stop would
// wait out the container's shutdown delay) and waits for it to exit.
func stop(cmd *exec.Cmd, exited <-chan struct{}) {
	_ = cmd.Process.Kill()
	<-exited
}

// lockedBuffer is the server's output, written by exec's copying goroutine and read here.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p, as io.Writer.
func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// get GETs a URL and returns the status (0 when it failed) and the body.
func (r *running) get(url string) (int, string) {
	resp, err := r.client.Get(url)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(body)
}

// checkProbesServed: each probe's path answers 200 on the service's address, the port the
// probes name (checkProbesStatic holds that port to the address).
func (c *checker) checkProbesServed(r *running, s server) {
	for kind, probe := range map[string]*corev1.Probe{"liveness": s.container.LivenessProbe, "readiness": s.container.ReadinessProbe} {
		if probe == nil || probe.HTTPGet == nil {
			continue
		}
		if status, body := r.get("http://" + r.addr + probe.HTTPGet.Path); status != http.StatusOK {
			c.failf("container %s: the %s probe's GET %s answered %d, not 200: %.200s", s.container.Name, kind, probe.HTTPGet.Path, status, body)
		}
	}
}

// postTarget is the path a POST under an Ingress path goes to: the path itself when exact,
// else the server's main POST endpoint.
func (c *checker) postTarget(p networkingv1.HTTPIngressPath) string {
	if p.PathType != nil && *p.PathType == networkingv1.PathTypeExact {
		return p.Path
	}
	if c.help.Command[0] == "expenses" {
		return "/mcp"
	}
	return "/api/qr-code"
}

// checkBodyLimit: the Ingress's body limit is the binary's for each of its paths: a body of
// the limit's size gets an answer other than 413, one byte more gets 413.
func (c *checker) checkBodyLimit(r *running, ing networkingv1.Ingress) {
	limit, err := parseNginxSize(ing.Annotations[bodySizeAnnotation])
	if err != nil {
		c.failf("Ingress %s: %s: %v", ing.Name, bodySizeAnnotation, err)
		return
	}
	for _, rule := range ing.Spec.Rules {
		if rule.HTTP == nil {
			continue
		}
		for _, p := range rule.HTTP.Paths {
			target := c.postTarget(p)
			at, over := r.post(target, limit), r.post(target, limit+1)
			if at == http.StatusRequestEntityTooLarge || over != http.StatusRequestEntityTooLarge {
				c.failf("Ingress %s: %s is %d bytes, but the binary answers POST %s of %d bytes %d and of %d bytes %d (want 413 from one byte over the limit only)",
					ing.Name, bodySizeAnnotation, limit, target, limit, at, limit+1, over)
			}
		}
	}
}

// post POSTs a JSON body of n bytes (not valid JSON) and returns the status, 0 when it failed.
func (r *running) post(path string, n int64) int {
	req, err := http.NewRequest(http.MethodPost, "http://"+r.addr+path, bytes.NewReader(bytes.Repeat([]byte{'x'}, int(n))))
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := r.client.Do(req)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode
}

// parseNginxSize reads an nginx size (client_max_body_size's syntax: bytes, or k, m, g).
func parseNginxSize(v string) (int64, error) {
	scale := int64(1)
	switch strings.ToLower(v[len(v)-min(len(v), 1):]) {
	case "k":
		scale = 1 << 10
	case "m":
		scale = 1 << 20
	case "g":
		scale = 1 << 30
	}
	if scale != 1 {
		v = v[:len(v)-1]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not an nginx size", v)
	}
	return n * scale, nil
}
