package main

import (
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
)

// nonrootUID is the image's user (Dockerfile: USER 65532:65532, container/etc/passwd).
const nonrootUID = 65532

// envAllowed are the variables other than the servers' own that a chart may set: the Go
// runtime's.
var envAllowed = map[string]bool{"GOMEMLIMIT": true, "GOGC": true, "GOMAXPROCS": true}

// checker gathers the problems found in one rendering of a chart.
type checker struct {
	help     *serverHelp
	m        *manifests
	problems []string
}

func (c *checker) failf(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// server is the container that runs the server, with its pod.
type server struct {
	deployment *appsv1.Deployment
	container  *corev1.Container
}

// pod returns the server's pod spec.
func (s server) pod() *corev1.PodSpec { return &s.deployment.Spec.Template.Spec }

// checkStatic runs every check that reads the manifests only, and returns the containers that
// run the server (for the checks that run the binary).
func (c *checker) checkStatic() []server {
	c.checkNames()
	var servers []server
	for i := range c.m.Deployments {
		d := &c.m.Deployments[i]
		c.checkDeployment(d)
		for j := range d.Spec.Template.Spec.Containers {
			ctr := &d.Spec.Template.Spec.Containers[j]
			ours := c.runsServer(ctr)
			c.checkSecurity(d, ctr, ours)
			if ours {
				s := server{deployment: d, container: ctr}
				c.checkServer(s)
				servers = append(servers, s)
			}
		}
	}
	if len(servers) == 0 {
		c.failf("no container runs `bananaqr %s`", strings.Join(c.help.Command, " "))
	}
	c.checkServices()
	c.checkScaling()
	c.checkIngresses()
	c.checkServiceMonitors()
	return servers
}

// runsServer says whether a container's args start with the server's subcommand.
func (c *checker) runsServer(ctr *corev1.Container) bool {
	return len(ctr.Command) == 0 && len(ctr.Args) >= len(c.help.Command) &&
		slices.Equal(ctr.Args[:len(c.help.Command)], c.help.Command)
}

// checkServer runs the checks of the container that runs the server.
func (c *checker) checkServer(s server) {
	c.checkEnvAndArgs(s)
	c.checkGracePeriod(s)
	c.checkMemoryLimit(s)
	c.checkProbesStatic(s)
	c.checkMetricsPort(s)
	c.checkStorage(s)
}

// checkNames: every object's name is a DNS subdomain, every label key and value valid.
func (c *checker) checkNames() {
	var metas []*metav1.ObjectMeta
	for i := range c.m.Deployments {
		metas = append(metas, &c.m.Deployments[i].ObjectMeta, &c.m.Deployments[i].Spec.Template.ObjectMeta)
	}
	for i := range c.m.Services {
		metas = append(metas, &c.m.Services[i].ObjectMeta)
		for _, msg := range validation.IsDNS1035Label(c.m.Services[i].Name) {
			c.failf("Service %q: %s", c.m.Services[i].Name, msg)
		}
	}
	for i := range c.m.Ingresses {
		metas = append(metas, &c.m.Ingresses[i].ObjectMeta)
	}
	for _, meta := range metas {
		for _, msg := range validation.IsDNS1123Subdomain(meta.Name) {
			if meta.Name != "" {
				c.failf("name %q: %s", meta.Name, msg)
			}
		}
		for k, v := range meta.Labels {
			for _, msg := range append(validation.IsQualifiedName(k), validation.IsValidLabelValue(v)...) {
				c.failf("%q: label %s=%q: %s", meta.Name, k, v, msg)
			}
		}
	}
}

// checkDeployment: the selector selects the pod template, and the pod has no API token.
func (c *checker) checkDeployment(d *appsv1.Deployment) {
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil || sel.Empty() || !sel.Matches(labels.Set(d.Spec.Template.Labels)) {
		c.failf("Deployment %s: its selector does not select its own pod template (%v)", d.Name, err)
	}
	if t := d.Spec.Template.Spec.AutomountServiceAccountToken; t == nil || *t {
		c.failf("Deployment %s: automountServiceAccountToken is not false (the servers call no Kubernetes API)", d.Name)
	}
}

// envValue returns the literal value of the container's variable name, whether it is set at
// all, and whether it is a literal (not from a Secret).
func envValue(ctr *corev1.Container, name string) (value string, set, literal bool) {
	for _, e := range ctr.Env {
		if e.Name == name {
			return e.Value, true, e.ValueFrom == nil
		}
	}
	return "", false, false
}

// envPrefix is the prefix of the server's environment twins.
func (c *checker) envPrefix() string {
	if c.help.Command[0] == "expenses" {
		return "BANANAQR_EXPENSES_"
	}
	return "BANANAQR_"
}

// checkEnvAndArgs: every variable is one -h names (a BANANAQR_* twin or an OTEL_* variable the
// server reads) or the Go runtime's, and every argument after the subcommand a flag -h lists.
func (c *checker) checkEnvAndArgs(s server) {
	for _, e := range s.container.Env {
		switch {
		case c.help.Env[e.Name]:
		case strings.HasPrefix(e.Name, "BANANAQR_"):
			c.failf("container %s: env %s is no flag's twin in `bananaqr %s -h`", s.container.Name, e.Name, strings.Join(c.help.Command, " "))
		case !envAllowed[e.Name]:
			c.failf("container %s: env %s is neither a flag's twin nor one of the Go runtime's", s.container.Name, e.Name)
		}
		for _, msg := range validation.IsEnvVarName(e.Name) {
			c.failf("container %s: env %q: %s", s.container.Name, e.Name, msg)
		}
	}
	for _, arg := range s.container.Args[len(c.help.Command):] {
		name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if !strings.HasPrefix(arg, "-") || !c.help.Flags[name] {
			c.failf("container %s: argument %q is no flag of `bananaqr %s -h`", s.container.Name, arg, strings.Join(c.help.Command, " "))
		}
	}
}

// durationSetting is a duration flag of the server as the container sets it: its argument
// (a flag wins over its variable), else its env twin, else -h's default.
func (c *checker) durationSetting(ctr *corev1.Container, flag string) (time.Duration, error) {
	value, set, _ := envValue(ctr, c.envPrefix()+strings.ToUpper(strings.ReplaceAll(flag, "-", "_")))
	for i, arg := range ctr.Args {
		name, v, hasValue := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		if name == flag && strings.HasPrefix(arg, "-") {
			if !hasValue && i+1 < len(ctr.Args) {
				v = ctr.Args[i+1]
			}
			value, set = v, true
		}
	}
	if !set {
		return c.help.durationDefault(flag)
	}
	d, err := time.ParseDuration(value)
	if err != nil {
		return 0, fmt.Errorf("--%s: %w", flag, err)
	}
	return d, nil
}

// checkGracePeriod: Kubernetes waits longer than the preStop sleep, the shutdown delay (serving
// on with /readyz at 503) and the shutdown timeout (requests in flight) together before it
// kills the pod.
func (c *checker) checkGracePeriod(s server) {
	delay, err := c.durationSetting(s.container, "shutdown-delay")
	if err != nil {
		c.failf("container %s: %v", s.container.Name, err)
		return
	}
	timeout, err := c.durationSetting(s.container, "shutdown-timeout")
	if err != nil {
		c.failf("container %s: %v", s.container.Name, err)
		return
	}
	var sleep time.Duration
	if l := s.container.Lifecycle; l != nil && l.PreStop != nil {
		if l.PreStop.Sleep == nil {
			c.failf("container %s: a preStop other than sleep (the image has no shell)", s.container.Name)
		} else {
			sleep = time.Duration(l.PreStop.Sleep.Seconds) * time.Second
		}
	}
	grace := 30 * time.Second // Kubernetes' default
	if g := s.pod().TerminationGracePeriodSeconds; g != nil {
		grace = time.Duration(*g) * time.Second
	}
	if grace <= sleep+delay+timeout {
		c.failf("Deployment %s: terminationGracePeriodSeconds %v is not above the preStop sleep %v, the shutdown delay %v and the shutdown timeout %v together",
			s.deployment.Name, grace, sleep, delay, timeout)
	}
}

// checkMemoryLimit: the container has a memory limit, and GOMEMLIMIT is set below it.
func (c *checker) checkMemoryLimit(s server) {
	limit := s.container.Resources.Limits.Memory()
	value, _, _ := envValue(s.container, "GOMEMLIMIT")
	if limit.IsZero() {
		c.failf("container %s: no memory limit", s.container.Name)
		return
	}
	soft, err := parseGoMemLimit(value)
	if err != nil {
		c.failf("container %s: GOMEMLIMIT: %v", s.container.Name, err)
		return
	}
	if soft <= 0 || soft >= limit.Value() {
		c.failf("container %s: GOMEMLIMIT %s (%d bytes) is not below the memory limit %s (%d bytes)",
			s.container.Name, value, soft, limit, limit.Value())
	}
}

// parseGoMemLimit reads a GOMEMLIMIT value as the Go runtime does (package runtime/debug's
// SetMemoryLimit: a number of bytes with an optional B, KiB, MiB, GiB or TiB suffix).
func parseGoMemLimit(v string) (int64, error) {
	units := []struct {
		suffix string
		scale  int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}
	scale := int64(1)
	for _, u := range units {
		if num, ok := strings.CutSuffix(v, u.suffix); ok {
			v, scale = num, u.scale
			break
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number of bytes with B, KiB, MiB, GiB or TiB", v)
	}
	return n * scale, nil
}

// addrPort returns the port of the server's address variable (BANANAQR_ADDR or
// BANANAQR_METRICS_ADDR, or the expenses server's twin), or 0 when it is not set.
func (c *checker) addrPort(ctr *corev1.Container, name string) (int32, error) {
	value, set, literal := envValue(ctr, name)
	if !set {
		return 0, nil
	}
	if !literal {
		return 0, fmt.Errorf("%s is not a literal value", name)
	}
	_, port, err := net.SplitHostPort(value)
	if err != nil {
		return 0, fmt.Errorf("%s=%q: %w", name, value, err)
	}
	p, err := strconv.ParseUint(port, 10, 16)
	if err != nil || p == 0 {
		return 0, fmt.Errorf("%s=%q: no fixed port", name, value)
	}
	return int32(p), nil
}
