#!/usr/bin/python3
"""Generate QR cross-check vectors from two independent reference encoders.

What it does
------------
Builds a fixed, pseudo-random (seeded) list of segment sequences and, for
each one, encodes it with a forced version, error-correction level and mask
using

* segno 1.4.1 (``segno.make_qr``), and
* Nayuki's qrcodegen 1.8.0 (``qrcodegen.QrCode.encode_segments``),

then writes ``vectors.json.gz`` next to this script.  Each vector records the
segments, version, level and mask, the SHA-256 of segno's module matrix with
that mask forced, whether segno's output carries the padding deviation
described below, and Nayuki's automatic mask choice with the SHA-256 of the
matrix it produces.  A Go test can then compare our encoder against both
references without Python.

The matrix hash is the SHA-256 of the modules taken row-major (y outer, x
inner), dark = 1, packed MSB-first into bytes, with the final partial byte
zero-padded; lowercase hex.  There is no quiet zone (the matrix is
4 * version + 17 modules wide).

Segments are ``[mode, data]`` pairs with mode ``numeric``, ``alphanumeric``,
``byte`` or ``eci``.  ``eci`` always means ECI designator 26 (UTF-8), i.e. the
bits ``0111`` + ``00011010``, and has empty data.  It appears only in vectors
containing non-ASCII text, immediately before the first byte segment.  Byte
segment data is a string whose UTF-8 encoding is the segment's bytes.

Every vector is cross-checked while generating; any disagreement between the
references (other than the known deviations) aborts the run:

* our own bit stream == segno's internal bit stream == Nayuki's segments;
* Nayuki with the mask forced == segno, for every vector without deviation 1;
* Nayuki's low-level constructor ``QrCode(version, ecl, codewords, mask)``,
  fed codewords built here (ISO ones, or segno's deviating ones for flagged
  vectors), reproduces segno's matrix;
* when Nayuki's automatic mask equals the forced mask, both Nayuki matrices
  are identical.

Known segno deviations handled
------------------------------
1. Spurious pad byte: segno's ``write_padding_bits`` appends 8 zero bits when
   the bit stream, after the terminator, already ends on a byte boundary.
   ISO/IEC 18004 7.4.10 adds no padding bits then.  When that bit stream is
   also shorter than the data capacity, segno's data codewords are the ISO
   ones with an extra 0x00 inserted before the first pad codeword (the last
   pad codeword falls off the end).  Such vectors have
   ``segno_pad_deviation: true``; their ``segno`` hash is NOT the ISO matrix.
   (When the stream exactly fills the capacity the extra byte is dropped and
   segno is correct.)  segno is not patched.
2. Mask selection: segno's automatic mask choice differs from the standard's
   (it scores with the format areas light and counts N3 differently).  So
   segno is always given a forced mask and the automatic choice recorded is
   Nayuki's only.

How to run
----------
From the repository root::

    /usr/bin/python3 qr/testdata/reference/generate.py

(use the system Python, which sees the Debian packages).  Dependencies::

    apt-get install python3-segno python3-qrcodegen

The output is byte-identical from run to run (fixed seed, gzip mtime 0).
"""

import gzip
import hashlib
import importlib.metadata
import json
import os
import random
import sys
import time

import segno
import segno.consts
import segno.encoder
import qrcodegen
from qrcodegen import QrCode, QrSegment

SEED = 20240521
EXPECTED_VERSIONS = {"segno": "1.4.1", "qrcodegen": "1.8.0"}
GENERATOR = "qr/testdata/reference/generate.py"
HASH_DESCRIPTION = (
    "sha256 of the matrix: modules row-major (y outer, x inner), dark=1, "
    "packed MSB-first into bytes, final partial byte zero-padded; "
    "lowercase hex")
OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "vectors.json.gz")

