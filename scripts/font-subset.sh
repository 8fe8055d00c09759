#!/usr/bin/env bash
# The caption fonts of render/internal/glyph, regenerated: Noto Sans Regular and Bold from
# Debian's fonts-noto-core, cut down with fontTools' subsetter (Debian python3-fonttools) to the
# characters a caption may use, and the SIL Open Font License 1.1 text beside them, taken from
# the package's copyright file.
#
# Kept: the cmap, glyf/loca, hmtx and the GPOS 'kern' feature (pair kerning, OpenType GPOS
# lookup type 2, PairPos). Dropped: hinting (TrueType instructions, cvt, fpgm, prep, gasp; the
# outlines are drawn as shapes, never hinted), GPOS 'mark'/'mkmk' (golang.org/x/image/font/sfnt
# does not apply them; the package places the few combining marks left after NFC itself) and
# every GSUB feature (sfnt does no substitution).
#
# Deterministic: the subsetter keeps head.modified as in the source font (fontTools does not
# recalculate the timestamp unless --recalc-timestamp is given), so two runs give the same bytes;
# the script checks that by cutting each font twice.
#
# Usage: bash scripts/font-subset.sh   (needs fonts-noto-core and python3-fonttools)
set -euo pipefail

src=/usr/share/fonts/truetype/noto
out=render/internal/glyph
copyright=/usr/share/doc/fonts-noto-core/copyright
cd "$(dirname "$0")/.."

# The characters a caption may use (render/internal/glyph/README.md lists them by name).
unicodes=(
	U+0020-007E # Basic Latin
	U+00A0-00FF # Latin-1 Supplement
	U+0100-017F # Latin Extended-A
	U+0218-021B # Ș ș Ț ț (Romanian, comma below)
	U+0300-036F # Combining Diacritical Marks (those NFC cannot compose)
	U+0370-03FF # Greek and Coptic
	U+0400-04FF # Cyrillic
	U+2010-2027 # General Punctuation: dashes, quotes, •, …
	U+2030-203A # ‰ ′ ″ ‹ ›
	U+20AC      # €
	U+2116      # №
	U+2122      # ™
)
list=$(printf '%s\n' "${unicodes[@]}" | sed 's/ *#.*//' | paste -sd, -)

subset() { # subset <style> <output>
	/usr/bin/python3 -m fontTools.subset "$src/NotoSans-$1.ttf" \
		--unicodes="$list" \
		--layout-features=kern \
		--no-hinting \
		--name-IDs='*' --name-languages='*' \
		--drop-tables+=DSIG \
		--output-file="$2"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for style in Regular Bold; do
	subset "$style" "$tmp/a.ttf"
	subset "$style" "$tmp/b.ttf"
	cmp "$tmp/a.ttf" "$tmp/b.ttf" || { echo "font-subset: $style: two runs differ" >&2; exit 1; }
	cp "$tmp/a.ttf" "$out/NotoSans-$style.subset.ttf"
done

# OFL.txt: the copyright of the fonts and the licence's text, as Debian states them (the
# stanza "License: OFL-1.1" of the copyright file, in its own line breaks).
{
	echo "Noto Sans (NotoSans-Regular.ttf, NotoSans-Bold.ttf) and the subsets made from them here:"
	/usr/bin/python3 -c 'import sys
from fontTools.ttLib import TTFont
print(TTFont(sys.argv[1])["name"].getDebugName(0))' "$src/NotoSans-Regular.ttf"
	echo "Copyright 2010, 2012-2020 Google Inc.; 2015-2020 Google LLC (debian/copyright of fonts-noto-core)."
	echo
	echo "This Font Software is licensed under the SIL Open Font License, Version 1.1."
	echo "This license is copied below, and is also available with a FAQ at: https://openfontlicense.org"
	echo
	echo "-----------------------------------------------------------"
	echo "SIL OPEN FONT LICENSE Version 1.1 - 26 February 2007"
	echo "-----------------------------------------------------------"
	echo
	awk '/^License: OFL-1.1$/ { body = 1; next }
		!/^ / { body = 0 }
		body { sub(/^ /, ""); if ($0 == ".") $0 = ""; print }' "$copyright"
} >"$out/OFL.txt"

ls -l "$out"/NotoSans-*.subset.ttf "$out/OFL.txt"
