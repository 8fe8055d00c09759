package main

import (
	"path"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// containerPort resolves a probe's or Service's target port (a name or a number) against the
// container's ports; 0 when it names none.
func containerPort(ctr *corev1.Container, target intstr.IntOrString) int32 {
	for _, p := range ctr.Ports {
		if (target.Type == intstr.String && p.Name == target.StrVal) ||
			(target.Type == intstr.Int && p.ContainerPort == target.IntVal) {
			return p.ContainerPort
		}
	}
	return 0
}

// namedPort returns the container's port of that name, or 0.
func namedPort(ctr *corev1.Container, name string) int32 {
	return containerPort(ctr, intstr.FromString(name))
}

// checkProbesStatic: liveness and readiness GET a path on the port the server listens on
// (whether the binary serves the path is checked by running it).
func (c *checker) checkProbesStatic(s server) {
	addr, err := c.addrPort(s.container, c.envPrefix()+"ADDR")
	if err != nil || addr == 0 {
		c.failf("container %s: %sADDR must give the port the server listens on (%v)", s.container.Name, c.envPrefix(), err)
		return
	}
	if namedPort(s.container, "http") != addr {
		c.failf("container %s: its port named http (%d) is not %sADDR's %d", s.container.Name, namedPort(s.container, "http"), c.envPrefix(), addr)
	}
	for kind, probe := range map[string]*corev1.Probe{"liveness": s.container.LivenessProbe, "readiness": s.container.ReadinessProbe} {
		switch {
		case probe == nil:
			c.failf("container %s: no %s probe", s.container.Name, kind)
		case probe.HTTPGet == nil:
			c.failf("container %s: the %s probe does not GET a path (the image has no shell)", s.container.Name, kind)
		case containerPort(s.container, probe.HTTPGet.Port) != addr:
			c.failf("container %s: the %s probe's port %s is not %sADDR's %d", s.container.Name, kind, probe.HTTPGet.Port.String(), c.envPrefix(), addr)
		case !strings.HasPrefix(probe.HTTPGet.Path, "/"):
			c.failf("container %s: the %s probe's path %q is not absolute", s.container.Name, kind, probe.HTTPGet.Path)
		}
	}
}

// checkMetricsPort: with a metrics address, the container's port named metrics is its port and
// a Service exposes it under the name metrics; without one, no port is named metrics.
func (c *checker) checkMetricsPort(s server) {
	metrics, err := c.addrPort(s.container, c.envPrefix()+"METRICS_ADDR")
	if err != nil {
		c.failf("container %s: %v", s.container.Name, err)
		return
	}
	if got := namedPort(s.container, "metrics"); got != metrics {
		c.failf("container %s: its port named metrics (%d) is not %sMETRICS_ADDR's (%d)", s.container.Name, got, c.envPrefix(), metrics)
		return
	}
	if metrics == 0 {
		return
	}
	for _, svc := range c.m.Services {
		if !selects(svc.Spec.Selector, s.deployment) {
			continue
		}
		for _, p := range svc.Spec.Ports {
			if p.Name == "metrics" && containerPort(s.container, p.TargetPort) == metrics {
				return
			}
		}
	}
	c.failf("no Service exposes container %s's metrics port %d under the name metrics", s.container.Name, metrics)
}

// checkStorage, for the expenses server: on SQLite (no database URL), one replica, the
// Recreate strategy and the file on a PersistentVolumeClaim; a PostgreSQL URL comes from a
// Secret, never a literal (it holds a password).
func (c *checker) checkStorage(s server) {
	if c.help.Command[0] != "expenses" {
		return
	}
	if _, set, literal := envValue(s.container, "BANANAQR_EXPENSES_DATABASE_URL"); set {
		if literal {
			c.failf("container %s: BANANAQR_EXPENSES_DATABASE_URL is a literal: take it from a Secret", s.container.Name)
		}
		return
	}
	d := s.deployment
	if d.Spec.Replicas == nil || *d.Spec.Replicas != 1 || d.Spec.Strategy.Type != appsv1.RecreateDeploymentStrategyType {
		c.failf("Deployment %s: SQLite needs exactly one replica and the Recreate strategy", d.Name)
	}
	file, _, _ := envValue(s.container, "BANANAQR_EXPENSES_DB")
	for _, mount := range s.container.VolumeMounts {
		if !strings.HasPrefix(path.Clean(file), path.Clean(mount.MountPath)+"/") {
			continue
		}
		i := slices.IndexFunc(s.pod().Volumes, func(v corev1.Volume) bool { return v.Name == mount.Name })
		if i >= 0 && s.pod().Volumes[i].PersistentVolumeClaim != nil && !mount.ReadOnly {
			return
		}
	}
	c.failf("container %s: the SQLite file %q is not on a writable PersistentVolumeClaim", s.container.Name, file)
}

// checkSecurity: the container runs as a user without privileges (the image's 65532 for the
// servers), on a read-only root filesystem, with every capability dropped, no privilege
// escalation and seccomp's RuntimeDefault profile (container or pod level).
func (c *checker) checkSecurity(d *appsv1.Deployment, ctr *corev1.Container, ours bool) {
	pod := d.Spec.Template.Spec.SecurityContext
	if pod == nil {
		pod = &corev1.PodSecurityContext{}
	}
	sc := ctr.SecurityContext
	if sc == nil {
		sc = &corev1.SecurityContext{}
	}
	fail := func(what string) { c.failf("Deployment %s, container %s: %s", d.Name, ctr.Name, what) }
	if v := firstSet(sc.RunAsNonRoot, pod.RunAsNonRoot); v == nil || !*v {
		fail("runAsNonRoot is not true")
	}
	uid := firstSet(sc.RunAsUser, pod.RunAsUser)
	switch {
	case uid == nil || *uid == 0:
		fail("runAsUser is not set to a user other than root")
	case ours && *uid != nonrootUID:
		fail("runAsUser is not the image's 65532")
	}
	if v := sc.ReadOnlyRootFilesystem; v == nil || !*v {
		fail("readOnlyRootFilesystem is not true")
	}
	if v := sc.AllowPrivilegeEscalation; v == nil || *v {
		fail("allowPrivilegeEscalation is not false")
	}
	if v := sc.Privileged; v != nil && *v {
		fail("privileged")
	}
	if sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") || len(sc.Capabilities.Add) > 0 {
		fail("capabilities do not drop ALL (or add some)")
	}
	seccomp := sc.SeccompProfile
	if seccomp == nil {
		seccomp = pod.SeccompProfile
	}
	if seccomp == nil || seccomp.Type != corev1.SeccompProfileTypeRuntimeDefault {
		fail("the seccomp profile is not RuntimeDefault")
	}
}

// firstSet returns the first of its arguments that is not nil (a container's setting wins
// over the pod's).
func firstSet[T any](values ...*T) *T {
	for _, v := range values {
		if v != nil {
			return v
		}
	}
	return nil
}
