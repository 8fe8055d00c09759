package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The rendered charts the tests read: KUBECHECK_RENDERED (scripts/helm-check.sh's fresh
// renderings, so that every mutation below is tried on the chart as it is now), else testdata/
// (helm template of the same variants when the tests were written).
func renderedDir() string {
	if dir := os.Getenv("KUBECHECK_RENDERED"); dir != "" {
		return dir
	}
	return "testdata"
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// bananaqrBin returns BANANAQR_BIN, else a bananaqr built from the repository (../..).
func bananaqrBin(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("BANANAQR_BIN"); bin != "" {
		return bin
	}
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "bananaqr-kubecheck-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "bananaqr")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/bananaqr")
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = err
			t.Logf("%s", out)
		}
	})
	if binErr != nil {
		t.Fatalf("building bananaqr: %v", binErr)
	}
	return binPath
}

// TestMain removes the binary bananaqrBin built.
func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// check runs every manifest check on text, written to a temporary file.
func check(t *testing.T, server, text string) []string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "rendered.yaml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	problems, err := checkManifestFile(context.Background(), bananaqrBin(t), server, file)
	if err != nil {
		t.Fatal(err)
	}
	return problems
}

func readRendered(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(renderedDir(), name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every variant as rendered passes.
func TestRenderedVariantsPass(t *testing.T) {
	for file, server := range map[string]string{
		"serve.yaml": "serve", "serve-bundled-redis.yaml": "serve",
		"expenses-sqlite.yaml": "expenses", "expenses-postgres.yaml": "expenses",
	} {
		t.Run(file, func(t *testing.T) {
			if problems := check(t, server, readRendered(t, file)); len(problems) > 0 {
				t.Errorf("%s:\n%s", file, strings.Join(problems, "\n"))
			}
		})
	}
}

// mutation breaks one thing in a rendered chart: every occurrence of old becomes new.
type mutation struct {
	name, file, old, new, want string
}

// The chart broken once for each check: each must be reported, with want in its message.
var mutations = []mutation{
	{"unknown field", "serve.yaml", "automountServiceAccountToken: false", "automountServiceAcountToken: false", `unknown field "spec.template.spec.automountServiceAcountToken"`},
	{"field name's case", "serve.yaml", "readOnlyRootFilesystem: true", "ReadOnlyRootFilesystem: true", `unknown field "spec.template.spec.containers[0].securityContext.ReadOnlyRootFilesystem"`},
	{"duplicate key", "serve.yaml", "      protocol: TCP\n", "      protocol: TCP\n      protocol: UDP\n", "already set in map"},
	{"old apiVersion", "serve.yaml", "apiVersion: autoscaling/v2", "apiVersion: autoscaling/v1", `want "autoscaling/v2"`},
	{"unknown kind", "serve.yaml", "kind: PodDisruptionBudget", "kind: PodDisruptionBudgets", "is not one kubecheck knows"},
	{"env no flag", "serve.yaml", "BANANAQR_MAX_QUEUE", "BANANAQR_MAX_QUEUED", "env BANANAQR_MAX_QUEUED is no flag's twin"},
	{"OTEL variable serve does not read", "serve.yaml", "name: BANANAQR_OTLP_ENDPOINT", "name: OTEL_EXPORTER_OTLP_ENDPOIN", "env OTEL_EXPORTER_OTLP_ENDPOIN is neither"},
	{"env not Go's", "serve.yaml", "name: GOMEMLIMIT", "name: GO_MEMLIMIT", "env GO_MEMLIMIT is neither"},
	{"arg no flag", "serve.yaml", `args: ["serve"]`, `args: ["serve", "--rate-limits=10"]`, `argument "--rate-limits=10" is no flag`},
	{"flag value refused", "serve.yaml", `value: "json"`, `value: "yaml"`, "it exited"},
	{"readiness path not served", "serve.yaml", "path: /readyz", "path: /ready", "GET /ready answered 404"},
	{"liveness path not served", "serve.yaml", "path: /healthz", "path: /health", "GET /health answered 404"},
	{"probe on the metrics port", "serve.yaml", "path: /healthz\n              port: http", "path: /healthz\n              port: metrics", "the liveness probe's port metrics is not BANANAQR_ADDR's 8080"},
	{"probe by exec", "serve.yaml", "httpGet:\n              path: /healthz\n              port: http", "exec:\n              command: [/bananaqr, healthcheck]", "does not GET a path"},
	{"http port not ADDR's", "serve.yaml", `value: ":8080"`, `value: ":8081"`, "its port named http (8080) is not BANANAQR_ADDR's 8081"},
	{"metrics port not METRICS_ADDR's", "serve.yaml", `value: ":9090"`, `value: ":9091"`, "its port named metrics (9090) is not BANANAQR_METRICS_ADDR's (9091)"},
	{"metrics port on no Service", "serve.yaml", "targetPort: metrics", "targetPort: 9099", "no Service exposes container bananaqr's metrics port"},
	{"grace period too short", "serve.yaml", "terminationGracePeriodSeconds: 35", "terminationGracePeriodSeconds: 30", "terminationGracePeriodSeconds 30s is not above the preStop sleep 0s, the shutdown delay 5s and the shutdown timeout 25s together"},
	{"shutdown delay too long", "serve.yaml", `value: "5s"`, `value: "10s"`, "the shutdown delay 10s and the shutdown timeout 25s"},
	{"preStop sleep too long", "serve.yaml", "          resources:\n            limits:\n              memory: 128Mi\n", "          lifecycle:\n            preStop:\n              sleep:\n                seconds: 5\n          resources:\n            limits:\n              memory: 128Mi\n", "the preStop sleep 5s, the shutdown delay 5s"},
	{"preStop by exec", "serve.yaml", "          resources:\n            limits:\n              memory: 128Mi\n", "          lifecycle:\n            preStop:\n              exec:\n                command: [sleep, \"5\"]\n          resources:\n            limits:\n              memory: 128Mi\n", "a preStop other than sleep"},
	{"GOMEMLIMIT at the limit", "serve.yaml", `value: "102MiB"`, `value: "128MiB"`, "GOMEMLIMIT 128MiB (134217728 bytes) is not below the memory limit 128Mi"},
	{"GOMEMLIMIT unreadable", "serve.yaml", `value: "102MiB"`, `value: "102Mi"`, `GOMEMLIMIT: "102Mi" is not a number`},
	{"body limit below the API's", "serve.yaml", `proxy-body-size: "64k"`, `proxy-body-size: "63k"`, "proxy-body-size is 64512 bytes, but the binary answers POST /api/qr-code"},
	{"body limit above the API's", "serve.yaml", `proxy-body-size: "64k"`, `proxy-body-size: "1m"`, "proxy-body-size is 1048576 bytes, but the binary answers POST /api/qr-code"},
	{"batch body limit", "serve.yaml", `proxy-body-size: "256k"`, `proxy-body-size: "64k"`, "POST /api/qr-code/batch of 65536 bytes 400 and of 65537 bytes 400"},
	{"root", "serve.yaml", "runAsUser: 65532", "runAsUser: 0", "runAsUser is not set to a user other than root"},
	{"another user", "serve.yaml", "runAsUser: 65532", "runAsUser: 1000", "runAsUser is not the image's 65532"},
	{"runAsNonRoot", "serve.yaml", "runAsNonRoot: true", "runAsNonRoot: false", "runAsNonRoot is not true"},
	{"writable root", "serve.yaml", "readOnlyRootFilesystem: true", "readOnlyRootFilesystem: false", "readOnlyRootFilesystem is not true"},
	{"privilege escalation", "serve.yaml", "allowPrivilegeEscalation: false", "allowPrivilegeEscalation: true", "allowPrivilegeEscalation is not false"},
	{"capabilities kept", "serve.yaml", `drop: ["ALL"]`, `drop: ["NET_RAW"]`, "capabilities do not drop ALL"},
	{"seccomp", "serve.yaml", "type: RuntimeDefault", "type: Unconfined", "the seccomp profile is not RuntimeDefault"},
	{"API token mounted", "serve.yaml", "automountServiceAccountToken: false", "automountServiceAccountToken: true", "automountServiceAccountToken is not false"},
	{"Service target port", "serve.yaml", "targetPort: http", "targetPort: web", `port http's target web is no port`},
	{"Ingress backend", "serve.yaml", "                port:\n                  name: http", "                port:\n                  name: https", `no port of a Service of the chart`},
	{"ServiceMonitor port", "serve.yaml", "- port: metrics", "- port: http-metrics", `endpoint port "http-metrics" path "/metrics" is not /metrics on a port`},
	{"ServiceMonitor unknown field", "serve.yaml", "scrapeTimeout: 10s", "scrapeTimeout: 10s\n      honorLabel: true", `unknown field "spec.endpoints[0].honorLabel"`},
	{"HPA and replicas", "serve.yaml", "  revisionHistoryLimit: 5", "  replicas: 2\n  revisionHistoryLimit: 5", "sets replicas too"},
	{"HPA target", "serve.yaml", "    kind: Deployment\n    name: qr-bananaqr", "    kind: Deployment\n    name: qr-bananaqr-web", "no Deployment of the chart"},
	{"PDB selects nothing", "serve.yaml", "spec:\n  maxUnavailable: 1\n  selector:\n    matchLabels:\n      app.kubernetes.io/name: bananaqr", "spec:\n  maxUnavailable: 1\n  selector:\n    matchLabels:\n      app.kubernetes.io/name: bananaqr-web", "selects no Deployment's pods"},
	{"Service name", "serve.yaml", "name: qr-bananaqr-metrics", "name: qr_bananaqr_metrics", `Service "qr_bananaqr_metrics"`},
	{"label value", "serve.yaml", `app.kubernetes.io/version: "latest"`, `app.kubernetes.io/version: "latest build"`, "label app.kubernetes.io/version="},
	{"HPA without a CPU request", "serve.yaml", "              cpu: 250m\n", "", "has no CPU request"},
	{"metrics port without METRICS_ADDR", "serve.yaml", "            - name: BANANAQR_METRICS_ADDR\n              value: \":9090\"\n", "", "its port named metrics (9090) is not BANANAQR_METRICS_ADDR's (0)"},
	{"no container runs serve", "serve.yaml", `args: ["serve"]`, `args: ["encode"]`, "no container runs `bananaqr serve`"},
	{"bundled Redis as root", "serve-bundled-redis.yaml", "runAsUser: 999", "runAsUser: 0", "container redis: runAsUser is not set to a user other than root"},
	{"expenses env no flag", "expenses-sqlite.yaml", "BANANAQR_EXPENSES_WRITE_LIMIT", "BANANAQR_EXPENSES_WRITELIMIT", "env BANANAQR_EXPENSES_WRITELIMIT is no flag's twin in `bananaqr expenses serve -h`"},
	{"expenses arg no flag", "expenses-sqlite.yaml", `args: ["expenses", "serve"]`, `args: ["expenses", "serve", "--drain-timeout=10s"]`, `argument "--drain-timeout=10s" is no flag`},
	{"expenses grace below the argument", "expenses-sqlite.yaml", `args: ["expenses", "serve"]`, `args: ["expenses", "serve", "--shutdown-timeout", "30s"]`, "is not above the preStop sleep 0s, the shutdown delay 3s and the shutdown timeout 30s together"},
	{"expenses grace below the variable", "expenses-sqlite.yaml", `value: "10s"`, `value: "17s"`, "the shutdown delay 3s and the shutdown timeout 17s together"},
	{"expenses readiness path", "expenses-sqlite.yaml", "path: /readyz", "path: /ready", "GET /ready answered 404"},
	{"expenses liveness path", "expenses-sqlite.yaml", "path: /healthz", "path: /no-such-route", "GET /no-such-route answered 404"},
	{"expenses metrics port", "expenses-sqlite.yaml", `value: ":9090"`, `value: ":9091"`, "its port named metrics (9090) is not BANANAQR_EXPENSES_METRICS_ADDR's (9091)"},
	{"expenses log format refused", "expenses-sqlite.yaml", `value: "json"`, `value: "yaml"`, "it exited"},
	{"expenses ServiceMonitor port", "expenses-postgres.yaml", "- port: metrics", "- port: web", `endpoint port "web"`},
	{"expenses SQLite rolling", "expenses-sqlite.yaml", "type: Recreate", "type: RollingUpdate", "SQLite needs exactly one replica and the Recreate strategy"},
	{"expenses SQLite two replicas", "expenses-sqlite.yaml", "replicas: 1", "replicas: 2", "SQLite needs exactly one replica"},
	{"expenses SQLite off the claim", "expenses-sqlite.yaml", "mountPath: /data", "mountPath: /var/data", `the SQLite file "/data/bananaqr-expenses.db" is not on a writable PersistentVolumeClaim`},
	{"expenses database URL literal", "expenses-postgres.yaml", "valueFrom:\n                secretKeyRef:\n                  name: expenses-db\n                  key: url", `value: "postgres://u:secret@db/x"`, "BANANAQR_EXPENSES_DATABASE_URL is a literal"},
	{"expenses body limit", "expenses-postgres.yaml", `proxy-body-size: "128k"`, `proxy-body-size: "64k"`, "POST /mcp of 65536 bytes"},
}

func TestMutationsFail(t *testing.T) {
	servers := map[string]string{"serve.yaml": "serve", "serve-bundled-redis.yaml": "serve", "expenses-sqlite.yaml": "expenses", "expenses-postgres.yaml": "expenses"}
	for _, m := range mutations {
		t.Run(m.name, func(t *testing.T) {
			text := readRendered(t, m.file)
			if !strings.Contains(text, m.old) {
				t.Fatalf("%s no longer holds %q: update this mutation to the chart", m.file, m.old)
			}
			problems := check(t, servers[m.file], strings.ReplaceAll(text, m.old, m.new))
			for _, p := range problems {
				if strings.Contains(p, m.want) {
					return
				}
			}
			t.Errorf("%q → %q: no problem says %q; got:\n%s", m.old, m.new, m.want, strings.Join(problems, "\n"))
		})
	}
}
