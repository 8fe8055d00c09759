#!/usr/bin/env bash
# nginx -t on deploy/nginx.conf as it is: the file itself, not a rewritten copy, included in an
# http {} block the way Debian's and the official image's nginx.conf include conf.d/*.conf.
#
# Outside compose its upstream names (bananaqr-1, bananaqr-2) resolve nowhere, and nginx -t
# resolves them ("host not found in upstream"). So nginx -t runs in namespaces of its own
# (unshare --map-root-user --mount --net: no root needed), where a hosts file of this script's,
# naming every host of the file's upstream server lines as 127.0.0.1, is bind-mounted over
# /etc/hosts, and where nginx -t, which binds the listen sockets, may bind port 80. Nothing
# changes outside them: the machine's /etc/hosts is not touched. So a wrong upstream name is not
# caught here (it is the operator's DNS); a name used elsewhere (proxy_pass http://typo) is.
#
# Every path nginx would write (pid, error log, temp paths) is in a temporary directory, removed
# on exit, as in scripts/proxy-test.sh.
#
# Usage: bash scripts/nginx-check.sh [FILE]   (test.sh runs it)
#   FILE, or BANANAQR_NGINX_CONF   the server file to check instead of deploy/nginx.conf
#   BANANAQR_NGINX_CHECK_NO_UNSHARE=1   take the fallback below even where unshare works
# Without nginx it prints SKIPPED and exits 0, unless CI is set: then it fails. Where user
# namespaces are refused, the upstream host names are mapped to 127.0.0.1 in a copy instead
# (everything is checked but that the names resolve): it says so in a SKIPPED line, and in CI fails.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

. scripts/skip.sh

nginx_bin=$(command -v nginx || true)
[ -n "$nginx_bin" ] || { [ -x /usr/sbin/nginx ] && nginx_bin=/usr/sbin/nginx; } || true
[ -n "$nginx_bin" ] || skip "nginx is not installed (apt-get install nginx)"

conf=${1:-${BANANAQR_NGINX_CONF:-deploy/nginx.conf}}
[ -f "$conf" ] || { echo "FAIL: no file $conf" >&2; exit 1; }
conf=$(realpath "$conf")

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The hosts of the upstream server lines (server NAME[:PORT] ...;), addresses left out.
hosts=$(sed -nE 's/^[[:space:]]*server[[:space:]]+([A-Za-z0-9.-]+)(:[0-9]+)?([[:space:]]|;).*/\1/p' "$conf" |
	grep -vE '^[0-9.]+$' | sort -u | tr '\n' ' ')
{
	echo "127.0.0.1 localhost"
	for h in $hosts; do echo "127.0.0.1 $h"; done
} >"$tmp/hosts"

# What Debian's /etc/nginx/nginx.conf wraps a conf.d file in, with every path in $tmp.
mime=
[ -f /etc/nginx/mime.types ] && mime="include /etc/nginx/mime.types;"
cat >"$tmp/nginx.conf" <<EOF
pid $tmp/nginx.pid;
events { worker_connections 1024; }
http {
    $mime
    default_type application/octet-stream;
    access_log $tmp/access.log;
    client_body_temp_path $tmp/client_body;
    proxy_temp_path $tmp/proxy;
    fastcgi_temp_path $tmp/fastcgi;
    uwsgi_temp_path $tmp/uwsgi;
    scgi_temp_path $tmp/scgi;
    include $conf;
}
EOF

# nginx_t CONFIG [ARG...]: nginx -t, its messages (syntax ok, or what is wrong and where) on stderr.
nginx_t() {
	"$nginx_bin" -t -p "$tmp/" -c "$1" -e "$tmp/error.log" "${@:2}"
}

if [ -z "${BANANAQR_NGINX_CHECK_NO_UNSHARE:-}" ] && unshare --map-root-user --mount --net true 2>/dev/null; then
	# In the namespace: /etc/hosts replaced by $tmp/hosts, then nginx -t on the file as it is.
	# nginx there is root, the one user mapped: its temp paths are chowned to root, not nobody.
	export -f nginx_t
	export nginx_bin tmp
	if unshare --map-root-user --mount --net bash -c 'mount --bind "$tmp/hosts" /etc/hosts && nginx_t "$tmp/nginx.conf" -g "user root;"'; then
		echo "PASS: nginx -t: $conf as it is, its upstream hosts (${hosts% }) resolved through a test hosts file"
		exit 0
	fi
	echo "FAIL: nginx -t: $conf (above)" >&2
	exit 1
fi

# No user namespace: the same check on a copy whose upstream hosts are 127.0.0.1 (and, unless
# root, whose listen ports are a free loopback port: nginx -t binds them).
copy=$tmp/copy.conf
cp "$conf" "$copy"
for h in $hosts; do
	sed -i -E "s/^([[:space:]]*server[[:space:]]+)${h//./\\.}([:[:space:];])/\\1127.0.0.1\\2/" "$copy"
done
if [ "$(id -u)" != 0 ]; then
	port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	sed -i -E "s/^([[:space:]]*listen[[:space:]]+)[0-9]+([[:space:];])/\\1127.0.0.1:$port\\2/" "$copy"
fi
sed -i "s#include $conf;#include $copy;#" "$tmp/nginx.conf"
if nginx_t "$tmp/nginx.conf"; then
	echo "PASS: nginx -t: $conf with its upstream hosts (${hosts% }) as 127.0.0.1"
	note_skipped "nginx -t: that the upstream hosts resolve (unshare --map-root-user --mount --net refused here, or BANANAQR_NGINX_CHECK_NO_UNSHARE set)"
	exit 0
fi
echo "FAIL: nginx -t: $conf (above, on a copy with its upstream hosts as 127.0.0.1)" >&2
exit 1
