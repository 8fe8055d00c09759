#!/usr/bin/env bash
# Regenerates the gallery that the README shows: bash docs/gallery/make.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
url="https://example.com/products/12345?ref=newsletter"
run() { go run ../../cmd/bananaqr encode --size 384 "$@" "$url"; }
run -o square.png
run -o rounded.png --corners rounded
run -o banana.png --logo banana
run -o rounded-banana.png --corners rounded --logo banana
run -o colours.png --corners rounded --color 1A237E --background FFF8E1
run -o square.svg
run -o caption.png --caption "Scan for the menu" --show-destination
run -o caption-above.png --corners rounded --logo banana --caption "Сканируйте меню" --caption-position above
run -o caption.svg --caption "Scan for the menu" --show-destination
