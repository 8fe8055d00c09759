#!/usr/bin/env bash
# The container image, tested for real: builds the static binary and the image with podman
# (from the repository's Dockerfile and .dockerignore, as README says: no base image, no
# network), checks the image's configuration, then runs it. `podman run` is refused on these
# machines (the sandbox's rlimits), so the image's filesystem is exported and its entrypoint run
# from it with chroot, as the image's user, with the image's environment, and checked:
#   a. the image: user 65532 (not root), entrypoint /bananaqr serve, the health check
#      /bananaqr healthcheck (exec form), port 8080, the OCI labels (the version the binary
#      reports among them), its files and size;
#   b. serve runs as uid 65532 from nothing but the image's files, and stops cleanly on SIGTERM;
#   c. /healthz answers {"ok": true}, and /bananaqr healthcheck exits 0 while serve runs and 1
#      once it has stopped; /bananaqr --version and the server card report the label's version;
#   d. a code: /api/qr-code.png is a PNG that zbarimg reads back (its signature only without
#      zbarimg); the page / is HTML; /mcp answers tools/list with generate_qr;
#   e. bananaqr expenses writes its SQLite database in /data as the image's user.
#
# Usage: bash scripts/container-test.sh   (test.sh runs it; needs root and podman)
# With VERSION=v1.8.0 in the environment, the binary is built as a release is, with that version
# set by -ldflags -X (package internal/buildinfo); without, it reports the build's own version.
# Without podman, or where podman cannot work, it prints SKIPPED and exits 0, unless CI is set:
# then it fails. Podman keeps everything (storage, run state) under a temporary directory that
# is removed at the end, so it leaves no image behind and touches no other podman storage.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

. scripts/skip.sh

[ "$(id -u)" = 0 ] || skip "the container test needs root (chroot as the image's user, podman's storage)"
command -v podman >/dev/null || skip "podman is not installed (apt-get install podman)"
command -v curl >/dev/null || skip "curl is not installed (apt-get install curl)"

work=$(mktemp -d -t bananaqr-container.XXXXXX) # under $TMPDIR (test.sh sets it), else /tmp
# Podman refuses a run root longer than 50 characters, which a long $TMPDIR makes it: the run
# root goes in /tmp under a short name, and is removed with the rest.
runroot=$(mktemp -d /tmp/bananaqr-run.XXXXXX)
image=localhost/bananaqr-test:$$
# Storage of its own (vfs: no overlay mounts, which nested sandboxes refuse), and no systemd.
podman=(podman --root "$work/storage" --runroot "$runroot" --storage-driver vfs
	--cgroup-manager cgroupfs --events-backend file)
container=
server_pid=
cleanup() {
	if [ -n "$server_pid" ]; then
		kill "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	[ -z "$container" ] || "${podman[@]}" rm --force "$container" >/dev/null 2>&1 || true
	"${podman[@]}" rmi --force "$image" >/dev/null 2>&1 || true
	# Whatever podman left mounted under its directories, then the directories.
	findmnt -rn -o TARGET | grep -e "^$work/" -e "^$runroot/" | sort -r | xargs -r umount -l 2>/dev/null || true
	rm -rf "$work" "$runroot"
}
trap cleanup EXIT
trap 'exit 130' INT # so that cleanup runs on Ctrl-C or a kill too
trap 'exit 143' TERM
# A step that is not a check but fails (podman create, export, tar) ends the test: say where.
trap 'echo "FAIL: line $LINENO: $BASH_COMMAND (exit $?)"' ERR

passed=0
failed=0
pass() {
	echo "PASS: $*"
	passed=$((passed + 1))
}
fail() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}
# check NAME COMMAND...: PASS when the command succeeds, else FAIL (with what it printed).
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		pass "$name"
	else
		fail "$name${out:+: $out}"
	fi
}
# stop: the summary line, and exit 1 when anything failed.
stop() {
	echo "container test: $passed passed, $failed failed"
	[ "$failed" = 0 ] || exit 1
	exit 0
}

if ! out=$("${podman[@]}" info 2>&1 >/dev/null); then
	skip "podman cannot run here: $(tail -n 1 <<<"$out")"
fi
echo "$("${podman[@]}" --version), storage: vfs under $work"

