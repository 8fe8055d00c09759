"""segno's half of the image byte-size yardstick (bench/images.sh, issue 33).

For each matrix.txt given (written by bench/cmd/imagebytes: a line
"version V margin M dark #RRGGBB light #RRGGBB", then the symbol's rows of 0/1, 1 dark),
segno's own SVG writer draws exactly that symbol, with the same quiet zone and colours, twice
beside it: segno.svg in segno's default form (svgclass and lineclass left at their defaults)
and segno-min.svg in its minimal one (svgclass=None, lineclass=None). Both at scale 1 and
without the XML declaration; everything else is segno's default. Each drawing is read back and
must hold exactly the matrix's dark modules.

Usage: /usr/bin/python3 bench/images_segno.py DIR/.../matrix.txt ...
Needs Debian's python3-segno.
"""

import os
import re
import sys

import segno.writers


def read_matrix(path):
    """Returns (version, margin, dark, light, matrix) of a matrix.txt."""
    with open(path, encoding='ascii') as f:
        head = f.readline().split()
        fields = dict(zip(head[0::2], head[1::2]))
        rows = tuple(bytearray(int(c) for c in line.strip()) for line in f if line.strip())
    size = len(rows)
    if any(len(r) != size for r in rows) or size != 4 * int(fields['version']) + 17:
        raise ValueError('%s: not a square matrix of version %s' % (path, fields['version']))
    return int(fields['version']), int(fields['margin']), fields['dark'], fields['light'], rows


def drawn(svg, size, margin):
    """Returns the modules that segno's SVG strokes dark, as rows of 0/1 like the matrix: its
    dark path is a line a run, "M x y" then "h length" and "m dx dy" relative to the run's end,
    y at the middle of the row, all counted from the image's edge (quiet zone included)."""
    paths = re.findall(r'<path[^>]* stroke="[^"]*"[^>]* d="([^"]*)"', svg)
    if len(paths) != 1:
        raise ValueError('%d dark paths, not 1' % len(paths))
    rows = [bytearray(size) for _ in range(size)]
    x = y = 0.0
    for op, a, b in re.findall(r'([Mmh])(-?[0-9.]+)(?: (-?[0-9.]+))?', paths[0]):
        if op == 'M':
            x, y = float(a), float(b)
        elif op == 'm':
            x, y = x + float(a), y + float(b)
        else:
            row = int(y - .5) - margin
            for col in range(int(x) - margin, int(x + float(a)) - margin):
                rows[row][col] = 1
            x += float(a)
    return tuple(rows)


def main(paths):
    for path in paths:
        version, margin, dark, light, matrix = read_matrix(path)
        folder = os.path.dirname(path)
        forms = {
            'segno.svg': {},
            'segno-min.svg': {'svgclass': None, 'lineclass': None},
        }
        for name, kw in forms.items():
            with open(os.path.join(folder, name), 'wb') as out:
                segno.writers.write_svg(matrix, version, out, scale=1, border=margin,
                                        xmldecl=False, dark=dark, light=light, **kw)
            with open(os.path.join(folder, name), encoding='utf-8') as f:
                if drawn(f.read(), len(matrix), margin) != matrix:
                    raise SystemExit('%s: segno did not draw the symbol of %s' % (name, path))


if __name__ == '__main__':
    main(sys.argv[1:])
