#!/usr/bin/env bash
# Times the renderers against an earlier build, side by side: issue 33's report (docs/benchmarks.md,
# "Image time").
#
#   bash bench/images-time.sh [BASE]     BASE: a commit, default 0bd66dd (before issue 33)
#
# It checks BASE out in a temporary worktree, copies this checkout's render/svg_bench_test.go into
# it (so that both builds have BenchmarkAppendSVG), builds the render and httpapi test binaries of
# both, and runs ROUNDS interleaved rounds (old, new, old, new, …) of
#   render:  BenchmarkAppendSVG and BenchmarkAppendPNG (square, rounded, banana, rounded-banana at
#            256, 1024 and 2048 px, the URL of the rendering tests, encoding left out)
#   httpapi: BenchmarkHandler/(svg|png) (the whole handler, 1024 px)
# then prints benchstat's comparison (golang.org/x/perf/cmd/benchstat, installed with go install when
# missing). With IR=1 it also counts instructions per image with valgrind's callgrind, which the
# other work on a shared machine does not disturb: the difference of two runs of N1 and N2 images,
# divided by N2−N1.
#
# Environment: ROUNDS [10], BENCHTIME [200ms], IR [0], N1 [200], N2 [1200], OUT [a temporary dir].
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

base="${1:-0bd66dd}"
rounds="${ROUNDS:-10}"
benchtime="${BENCHTIME:-200ms}"
out="${OUT:-$(mktemp -d)}"
tree="$(mktemp -d)/base"
trap 'git worktree remove --force "$tree" >/dev/null 2>&1 || true' EXIT

git worktree add -q --detach "$tree" "$base"
cp render/svg_bench_test.go "$tree/render/"
for side in old new; do
	src=.
	[ "$side" = old ] && src="$tree"
	(cd "$src" && CGO_ENABLED=0 go test -c -o "$out/render-$side.test" ./render &&
		CGO_ENABLED=0 go test -c -o "$out/httpapi-$side.test" ./internal/httpapi)
done

benchstat="$(go env GOPATH)/bin/benchstat"
[ -x "$benchstat" ] || go install golang.org/x/perf/cmd/benchstat@latest

: >"$out/old.txt"
: >"$out/new.txt"
for ((i = 1; i <= rounds; i++)); do
	for side in old new; do
		"$out/render-$side.test" -test.run '^$' -test.bench '^Benchmark(AppendSVG|AppendPNG)$' \
			-test.benchtime "$benchtime" -test.count 1 -test.cpu 1 >>"$out/$side.txt"
		"$out/httpapi-$side.test" -test.run '^$' -test.bench '^BenchmarkHandler$/^(svg|png)$' \
			-test.benchtime "$benchtime" -test.count 1 -test.cpu 1 >>"$out/$side.txt"
	done
	echo "round $i of $rounds" >&2
done

echo "# Image time: $base (old) against $(git rev-parse --short HEAD) (new), $rounds interleaved rounds"
echo
echo '```'
"$benchstat" "$out/old.txt" "$out/new.txt"
echo '```'

if [ "${IR:-0}" = 1 ]; then
	n1="${N1:-200}" n2="${N2:-1200}"
	ir() { # binary, benchmark, images → instructions
		GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" \
			-test.run '^$' -test.bench "$2" -test.benchtime "${3}x" -test.count 1 -test.cpu 1 2>&1 |
			sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
	}
	echo
	echo "| benchmark | old (instructions an image) | new | new/old |"
	echo "|---|--:|--:|--:|"
	for b in AppendSVG AppendPNG; do
		for st in square rounded banana rounded-banana; do
			for px in 256 1024 2048; do
				name="^Benchmark$b\$/^$st\$/^${px}px\$"
				per=()
				for side in old new; do
					a=$(ir "$out/render-$side.test" "$name" "$n1") z=$(ir "$out/render-$side.test" "$name" "$n2")
					per+=($(((z - a) / (n2 - n1))))
				done
				echo "| $b/$st/${px}px | ${per[0]} | ${per[1]} | $(awk "BEGIN{printf \"%.2f\", ${per[1]}/${per[0]}}") |"
			done
		done
	done
fi
echo
echo "Raw output: $out"