LEVELS = "LMQH"
NAYUKI_ECC = {
    "L": QrCode.Ecc.LOW,
    "M": QrCode.Ecc.MEDIUM,
    "Q": QrCode.Ecc.QUARTILE,
    "H": QrCode.Ecc.HIGH,
}
SEGNO_ERROR = {
    "L": segno.consts.ERROR_LEVEL_L,
    "M": segno.consts.ERROR_LEVEL_M,
    "Q": segno.consts.ERROR_LEVEL_Q,
    "H": segno.consts.ERROR_LEVEL_H,
}
SEGNO_MODE = {
    "numeric": segno.consts.MODE_NUMERIC,
    "alphanumeric": segno.consts.MODE_ALPHANUMERIC,
    "byte": segno.consts.MODE_BYTE,
}

ECI_UTF8 = 26
MODE_INDICATOR = {"numeric": 0b0001, "alphanumeric": 0b0010,
                  "byte": 0b0100, "eci": 0b0111}
# Character count indicator widths for versions 1-9, 10-26, 27-40.
COUNT_BITS = {"numeric": (10, 12, 14), "alphanumeric": (9, 11, 13),
              "byte": (8, 16, 16), "eci": (0, 0, 0)}
DATA_MODES = ("numeric", "alphanumeric", "byte")
# Cheapest possible payload (one character) per mode, in bits.
MIN_PAYLOAD_BITS = {"numeric": 4, "alphanumeric": 6, "byte": 8}
ECI_BITS = 4 + 8
PAD_CODEWORDS = (0xEC, 0x11)

ALPHANUMERIC_CHARS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"
ALPHANUMERIC_WORDS = ["HTTPS://", "WWW.", "EXAMPLE.COM/", "BANANA", "QR",
                      "CODE-", "ID:", "$12.50", "100%", "A+B*C", " ", "/"]
ASCII_WORDS = ["banana", "qr", "code", "hello", "world", "The", "quick",
               "brown", "fox", "jumps", "over", "lazy", "dog", "https://",
               "example.org/", "?q=", "&id=", "user@mail", "42", "2024",
               "Lorem", "ipsum", "{\"k\":1}", "<a>", "tab\t", "line\n"]
ASCII_PUNCT = " .,;:!?-_/#()[]'\"@&=+*%~|\\^`{}<>$"
# Non-ASCII scripts: whole words and single characters (1 code point each).
SCRIPTS = {
    "latin": (["Grüße", "café", "naïve", "façade", "smørrebrød", "jalapeño",
               "Ærø", "Œuvre", "déjà", "Straße", "Zürich", "coração"],
              "àáâäãåæçèéêëìíîïñòóôöõøùúûüýÿßÀÉÖÜÑŒœłŁšž€£¥©°±µ"),
    "greek": (["καλημέρα", "κόσμε", "Ελλάδα", "αλφάβητο", "ΩΜΕΓΑ"],
              "αβγδεζηθικλμνξοπρστυφχψωΑΒΓΔΘΛΞΠΣΦΨΩάέήίόύώ"),
    "cjk": (["日本語", "中文", "你好世界", "二维码", "東京", "한국어",
             "カタカナ", "ひらがな", "漢字"],
            "日本語中文漢字你好世界二维码東京大阪한국어カタナひらが"),
    "emoji": (["😀", "🍌🍌", "🚀", "🎉", "👍", "🌍", "❤", "✓", "☃"],
              "😀😃😎🍌🚀🎉👍🌍🔥💡🐍🦀❤✓☃★"),
}


class ReferenceMismatch(RuntimeError):
    """Raised when the references (or our own computations) disagree."""


def check(condition, message):
    """Raise ReferenceMismatch with `message` unless `condition` holds."""
    if not condition:
        raise ReferenceMismatch(message)


# ---------------------------------------------------------------------------
# Bit-level model of the ISO/IEC 18004 data encoding (our own, independent).
# ---------------------------------------------------------------------------

def version_class(version):
    """Return 0, 1 or 2 for versions 1-9, 10-26 and 27-40."""
    return 0 if version <= 9 else (1 if version <= 26 else 2)


def count_bits(mode, version):
    """Width of the character count indicator of `mode` in `version`."""
    return COUNT_BITS[mode][version_class(version)]


