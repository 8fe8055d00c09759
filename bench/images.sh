#!/usr/bin/env bash
# The image byte-size yardstick (issue 33): bananaqr's SVG and PNG bytes beside independent tools
# on the same symbols and colours. segno's SVG writer draws our module matrix (square style);
# svgo -p 5 rewrites our SVG; zopflipng -m -y recompresses our PNG. gzip -9 -n sizes for every SVG.
# Prints Markdown tables with the ratios and the targets of issue 33, each row met or missed.
#
# Usage: bash bench/images.sh [--quick] [--check] [--out DIR]
#   --quick  only the URL input at 1024 px (four styles, two colour sets), zopflipng -q
#   --check  exit 1 when a target is missed
#   --out    keep the images and the tools' output in DIR (default: a temporary directory)
#   ZOPFLIPNG_OPTS="..." replaces zopflipng's options (-m, or -q with --quick)
#
# Needs Debian's python3-segno and zopfli (apt-get install python3-segno zopfli), gzip, Go, and
# npm: svgo@4.1.0 is the repository's (npm ci), else installed once into ~/.cache/bananaqr/svgo (or set
# SVGO to an svgo binary).
# Not part of test.sh or .ci/run. zopflipng takes nearly all the time: --quick (zopflipng -q) about
# 10 s on 2 cores; a full run with -m about 25 minutes (ZOPFLIPNG_OPTS=--iterations=1: 9 minutes). Its
# results are cached by input and options, so images that did not change cost nothing the next time.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
svgo_version=4.1.0

quick=() check=() out="" zopts_default=-m
while (($#)); do
	case "$1" in
	--quick) quick=(-quick) zopts_default=-q ;;
	--check) check=(-check) ;;
	--out) out="$2"; shift ;;
	*) echo "usage: bash bench/images.sh [--quick] [--check] [--out DIR]" >&2; exit 2 ;;
	esac
	shift
done

zopts="${ZOPFLIPNG_OPTS:-$zopts_default}"
missing=()
/usr/bin/python3 -c 'import segno' 2>/dev/null ||
	missing+=("segno for /usr/bin/python3: apt-get install python3-segno")
command -v zopflipng >/dev/null || missing+=("zopflipng: apt-get install zopfli")
command -v gzip >/dev/null || missing+=("gzip: apt-get install gzip")
command -v go >/dev/null || missing+=("go: Go 1.26")
cache="${XDG_CACHE_HOME:-$HOME/.cache}/bananaqr"
svgo="${SVGO:-$cache/svgo/node_modules/.bin/svgo}"
if [[ -z "${SVGO:-}" && -x "$here/../node_modules/.bin/svgo" ]]; then
	svgo="$here/../node_modules/.bin/svgo" # the repository's, pinned in package.json (npm ci)
fi
if [[ ! -x "$svgo" ]]; then
	if [[ -n "${SVGO:-}" ]]; then
		missing+=("svgo: SVGO=$SVGO is not executable")
	elif command -v npm >/dev/null; then
		echo "installing svgo@$svgo_version into $cache/svgo" >&2
		npm install --prefix "$cache/svgo" --no-audit --no-fund --silent "svgo@$svgo_version" >&2 ||
			missing+=("svgo: npm install svgo@$svgo_version failed")
	else
		missing+=("svgo: npm (apt-get install npm), to install svgo@$svgo_version")
	fi
fi
if ((${#missing[@]})); then
	printf 'bench/images.sh needs:\n' >&2
	printf '  %s\n' "${missing[@]}" >&2
	exit 2
fi

start=$SECONDS
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [[ -z "$out" ]]; then
	out="$tmp/out"
elif [[ -e "$out" && ! -e "$out/.imagebytes" && -n "$(ls -A "$out")" ]]; then
	echo "bench/images.sh: --out $out is not empty and not from an earlier run" >&2
	exit 2
else
	rm -rf "$out"
fi
mkdir -p "$out"
touch "$out/.imagebytes"
(cd "$here" && go build -o "$tmp/imagebytes" ./cmd/imagebytes) # in the bench module
"$tmp/imagebytes" write -out "$out" "${quick[@]}"

# segno draws our matrix: square style only (it has no rounded corners and no logo).
find "$out" -path '*/square/*' -name matrix.txt -print0 | sort -z |
	xargs -0 -r /usr/bin/python3 "$here/images_segno.py"

# svgo, once over a flat copy of every ours.svg (one node start): a/b/c/ours.svg is a__b__c.svg.
mkdir "$tmp/svgo-in" "$tmp/svgo-out"
while IFS= read -r -d '' f; do
	rel="${f#"$out"/}"
	rel="${rel%/ours.svg}"
	cp "$f" "$tmp/svgo-in/${rel//\//__}.svg"
done < <(find "$out" -name ours.svg -print0)
"$svgo" --quiet -p 5 -f "$tmp/svgo-in" -o "$tmp/svgo-out"
for f in "$tmp/svgo-out"/*.svg; do
	rel="$(basename "$f" .svg)"
	cp "$f" "$out/${rel//__//}/svgo.svg"
done

# zopflipng, one image a core, the largest first. Its output depends only on its input and
# options, so it is kept in a cache keyed by both: a run on unchanged images takes no time.
zcache="$cache/zopflipng"
mkdir -p "$zcache"
export zcache zopts
find "$out" -name ours.png -printf '%s %p\0' | sort -z -rn | cut -z -d' ' -f2- |
	xargs -0 -r -n 1 -P "$(nproc)" bash -c '
		key="$( (printf "%s\n" "$zopts"; cat "$1") | sha256sum | cut -c1-32)"
		if [[ ! -f "$zcache/$key.png" ]]; then
			# shellcheck disable=SC2086 # the options are words
			zopflipng $zopts -y "$1" "$zcache/$key.tmp.$$.png" >/dev/null
			mv "$zcache/$key.tmp.$$.png" "$zcache/$key.png"
		fi
		cp "$zcache/$key.png" "${1%ours.png}zopfli.png"' zopflipng

# gzip -9 of every SVG, without a name or time stamp in the header: x.svg.gz beside x.svg.
find "$out" -name '*.svg' -print0 | xargs -0 -r gzip -9 -n -k -f

echo "## Image bytes ($(date -u +%F), $(go version | cut -d' ' -f3), segno $(/usr/bin/python3 -c 'import segno; print(segno.__version__)'), svgo $("$svgo" --version), zopfli $(dpkg-query -W -f='${Version}' zopfli 2>/dev/null || echo '?'))"
echo
echo "Drawings only: no SVG title or desc. Colours: black on #FFFFFF, and the service's #7B260F on #FFFFFF;"
echo "quiet zone 4 modules. segno: square style only, its default form and svgclass=None, lineclass=None."
echo
status=0
"$tmp/imagebytes" report -dir "$out" -zopflipng "$zopts" "${check[@]}" || status=$?
echo "images.sh: $((SECONDS - start)) s" >&2
exit "$status"
