package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8syaml "k8s.io/apimachinery/pkg/util/yaml"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

// manifests are the objects of one rendering of a chart, by kind.
type manifests struct {
	Deployments     []appsv1.Deployment
	Services        []corev1.Service
	HPAs            []autoscalingv2.HorizontalPodAutoscaler
	PDBs            []policyv1.PodDisruptionBudget
	Ingresses       []networkingv1.Ingress
	PVCs            []corev1.PersistentVolumeClaim
	ServiceMonitors []serviceMonitor
}

// serviceMonitor is the prometheus-operator's ServiceMonitor (monitoring.coreos.com/v1), in
// the operator's own Go types.
type serviceMonitor = monitoringv1.ServiceMonitor

// decodeManifests reads the YAML documents of r (helm template's output) and decodes each
// object strictly into its API type: its apiVersion must be the one the chart is meant to
// write, and a field the type does not know, or a key given twice, is an error. Documents with
// nothing but comments are skipped.
func decodeManifests(r io.Reader) (*manifests, error) {
	m := &manifests{}
	docs := k8syaml.NewYAMLReader(bufio.NewReader(r))
	for i := 1; ; i++ {
		doc, err := docs.Read()
		if errors.Is(err, io.EOF) {
			return m, nil
		}
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
		if len(bytes.TrimSpace(stripComments(doc))) == 0 {
			continue
		}
		if err := m.add(doc); err != nil {
			return nil, fmt.Errorf("document %d: %w", i, err)
		}
	}
}

// add decodes one object into the list of its kind.
func (m *manifests) add(doc []byte) error {
	var meta metav1.TypeMeta
	if err := yaml.Unmarshal(doc, &meta); err != nil {
		return err
	}
	target, want := m.slot(meta.Kind)
	if target == nil {
		return fmt.Errorf("kind %q (apiVersion %q) is not one kubecheck knows: add it to manifests", meta.Kind, meta.APIVersion)
	}
	if meta.APIVersion != want {
		return fmt.Errorf("%s has apiVersion %q, want %q", meta.Kind, meta.APIVersion, want)
	}
	if err := target(doc); err != nil {
		return fmt.Errorf("%s: %w", meta.Kind, err)
	}
	return nil
}

// slot returns, for a kind, the function that decodes one object strictly and appends it, and
// the apiVersion the charts write it in.
func (m *manifests) slot(kind string) (func([]byte) error, string) {
	switch kind {
	case "Deployment":
		return appendStrict(&m.Deployments), "apps/v1"
	case "Service":
		return appendStrict(&m.Services), "v1"
	case "HorizontalPodAutoscaler":
		return appendStrict(&m.HPAs), "autoscaling/v2"
	case "PodDisruptionBudget":
		return appendStrict(&m.PDBs), "policy/v1"
	case "Ingress":
		return appendStrict(&m.Ingresses), "networking.k8s.io/v1"
	case "PersistentVolumeClaim":
		return appendStrict(&m.PVCs), "v1"
	case "ServiceMonitor":
		return appendStrict(&m.ServiceMonitors), "monitoring.coreos.com/v1"
	}
	return nil, ""
}

// appendStrict returns a function that decodes a document into a new T as the API server's
// strict field validation does, and appends it: YAML to JSON with duplicate keys refused
// (sigs.k8s.io/yaml), then sigs.k8s.io/json, the Kubernetes decoder, which matches field names
// case-sensitively and reports each unknown or duplicate field with its path.
func appendStrict[T any](list *[]T) func([]byte) error {
	return func(doc []byte) error {
		j, err := yaml.YAMLToJSONStrict(doc)
		if err != nil {
			return err
		}
		var v T
		strict, err := kjson.UnmarshalStrict(j, &v)
		if err != nil {
			return err
		}
		if len(strict) > 0 {
			return errors.Join(strict...)
		}
		*list = append(*list, v)
		return nil
	}
}

// stripComments drops the lines of doc that are YAML comments.
func stripComments(doc []byte) []byte {
	var out []byte
	for line := range bytes.Lines(doc) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '#' {
			out = append(out, line...)
		}
	}
	return out
}
