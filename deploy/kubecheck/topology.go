package main

import (
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// selects says whether a Service's selector (a map) selects the Deployment's pods.
func selects(selector map[string]string, d *appsv1.Deployment) bool {
	return len(selector) > 0 && labels.SelectorFromSet(selector).Matches(labels.Set(d.Spec.Template.Labels))
}

// labelSelects says whether a label selector selects the Deployment's pods.
func labelSelects(selector *metav1.LabelSelector, l map[string]string) bool {
	sel, err := metav1.LabelSelectorAsSelector(selector)
	return err == nil && !sel.Empty() && sel.Matches(labels.Set(l))
}

// checkServices: each Service selects the pods of exactly one Deployment, and each of its
// target ports is a port of those pods' containers.
func (c *checker) checkServices() {
	for _, svc := range c.m.Services {
		var selected []*appsv1.Deployment
		for i := range c.m.Deployments {
			if selects(svc.Spec.Selector, &c.m.Deployments[i]) {
				selected = append(selected, &c.m.Deployments[i])
			}
		}
		if len(selected) != 1 {
			c.failf("Service %s selects the pods of %d Deployments, not one", svc.Name, len(selected))
			continue
		}
		for _, p := range svc.Spec.Ports {
			found := false
			for j := range selected[0].Spec.Template.Spec.Containers {
				found = found || containerPort(&selected[0].Spec.Template.Spec.Containers[j], p.TargetPort) != 0
			}
			if !found {
				c.failf("Service %s: port %s's target %s is no port of Deployment %s's containers", svc.Name, p.Name, p.TargetPort.String(), selected[0].Name)
			}
		}
	}
}

// deployment returns the Deployment of that name, or nil.
func (c *checker) deployment(name string) *appsv1.Deployment {
	for i := range c.m.Deployments {
		if c.m.Deployments[i].Name == name {
			return &c.m.Deployments[i]
		}
	}
	return nil
}

// checkScaling: an HPA scales a Deployment of the chart that leaves its replicas to it (else
// every helm upgrade resets them), on CPU, which needs a CPU request; a PDB selects pods.
func (c *checker) checkScaling() {
	for _, hpa := range c.m.HPAs {
		ref := hpa.Spec.ScaleTargetRef
		d := c.deployment(ref.Name)
		switch {
		case ref.Kind != "Deployment" || ref.APIVersion != "apps/v1" || d == nil:
			c.failf("HPA %s scales %s %s %q, no Deployment of the chart", hpa.Name, ref.APIVersion, ref.Kind, ref.Name)
		case d.Spec.Replicas != nil:
			c.failf("HPA %s: Deployment %s sets replicas too (helm upgrade would reset the HPA's count)", hpa.Name, d.Name)
		case hpa.Spec.MinReplicas == nil || *hpa.Spec.MinReplicas > hpa.Spec.MaxReplicas:
			c.failf("HPA %s: minReplicas unset or above maxReplicas", hpa.Name)
		default:
			for _, ctr := range d.Spec.Template.Spec.Containers {
				if ctr.Resources.Requests.Cpu().IsZero() {
					c.failf("HPA %s: container %s has no CPU request to measure utilisation against", hpa.Name, ctr.Name)
				}
			}
		}
	}
	for _, pdb := range c.m.PDBs {
		found := false
		for _, d := range c.m.Deployments {
			found = found || labelSelects(pdb.Spec.Selector, d.Spec.Template.Labels)
		}
		if !found {
			c.failf("PodDisruptionBudget %s selects no Deployment's pods", pdb.Name)
		}
	}
}

// checkIngresses: every backend is a Service of the chart and a port of it (the body limits
// are checked against the running binary).
func (c *checker) checkIngresses() {
	for _, ing := range c.m.Ingresses {
		for _, rule := range ing.Spec.Rules {
			if rule.HTTP == nil {
				continue
			}
			for _, p := range rule.HTTP.Paths {
				if !c.servicePort(p.Backend.Service.Name, p.Backend.Service.Port.Name, p.Backend.Service.Port.Number) {
					c.failf("Ingress %s: path %s goes to %s port %q/%d, no port of a Service of the chart",
						ing.Name, p.Path, p.Backend.Service.Name, p.Backend.Service.Port.Name, p.Backend.Service.Port.Number)
				}
			}
		}
		if _, ok := ing.Annotations[bodySizeAnnotation]; !ok {
			c.failf("Ingress %s has no %s annotation", ing.Name, bodySizeAnnotation)
		}
	}
}

// servicePort says whether the chart has that Service with a port of that name or number.
func (c *checker) servicePort(service, portName string, portNumber int32) bool {
	for _, svc := range c.m.Services {
		if svc.Name != service {
			continue
		}
		for _, p := range svc.Spec.Ports {
			if (portName != "" && p.Name == portName) || (portName == "" && p.Port == portNumber) {
				return true
			}
		}
	}
	return false
}

// checkServiceMonitors: each selects a Service of the chart that has the port it scrapes, at
// /metrics.
func (c *checker) checkServiceMonitors() {
	for _, sm := range c.m.ServiceMonitors {
		if len(sm.Spec.Endpoints) == 0 {
			c.failf("ServiceMonitor %s has no endpoint", sm.Name)
		}
		for _, ep := range sm.Spec.Endpoints {
			found := false
			for _, svc := range c.m.Services {
				found = found || (labelSelects(&sm.Spec.Selector, svc.Labels) && c.servicePort(svc.Name, ep.Port, 0) && ep.Port != "")
			}
			if !found || ep.Path != "/metrics" {
				c.failf("ServiceMonitor %s: endpoint port %q path %q is not /metrics on a port of a Service it selects", sm.Name, ep.Port, ep.Path)
			}
		}
	}
}
