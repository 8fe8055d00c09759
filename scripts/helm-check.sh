#!/usr/bin/env bash
# The Helm charts (deploy/helm) and compose.yaml, checked offline against the binary they run.
#
#  1. helm (v3.22.0, built from the Go module proxy with go install, once, into a cache folder
#     that later runs reuse) lints each chart with --strict, for its default values and for each
#     variant in its ci/ folder (the Helm convention), and renders them with helm template.
#  2. deploy/kubecheck (a Go module of its own: k8s.io/api and compose-go stay out of the
#     service's module) decodes every rendered object strictly into the Kubernetes API types and
#     checks that the chart agrees with `bananaqr serve -h` / `bananaqr expenses serve -h` and
#     with the binary run as the container would run it: env and args, probes, ports, metrics,
#     grace period, GOMEMLIMIT, the Ingress's body limits, the security context.
#  3. The same module loads compose.yaml with compose-go, the Compose Specification's reference
#     loader (schema, interpolation, consistency), and checks its replicas against serve -h.
#  4. The values a chart must refuse (helm template fails with the chart's message).
#  5. go vet and go test in deploy/kubecheck: each check broken on purpose (a mutation of this
#     run's renderings) must be reported.
#
# Usage: bash scripts/helm-check.sh   (test.sh runs it in its deploy group)
#   BANANAQR_BIN          a bananaqr binary to use instead of building one
#   BANANAQR_TOOLS_CACHE  where helm is cached (default ~/.cache/bananaqr; helm-v3.22.0/helm)
# Without go, or when helm cannot be installed, it prints SKIPPED and exits 0, unless CI is set:
# then it fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

. scripts/skip.sh

command -v go >/dev/null || skip "the Helm charts: go is not installed"

helm_version=v3.22.0
cache=${BANANAQR_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/bananaqr}/helm-$helm_version
helm=$cache/helm

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
started=$SECONDS

if [ ! -x "$helm" ]; then
	echo "== installing helm $helm_version with go install into $cache (once; about 4 minutes on 2 cores)"
	t=$SECONDS
	mkdir -p "$cache"
	GOBIN=$cache go install "helm.sh/helm/v3/cmd/helm@$helm_version" ||
		skip "the Helm charts: go install helm.sh/helm/v3/cmd/helm@$helm_version failed (no module proxy?)"
	echo "helm built in $((SECONDS - t)) s"
fi
"$helm" version --short

if [ -n "${BANANAQR_BIN:-}" ]; then
	bin=$(realpath "$BANANAQR_BIN")
else
	bin=$tmp/bananaqr
	go build -o "$bin" ./cmd/bananaqr
fi

echo "== deploy/kubecheck: go vet, build"
(cd deploy/kubecheck && go vet ./... && go build -o "$tmp/kubecheck" .)

# server CHART: the server a chart runs, as kubecheck -server names it; release CHART: the
# release name its renderings use (the mutations in deploy/kubecheck name objects by it).
server() { case $1 in bananaqr) echo serve ;; bananaqr-expenses) echo expenses ;; *) return 1 ;; esac; }
release() { case $1 in bananaqr) echo qr ;; bananaqr-expenses) echo ex ;; *) return 1 ;; esac; }

mkdir "$tmp/rendered"
for chart_dir in deploy/helm/*/; do
	chart=$(basename "$chart_dir")
	[ -f "$chart_dir/Chart.yaml" ] || continue
	srv=$(server "$chart") || { echo "FAIL: scripts/helm-check.sh does not know which server chart $chart runs" >&2; exit 1; }
	for values in default "$chart_dir"ci/*-values.yaml; do
		variant=$(basename "$values" -values.yaml)
		args=()
		[ "$values" = default ] || args=(-f "$values")
		out=$tmp/rendered/$chart-$variant.yaml
		echo "== $chart, $variant: helm lint --strict, helm template, kubecheck"
		"$helm" lint --strict --quiet "$chart_dir" "${args[@]}"
		"$helm" template "$(release "$chart")" "$chart_dir" "${args[@]}" >"$out"
		"$tmp/kubecheck" manifests -bin "$bin" -server "$srv" "$out"
	done
done

echo "== compose.yaml: compose-go's loader, and its replicas against serve -h"
"$tmp/kubecheck" compose -bin "$bin" compose.yaml

# refused CHART MESSAGE HELM-ARGS...: helm template must fail, saying MESSAGE.
refused() {
	local chart=$1 want=$2 out
	shift 2
	if out=$("$helm" template r "deploy/helm/$chart" "$@" 2>&1); then
		echo "FAIL: $chart rendered with $* (it must refuse: $want)" >&2
		exit 1
	fi
	grep -qF "$want" <<<"$out" || { echo "FAIL: $chart with $*: want \"$want\", got: $out" >&2; exit 1; }
	echo "refused as it must: $chart $*"
}
echo "== values the charts refuse"
refused bananaqr "ingress.enabled needs trustedProxies" --set ingress.enabled=true
refused bananaqr "set at most one of redis.url" --set redis.url=redis://r:6379/0 --set redis.bundled.enabled=true
refused bananaqr "terminationGracePeriodSeconds must exceed" --set terminationGracePeriodSeconds=30
refused bananaqr "GOMEMLIMIT: set goMemLimit" --set resources.limits.memory=128M
refused bananaqr "values don't meet the specifications of the schema" --set logFormat=yaml
refused bananaqr-expenses "needs database.postgres.existingSecret.name" --set database.engine=postgres
refused bananaqr-expenses "terminationGracePeriodSeconds must exceed" --set shutdownTimeoutSeconds=30
refused bananaqr-expenses "additional properties 'databse' not allowed" --set databse.engine=postgres

# The renderings the mutation tests break, under the names of deploy/kubecheck/testdata.
cp "$tmp/rendered/bananaqr-ingress-servicemonitor-secret-redis.yaml" "$tmp/rendered/serve.yaml"
cp "$tmp/rendered/bananaqr-bundled-redis.yaml" "$tmp/rendered/serve-bundled-redis.yaml"
cp "$tmp/rendered/bananaqr-expenses-default.yaml" "$tmp/rendered/expenses-sqlite.yaml"
cp "$tmp/rendered/bananaqr-expenses-postgres-ingress.yaml" "$tmp/rendered/expenses-postgres.yaml"
for f in serve serve-bundled-redis expenses-sqlite expenses-postgres; do
	cmp -s "$tmp/rendered/$f.yaml" "deploy/kubecheck/testdata/$f.yaml" ||
		echo "note: deploy/kubecheck/testdata/$f.yaml differs from the chart's rendering (the tests below use the rendering; refresh testdata with helm template)"
done
echo "== deploy/kubecheck: go test (each check broken once must fail), on this run's renderings"
(cd deploy/kubecheck && KUBECHECK_RENDERED=$tmp/rendered BANANAQR_BIN=$bin go test -count=1 ./...)

echo "PASS: the Helm charts and compose.yaml agree with $bin ($((SECONDS - started)) s)"