# The build as README gives it: the static binary at the root of the context, then the image.
# (-trimpath compiles every package once more than test.sh's other builds: about 1.5 min on two
# cores with a cold cache.) --format docker keeps HEALTHCHECK: an OCI image has no health check.
# The image's version label is the version the binary reports (package internal/buildinfo).
CGO_ENABLED=0 go build -trimpath ${VERSION:+-ldflags "-X github.com/bananaqr/bananaqr/internal/buildinfo.version=$VERSION"} -o bananaqr ./cmd/bananaqr
version=$(./bananaqr version) && version=${version#bananaqr }
revision=$(git rev-parse HEAD 2>/dev/null || echo unknown)
start=$SECONDS
if ! "${podman[@]}" build --quiet --format docker --build-arg VERSION="$version" --build-arg REVISION="$revision" -t "$image" . >"$work/build.log" 2>&1; then
	fail "podman build: $(tail -n 5 "$work/build.log")"
	stop
fi
pass "podman build ($((SECONDS - start)) s)"

# a. The image's configuration.
inspect() { "${podman[@]}" image inspect --format "$1" "$image"; }
want() { # want NAME GOT EXPECTED
	if [ "$2" = "$3" ]; then pass "$1 is $3"; else fail "$1 is $2, want $3"; fi
}
user=$(inspect '{{.Config.User}}')
want "image: user" "$user" "65532:65532"
want "image: entrypoint" "$(inspect '{{json .Config.Entrypoint}}')" '["/bananaqr"]'
want "image: command" "$(inspect '{{json .Config.Cmd}}')" '["serve"]'
want "image: health check" "$(inspect '{{json .Config.Healthcheck.Test}}')" '["CMD","/bananaqr","healthcheck"]'
want "image: exposed ports" "$(inspect '{{range $p, $_ := .Config.ExposedPorts}}{{$p}} {{end}}')" "8080/tcp "
want "image: working directory" "$(inspect '{{.Config.WorkingDir}}')" "/data"
want "image: label org.opencontainers.image.source" "$(inspect '{{index .Config.Labels "org.opencontainers.image.source"}}')" \
	"https://github.com/bananaqr/bananaqr"
want "image: label org.opencontainers.image.revision" "$(inspect '{{index .Config.Labels "org.opencontainers.image.revision"}}')" "$revision"
want "image: label org.opencontainers.image.version" "$(inspect '{{index .Config.Labels "org.opencontainers.image.version"}}')" "$version"
size=$(inspect '{{.Size}}')
if [ "$size" -lt $((100 << 20)) ]; then
	pass "image: $((size >> 20)) MiB (the binary, under 100 MiB)"
else
	fail "image: $((size >> 20)) MiB, over 100 MiB: more than the binary went in (.dockerignore?)"
fi
mapfile -t image_env < <(inspect '{{range .Config.Env}}{{println .}}{{end}}' | sed '/^$/d')
mapfile -t entrypoint < <(inspect '{{range .Config.Entrypoint}}{{println .}}{{end}}' | sed '/^$/d')
mapfile -t command < <(inspect '{{range .Config.Cmd}}{{println .}}{{end}}' | sed '/^$/d')

# The image's filesystem, as a container created from it would have it.
rootfs=$work/rootfs
mkdir "$rootfs"
container=$("${podman[@]}" create --no-healthcheck "$image")
"${podman[@]}" export "$container" | tar -x -C "$rootfs"
files=$(cd "$rootfs" && find . -mindepth 1 -printf '%p %U:%G %m\n' | sort | tr '\n' ';')
want "image: files" "$files" "./bananaqr 0:0 755;./data 65532:65532 755;./etc 0:0 755;./etc/group 0:0 644;./etc/passwd 0:0 644;"

# in_image COMMAND...: runs COMMAND from the image's filesystem as its user (uid:gid), with its
# environment (and BANANAQR_ADDR=$addr, as docker run -e would set it).
[[ $user =~ ^[0-9]+:[0-9]+$ ]] || user=65532:65532 # reported above; go on as the intended user
chroot_as=(chroot --userspec="$user" --groups="${user#*:}" "$rootfs")
addr=127.0.0.1:0
in_image() {
	env -i "${image_env[@]}" BANANAQR_ADDR="$addr" "${chroot_as[@]}" "$@"
}

# b. serve, from the image's entrypoint and command, on a free port of the loopback: started as
# one command (not through in_image, a function, which would run in a subshell), so that
# $server_pid is serve itself once env and chroot have exec'd it.
env -i "${image_env[@]}" BANANAQR_ADDR="$addr" "${chroot_as[@]}" "${entrypoint[@]}" "${command[@]}" 2>"$work/serve.log" &
server_pid=$!
for _ in $(seq 100); do
	addr=$(grep -o -m 1 'msg=listening addr=127\.0\.0\.1:[0-9]*' "$work/serve.log" | sed 's/.*addr=//') || true
	[ -z "$addr" ] || break
	kill -0 "$server_pid" 2>/dev/null || break
	sleep 0.1
done
if [ -z "$addr" ]; then
	fail "serve did not start from the image's files within 10 s: $(head -c 2000 "$work/serve.log")"
	addr=127.0.0.1:0
	stop
fi
pass "serve runs from the image's files, listening on $addr"
uid=$(awk '/^Uid:/ {print $2}' "/proc/$server_pid/status")
want "serve's uid" "$uid" "65532"
base=http://$addr

# c. Liveness.
check "GET /healthz is 200 {\"ok\": true}" \
	bash -c 'body=$(curl -sS --fail --max-time 10 "$1/healthz") && grep -q "\"ok\": *true" <<<"$body" || { echo "$body"; exit 1; }' _ "$base"
check "/bananaqr healthcheck exits 0 while serve runs" in_image /bananaqr healthcheck
want "/bananaqr --version" "$(in_image /bananaqr --version 2>&1)" "bananaqr $version"
want "the server card's version" "$(curl -sS --max-time 10 "$base/mcp/server-card" | /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["version"])' 2>&1)" "$version"

# d. A code, the page, MCP.
url="https://example.com/container?test=$$"
headers=$(curl -sS --fail --max-time 10 -o "$work/code.png" -D - -G --data-urlencode "url=$url" "$base/api/qr-code.png" 2>&1) ||
	fail "GET /api/qr-code.png: $headers"
if [ -s "$work/code.png" ]; then
	if [ "$(head -c 8 "$work/code.png" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
		fail "GET /api/qr-code.png is not a PNG: $(grep -i '^content-type' <<<"$headers")"
	elif command -v zbarimg >/dev/null; then
		got=$(zbarimg --raw -q "$work/code.png" 2>/dev/null) || true
		if [ "$got" = "$url" ]; then pass "GET /api/qr-code.png: a PNG that zbarimg reads as $url"; else fail "GET /api/qr-code.png: zbarimg read '$got', want $url"; fi
	else
		pass "GET /api/qr-code.png: a PNG (its signature; zbarimg is not installed to read it)"
	fi
fi
check "GET / is the HTML page" \
	bash -c 'curl -sS --fail --max-time 10 -D "$2/page.headers" -o "$2/page.html" "$1/" &&
		grep -qi "^content-type: text/html" "$2/page.headers" && grep -qi "<!doctype html" "$2/page.html" ||
		{ head -c 300 "$2/page.headers" "$2/page.html"; exit 1; }' _ "$base" "$work"
mcp=$(curl -sS --max-time 10 -X POST "$base/mcp" -H 'Content-Type: application/json' \
	-H 'Accept: application/json, text/event-stream' \
	--data '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}' 2>&1) || true
if /usr/bin/python3 -c '
import json, sys
r = json.loads(sys.argv[1])
assert r.get("id") == 1 and "generate_qr" in [t["name"] for t in r["result"]["tools"]]' "$mcp" 2>/dev/null; then
	pass "POST /mcp tools/list lists generate_qr"
else
	fail "POST /mcp tools/list: $(head -c 500 <<<"$mcp")"
fi

# e. The expenses database in /data, written as the image's user.
check "bananaqr expenses user add, as uid 65532, in /data" in_image /bananaqr expenses user add alice
alice_listed() { in_image /bananaqr expenses user list | grep -qw alice; }
check "bananaqr expenses user list reads it back" alice_listed
check "the database is /data/bananaqr-expenses.db, owned by 65532" \
	test "$(stat -c %u "$rootfs/data/bananaqr-expenses.db" 2>&1)" = 65532

# b, c. SIGTERM (docker stop) ends serve cleanly; then the health check fails.
kill -TERM "$server_pid"
status=0
wait "$server_pid" || status=$?
server_pid=
if [ "$status" = 0 ]; then pass "serve exits 0 on SIGTERM"; else fail "serve exited $status on SIGTERM: $(tail -n 3 "$work/serve.log")"; fi
status=0
hc=$(in_image /bananaqr healthcheck 2>&1) || status=$?
if [ "$status" = 1 ] && [ -n "$hc" ]; then
	pass "/bananaqr healthcheck exits 1 once serve has stopped ($hc)"
else
	fail "/bananaqr healthcheck after serve stopped: exit $status, want 1: $hc"
fi

stop