def char_count(mode, data):
    """Character count written in the count indicator of a segment."""
    if mode == "byte":
        return len(data.encode("utf-8"))
    if mode == "eci":
        return 0
    return len(data)


def payload_bits(mode, data):
    """Number of data bits (after mode and count) of a segment."""
    if mode == "numeric":
        n = len(data)
        return 10 * (n // 3) + (0, 4, 7)[n % 3]
    if mode == "alphanumeric":
        n = len(data)
        return 11 * (n // 2) + 6 * (n % 2)
    if mode == "byte":
        return 8 * len(data.encode("utf-8"))
    return 8  # eci: one 8-bit designator (26 < 128)


def segment_bits(mode, data, version):
    """Total bits of a segment: mode indicator, count and payload."""
    return 4 + count_bits(mode, version) + payload_bits(mode, data)


def total_bits(segments, version):
    """Total length of the segments' bit stream (without terminator)."""
    return sum(segment_bits(mode, data, version) for mode, data in segments)


def append_bits(bits, value, width):
    """Append `value` to the list `bits`, `width` bits, MSB first."""
    bits.extend((value >> i) & 1 for i in reversed(range(width)))


def encode_stream(segments, version):
    """Return the segments' bit stream (list of 0/1) as ISO defines it."""
    bits = []
    for mode, data in segments:
        append_bits(bits, MODE_INDICATOR[mode], 4)
        if mode == "eci":
            append_bits(bits, ECI_UTF8, 8)
            continue
        append_bits(bits, char_count(mode, data), count_bits(mode, version))
        if mode == "numeric":
            for i in range(0, len(data), 3):
                group = data[i:i + 3]
                append_bits(bits, int(group), 3 * len(group) + 1)
        elif mode == "alphanumeric":
            values = [ALPHANUMERIC_CHARS.index(c) for c in data]
            for i in range(0, len(values) - 1, 2):
                append_bits(bits, values[i] * 45 + values[i + 1], 11)
            if len(values) % 2:
                append_bits(bits, values[-1], 6)
        else:
            for byte in data.encode("utf-8"):
                append_bits(bits, byte, 8)
    return bits


def terminator_length(length, capacity):
    """ISO terminator length: up to 4 zero bits, never beyond capacity."""
    return min(4, capacity - length)


def has_pad_deviation(length, capacity):
    """True iff segno 1.4.x inserts a spurious 0x00 data codeword.

    That happens when the stream plus terminator ends on a byte boundary
    and is still shorter than the data capacity.
    """
    end = length + terminator_length(length, capacity)
    return end % 8 == 0 and end < capacity


def iso_codewords(bits, capacity):
    """Data codewords per ISO/IEC 18004 7.4.9-7.4.10 for a bit stream."""
    stream = list(bits) + [0] * terminator_length(len(bits), capacity)
    stream += [0] * (-len(stream) % 8)
    codewords = [int("".join(map(str, stream[i:i + 8])), 2)
                 for i in range(0, len(stream), 8)]
    for i in range(capacity // 8 - len(codewords)):
        codewords.append(PAD_CODEWORDS[i % 2])
    return codewords


def segno_codewords(bits, capacity):
    """Data codewords segno 1.4.x produces (deviation 1 reproduced)."""
    codewords = iso_codewords(bits, capacity)
    if not has_pad_deviation(len(bits), capacity):
        return codewords
    stream_bytes = (len(bits) + terminator_length(len(bits), capacity)) // 8
    deviated = codewords[:stream_bytes] + [0x00] + codewords[stream_bytes:]
    return deviated[:capacity // 8]


def matrix_hash(rows):
    """SHA-256 (hex) of a module matrix given as rows of 0/1 values."""
    packed = bytearray()
    acc = 0
    nbits = 0
    for row in rows:
        for module in row:
            acc = (acc << 1) | (1 if module else 0)
            nbits += 1
            if nbits == 8:
                packed.append(acc)
                acc = 0
                nbits = 0
    if nbits:
        packed.append(acc << (8 - nbits))
    return hashlib.sha256(bytes(packed)).hexdigest()


# ---------------------------------------------------------------------------
# Driving the references.
# ---------------------------------------------------------------------------

def data_capacity(version, level):
    """Data capacity in bits, taken from both references (must agree)."""
    nayuki = QrCode._get_num_data_codewords(version, NAYUKI_ECC[level]) * 8
    segno_bits = segno.consts.SYMBOL_CAPACITY[version][SEGNO_ERROR[level]]
    check(nayuki == segno_bits, f"capacity v{version}-{level}: "
          f"nayuki {nayuki} != segno {segno_bits}")
    return nayuki


def segno_items(segments):
    """Translate segments into segno's (content, mode, encoding) tuples.

    The ECI segment is not passed on: segno writes ECI 26 itself right
    before a byte segment whose encoding is 'utf-8' (given eci=True).
    Every other byte segment is passed as raw bytes, which segno treats
    as ISO-8859-1 and writes without an ECI header.
    """
    items = []
    after_eci = False
    for mode, data in segments:
        if mode == "eci":
            after_eci = True
            continue
        if mode == "byte" and after_eci:
            items.append((data, segno.consts.MODE_BYTE, "utf-8"))
        elif mode == "byte":
            items.append((data.encode("utf-8"), segno.consts.MODE_BYTE, None))
        else:
            check(not after_eci, "eci segment not followed by a byte segment")
            items.append((data, SEGNO_MODE[mode], None))
        after_eci = False
    return items


def segno_stream(items, version):
    """Bit stream segno 1.4.1 writes for `items` (mirrors encoder._encode)."""
    buff = segno.encoder.Buffer()
    ver_range = segno.encoder.version_range(version)
    for seg in segno.encoder.prepare_data(items, None, None):
        segno.encoder.write_segment(buff, seg, None, ver_range, eci=True)
    return list(buff.getbits())


def nayuki_segments(segments):
    """Translate segments into qrcodegen QrSegment objects."""
    makers = {
        "numeric": QrSegment.make_numeric,
        "alphanumeric": QrSegment.make_alphanumeric,
        "byte": lambda data: QrSegment.make_bytes(data.encode("utf-8")),
        "eci": lambda data: QrSegment.make_eci(ECI_UTF8),
    }
    return [makers[mode](data) for mode, data in segments]


def nayuki_stream(segs, version):
    """Bit stream qrcodegen writes for `segs` (mirrors encode_segments)."""
    bits = []
    for seg in segs:
        mode = seg.get_mode()
        append_bits(bits, mode.get_mode_bits(), 4)
        append_bits(bits, seg.get_num_chars(),
                    mode.num_char_count_bits(version))
        bits.extend(seg.get_data())
    return bits


def nayuki_rows(qr):
    """Module matrix of a qrcodegen QrCode as rows of 0/1."""
    size = qr.get_size()
    return [[1 if qr.get_module(x, y) else 0 for x in range(size)]
            for y in range(size)]


def segno_rows(code, version):
    """Module matrix of a segno QRCode as rows of 0/1 (no quiet zone)."""
    size = 4 * version + 17
    rows = code.matrix
    check(len(rows) == size and all(len(r) == size for r in rows),
          f"segno matrix is not {size}x{size}")
    check(all(m in (0, 1) for r in rows for m in r),
          "segno matrix has values other than 0/1")
    return rows


def encode_vector(segments, version, level, mask):
    """Encode one vector with both references, cross-check, return record."""
    label = f"v{version}-{level} mask {mask} segments {segments!r}"
    capacity = data_capacity(version, level)
    bits = encode_stream(segments, version)
    check(len(bits) == total_bits(segments, version), f"{label}: bit count")
    check(len(bits) <= capacity, f"{label}: does not fit")

    items = segno_items(segments)
    check(segno_stream(items, version) == bits,
          f"{label}: segno bit stream differs from ours")
    segs = nayuki_segments(segments)
    check(QrSegment.get_total_bits(segs, version) == len(bits),
          f"{label}: nayuki bit count differs")
    check(nayuki_stream(segs, version) == bits,
          f"{label}: nayuki bit stream differs from ours")

    code = segno.make_qr(items, error=level, version=version, mask=mask,
                         eci=True, boost_error=False)
    check(code.version == version and code.error == level
          and code.mask == mask, f"{label}: segno changed parameters")
    segno_hash = matrix_hash(segno_rows(code, version))

    ecl = NAYUKI_ECC[level]
    forced = QrCode.encode_segments(segs, ecl, version, version, mask, False)
    check(forced.get_version() == version and forced.get_mask() == mask
          and forced.get_error_correction_level() is ecl,
          f"{label}: nayuki changed parameters")
    forced_hash = matrix_hash(nayuki_rows(forced))
    iso_hash = matrix_hash(nayuki_rows(
        QrCode(version, ecl, iso_codewords(bits, capacity), mask)))
    check(iso_hash == forced_hash,
          f"{label}: our ISO codewords differ from nayuki's")

    deviation = has_pad_deviation(len(bits), capacity)
    if deviation:
        check(segno_hash != forced_hash,
              f"{label}: flagged, yet segno equals nayuki")
        deviated_hash = matrix_hash(nayuki_rows(
            QrCode(version, ecl, segno_codewords(bits, capacity), mask)))
        check(deviated_hash == segno_hash,
              f"{label}: deviation 1 does not explain segno's matrix")
    else:
        check(segno_hash == forced_hash,
              f"{label}: segno and nayuki (forced mask) disagree")

    auto = QrCode.encode_segments(segs, ecl, version, version, -1, False)
    check(auto.get_version() == version
          and auto.get_error_correction_level() is ecl,
          f"{label}: nayuki (auto mask) changed parameters")
    auto_hash = matrix_hash(nayuki_rows(auto))
    if auto.get_mask() == mask:
        check(auto_hash == forced_hash,
              f"{label}: nayuki auto and forced matrices differ")

    return {
        "segments": [[mode, data] for mode, data in segments],
        "version": version,
        "level": level,
        "mask": mask,
        "segno": segno_hash,
        "segno_pad_deviation": deviation,
        "nayuki_mask": auto.get_mask(),
        "nayuki": auto_hash,
    }


# ---------------------------------------------------------------------------
# Random segment contents.
# ---------------------------------------------------------------------------

def utf8_len(text):
    """Length of `text` in UTF-8 bytes."""
    return len(text.encode("utf-8"))


def make_numeric(rng, count):
    """Random string of `count` decimal digits."""
    return "".join(rng.choice("0123456789") for _ in range(count))


def make_alphanumeric(rng, count):
    """Random string of `count` characters from the 45-character set."""
    out = ""
    while len(out) < count:
        if rng.random() < 0.3:
            piece = rng.choice(ALPHANUMERIC_WORDS)
        else:
            piece = rng.choice(ALPHANUMERIC_CHARS)
        out += piece[:count - len(out)]
    return out


def make_text(rng, nbytes, script, force_non_ascii):
    """Random text of exactly `nbytes` UTF-8 bytes.

    `script` is None for ASCII-only text, otherwise a key of SCRIPTS whose
    words and characters are mixed with ASCII.  With `force_non_ascii` the
    text starts with a non-ASCII character (needs nbytes >= 2).
    """
    out = []
    remaining = nbytes
    if force_non_ascii:
        chars = [c for c in SCRIPTS[script][1] if utf8_len(c) <= remaining]
        if not chars:
            chars = [c for s in SCRIPTS.values() for c in s[1]
                     if utf8_len(c) <= remaining]
        out.append(rng.choice(chars))
        remaining -= utf8_len(out[-1])
    while remaining > 0:
        roll = rng.random()
        if script is not None and roll < 0.45:
            words, chars = SCRIPTS[script]
            piece = rng.choice(words) if roll < 0.25 else rng.choice(chars)
        elif roll < 0.75:
            piece = rng.choice(ASCII_WORDS)
        else:
            piece = rng.choice(ASCII_PUNCT)
        if utf8_len(piece) > remaining:
            # Shorten at a character boundary; fill the rest with ASCII.
            while piece and utf8_len(piece) > remaining:
                piece = piece[:-1]
            if not piece:
                piece = rng.choice("abcdefghijklmnopqrstuvwxyz ")
        out.append(piece)
        remaining -= utf8_len(piece)
    return "".join(out)


# ---------------------------------------------------------------------------
# Building vectors with an exact bit length.
# ---------------------------------------------------------------------------

def exact_count(mode, bits):
    """Characters (bytes for byte mode) of a `mode` payload of exactly
    `bits` bits, or None if no length gives exactly that many bits."""
    if mode == "numeric":
        rest = {0: 0, 4: 1, 7: 2}.get(bits % 10)
        return None if rest is None else 3 * (bits // 10) + rest
    if mode == "alphanumeric":
        rest = {0: 0, 6: 1}.get(bits % 11)
        return None if rest is None else 2 * (bits // 11) + rest
    return bits // 8 if bits % 8 == 0 else None


def approx_count(mode, bits):
    """Largest length whose `mode` payload needs at most `bits` bits (>=1)."""
    if mode == "numeric":
        count = 3 * (bits // 10) + (2 if bits % 10 >= 7 else
                                    1 if bits % 10 >= 4 else 0)
    elif mode == "alphanumeric":
        count = 2 * (bits // 11) + (1 if bits % 11 >= 6 else 0)
    else:
        count = bits // 8
    return max(1, count)


def make_content(rng, mode, count, script, first_byte):
    """Content for a segment of `count` characters (bytes for byte mode)."""
    if mode == "numeric":
        return make_numeric(rng, count)
    if mode == "alphanumeric":
        return make_alphanumeric(rng, count)
    return make_text(rng, count, script, first_byte and script is not None)


def choose_modes(rng, kind, nseg, non_ascii):
    """Mode sequence for a vector, with the eci segment where required."""
    if kind != "mix":
        modes = [kind]
    else:
        while True:
            modes = [rng.choice(DATA_MODES)]
            while len(modes) < nseg:
                modes.append(rng.choice([m for m in DATA_MODES
                                         if m != modes[-1]]))
            if not non_ascii or "byte" in modes:
                break
    if non_ascii:
        first = modes.index("byte")
        modes.insert(first, "eci")
    return modes


def overhead_bits(modes, version):
    """Bits of a segment list that do not depend on the contents
    (minimum payload of one character per data segment included)."""
    total = 0
    for mode in modes:
        if mode == "eci":
            total += ECI_BITS
        else:
            total += 4 + count_bits(mode, version) + MIN_PAYLOAD_BITS[mode]
    return total


def fill_segments(rng, modes, version, target, script):
    """Contents for `modes` totalling exactly `target` bits, or None."""
    fixed = sum(ECI_BITS if m == "eci" else 4 + count_bits(m, version)
                for m in modes)
    budget = target - fixed
    data_idx = [i for i, m in enumerate(modes) if m != "eci"]
    weights = [rng.random() + 0.05 for _ in data_idx]
    scale = sum(weights)
    segments = [[m, ""] for m in modes]
    first_byte = modes.index("byte") if "byte" in modes else -1
    used = 0
    for i, w in zip(data_idx[:-1], weights):
        mode = modes[i]
        count = approx_count(mode, int(budget * w / scale))
        if i == first_byte and script is not None:
            count = max(count, 2)
        segments[i][1] = make_content(rng, mode, count, script,
                                      i == first_byte)
        used += payload_bits(mode, segments[i][1])
    last = data_idx[-1]
    count = exact_count(modes[last], budget - used)
    if count is None or count < 1:
        return None
    if last == first_byte and script is not None and count < 2:
        return None
    segments[last][1] = make_content(rng, modes[last], count, script,
                                     last == first_byte)
    for mode, data in segments:
        if mode != "eci" and char_count(mode, data) >= 1 << count_bits(
                mode, version):
            return None
    segments = [tuple(s) for s in segments]
    if total_bits(segments, version) != target:
        return None
    return segments


def pick_target(rng, category, capacity, minimum):
    """Target stream length in bits for a fill `category`."""
    if category == "full":
        return capacity
    if category == "near_full":
        return capacity - rng.randint(1, 11)
    if category == "pad_boundary":
        # Stream + 4-bit terminator ends on a byte boundary before capacity.
        highest = capacity - 12
        if rng.random() < 0.4:
            return highest
        lowest = minimum + (4 - minimum) % 8
        if lowest > highest:
            return highest
        return lowest + 8 * rng.randint(0, (highest - lowest) // 8)
    if category == "nearly_empty":
        return minimum + rng.randint(0, max(0, capacity // 40))
    return minimum + int(rng.random() * (capacity - minimum))


def build_vector(rng, version, level, category, kind, non_ascii):
    """Random segments for one vector of the given fill `category`.

    `kind` is a single data mode or "mix".  Returns None when no attempt
    reaches the target length exactly (some combinations are impossible,
    e.g. a lone byte segment can never fill a symbol exactly).
    """
    capacity = data_capacity(version, level)
    script = rng.choice(sorted(SCRIPTS)) if non_ascii else None
    for attempt in range(400):
        nseg = rng.randint(2, 6) if kind == "mix" else 1
        if attempt >= 200:
            nseg = min(nseg, 3)
        modes = choose_modes(rng, kind, nseg, non_ascii)
        minimum = overhead_bits(modes, version)
        if non_ascii:
            minimum += 8  # the first byte segment holds >= 2 bytes
        if minimum > capacity:
            continue
        target = pick_target(rng, category, capacity, minimum)
        if target < minimum or target > capacity:
            continue
        segments = fill_segments(rng, modes, version, target, script)
        if segments is not None:
            return segments
    return None


# ---------------------------------------------------------------------------
# The vector plan.
# ---------------------------------------------------------------------------

BASE_CATEGORIES = ["full", "pad_boundary", "near_full", "nearly_empty",
                   "random", "random", "random", "random"]
EXTRA_CATEGORIES = (["full"] * 15 + ["pad_boundary"] * 10 +
                    ["near_full"] * 10 + ["nearly_empty"] * 7 +
                    ["random"] * 58)
EXTRA_PER_VERSION = {v: (85 if v <= 10 else 4) for v in range(1, 41)}


def plan(rng):
    """List of (version, level, category) for every vector to generate.

    Each version gets 8 base vectors (two per level, covering every fill
    category), plus extras weighted towards versions 1-10.
    """
    slots = []
    for version in range(1, 41):
        levels = list(LEVELS) * 2
        categories = list(BASE_CATEGORIES)
        rng.shuffle(categories)
        slots.extend(zip([version] * 8, levels, categories))
        levels = []
        while len(levels) < EXTRA_PER_VERSION[version]:
            chunk = list(LEVELS)
            rng.shuffle(chunk)
            levels.extend(chunk)
        for level in levels[:EXTRA_PER_VERSION[version]]:
            slots.append((version, level, rng.choice(EXTRA_CATEGORIES)))
    return slots


def pick_kind(rng):
    """Choose (kind, non_ascii): about 30% of vectors hold non-ASCII text."""
    if rng.random() < 0.30:
        return ("byte" if rng.random() < 0.3 else "mix"), True
    return rng.choice(["numeric", "alphanumeric", "byte", "mix", "mix"]), False


def generate(rng):
    """Generate and cross-check all vectors."""
    vectors = []
    for version, level, category in plan(rng):
        segments = None
        for _ in range(50):
            kind, non_ascii = pick_kind(rng)
            segments = build_vector(rng, version, level, category, kind,
                                    non_ascii)
            if segments is not None:
                break
        if segments is None:
            raise RuntimeError(f"cannot build a {category} vector for "
                               f"v{version}-{level}")
        mask = rng.randrange(8)
        vectors.append(encode_vector(segments, version, level, mask))
    return vectors


def summarize(vectors):
    """Human-readable distribution summary (printed, not stored)."""
    n = len(vectors)
    lines = [f"{n} vectors"]
    for lo, hi in ((1, 10), (11, 26), (27, 40)):
        count = sum(lo <= v["version"] <= hi for v in vectors)
        lines.append(f"  versions {lo}-{hi}: {count}")
    lines.append("  levels: " + ", ".join(
        f"{lv} {sum(v['level'] == lv for v in vectors)}" for lv in LEVELS))
    per_version = [sum(v["version"] == ver for v in vectors)
                   for ver in range(1, 41)]
    lines.append(f"  min vectors per version: {min(per_version)}")
    per_pair = [sum(v["version"] == ver and v["level"] == lv
                    for v in vectors)
                for ver in range(1, 41) for lv in LEVELS]
    lines.append(f"  min vectors per version x level: {min(per_pair)}")

    def fraction(pred):
        """Count and percentage of vectors satisfying `pred`."""
        count = sum(1 for v in vectors if pred(v))
        return f"{count} ({100.0 * count / n:.1f}%)"

    def is_full(v):
        """True iff the vector's segments exactly fill the capacity."""
        cap = data_capacity(v["version"], v["level"])
        return total_bits(v["segments"], v["version"]) == cap

    lines.append("  non-ASCII (with eci): " + fraction(
        lambda v: any(m == "eci" for m, _ in v["segments"])))
    lines.append("  segno_pad_deviation: " + fraction(
        lambda v: v["segno_pad_deviation"]))
    lines.append("  exactly full: " + fraction(is_full))
    lines.append("  nayuki_mask == mask: " + fraction(
        lambda v: v["nayuki_mask"] == v["mask"]))
    counts = {}
    for v in vectors:
        data_segs = [m for m, _ in v["segments"] if m != "eci"]
        key = data_segs[0] if len(data_segs) == 1 else f"{len(data_segs)} segs"
        counts[key] = counts.get(key, 0) + 1
    lines.append("  shapes: " + ", ".join(
        f"{k} {counts[k]}" for k in sorted(counts)))
    rems = sorted({len(d) % 3 for v in vectors for m, d in v["segments"]
                   if m == "numeric"})
    pars = sorted({len(d) % 2 for v in vectors for m, d in v["segments"]
                   if m == "alphanumeric"})
    lines.append(f"  numeric len mod 3 seen: {rems}; "
                 f"alphanumeric len mod 2 seen: {pars}")
    return "\n".join(lines)


def main():
    """Generate vectors.json.gz next to this script."""
    start = time.monotonic()
    for package, expected in EXPECTED_VERSIONS.items():
        found = importlib.metadata.version(package)
        if found != expected:
            sys.exit(f"{package} {found} found, {expected} expected "
                     "(the recorded deviations are version specific)")
    check(segno.__version__ == EXPECTED_VERSIONS["segno"],
          "segno module version mismatch")
    check(qrcodegen.__file__.startswith("/usr/lib/python3/"),
          f"unexpected qrcodegen module {qrcodegen.__file__}")

    rng = random.Random(SEED)
    try:
        vectors = generate(rng)
    except ReferenceMismatch as err:
        sys.exit(f"REFERENCE MISMATCH: {err}")
    document = {
        "generator": GENERATOR,
        "segno": EXPECTED_VERSIONS["segno"],
        "qrcodegen": EXPECTED_VERSIONS["qrcodegen"],
        "hash": HASH_DESCRIPTION,
        "vectors": vectors,
    }
    body = ",\n".join(json.dumps(v, ensure_ascii=False,
                                 separators=(",", ":")) for v in vectors)
    head = json.dumps({k: v for k, v in document.items() if k != "vectors"},
                      ensure_ascii=False, separators=(",", ":"))
    text = head[:-1] + ',"vectors":[\n' + body + "\n]}\n"
    check(json.loads(text) == document, "JSON round trip failed")
    data = gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)
    with open(OUTPUT, "wb") as out:
        out.write(data)
    print(summarize(vectors))
    print(f"wrote {OUTPUT}: {len(data)} bytes gzip, "
          f"{len(text.encode('utf-8'))} bytes JSON, "
          f"{time.monotonic() - start:.1f} s")


if __name__ == "__main__":
    main()
