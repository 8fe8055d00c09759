#!/usr/bin/python3
"""The scan benchmark: how often real readers read bananaqr's codes under camera conditions.

Each payload is printed at one size, the same for every style and reference encoder (so a style
that needs a larger symbol gets smaller modules, as on paper), photographed in simulation at graded
severities (downscaling to a few pixels a module, blur, perspective tilt, rotation, a lighting
gradient, sensor noise, JPEG) and read by three independent decoders: zxing-cpp, zbar and
OpenCV's WeChat detector. A read counts only when the text is exactly the payload.

Every capture of one payload at one severity and repetition uses the same random draw for every
style, so the styles are compared on identical photographs; the seeds are fixed, so two runs
print the same table.

Usage (bench/scan/run.sh builds the code maker and calls this):
    scan.py --codes BIN [--quick] [--reps N] [--jobs N] [--json FILE] [--styles a,b]

Needs Debian's python3-opencv (cv2.wechat_qrcode), python3-zxing-cpp, python3-pyzbar,
python3-numpy, python3-pil, python3-segno and qrencode; run it with /usr/bin/python3.
"""
import argparse
import hashlib
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time

import cv2
import numpy as np
import segno
import zxingcpp
from pyzbar import pyzbar

# The payloads: short and long URLs, Wi-Fi, a vCard with non-ASCII text, texts of 100 to 2,000
# characters, digits, and text that mixes the encoder's modes.
LOREM = ("Bananas are berries, botanically speaking; strawberries are not. A ripe banana's peel "
         "glows blue under ultraviolet light. Plantains are cooked, dessert bananas eaten raw. ")


def text_of(n):
    """Return n characters of prose."""
    return (LOREM * (n // len(LOREM) + 1))[:n]


PAYLOADS = {
    "url-short": "https://example.com",
    "url-long": "https://shop.example.com/products/banana-bread-mix?utm_source=newsletter"
                "&utm_medium=email&utm_campaign=autumn-2026&ref=qr&variant=large",
    "wifi": "WIFI:T:WPA;S:Banana Lab 5G;P:correct horse battery;;",
    "vcard": "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Müller;Anna;;;\r\nFN:Anna Müller\r\n"
             "ORG:Bäckerei Zürich\r\nTEL:+41441234567\r\nEMAIL:anna@example.ch\r\nEND:VCARD",
    "text-100": text_of(100),
    "text-300": text_of(300),
    "text-1000": text_of(1000),
    "text-2000": text_of(2000),
    "digits": "31415926535897932384626433832795028841971693993751058209749445923078164062",
    "mixed": "ORDER 2026-11-25 NO. 4711: 12 BANANAS, 3 PLANTAINS; total 48.90 EUR, thank you! "
             "Ref ABC-123-XYZ / 0049301234567",
}
QUICK_PAYLOADS = ["url-short", "wifi", "vcard", "text-300"]

# bananaqr's styles (API request fields) and the plain references.
STYLES = {
    "square": {},
    "rounded": {"corners": "rounded"},
    "banana": {"logo": "banana"},
    "rounded+banana": {"corners": "rounded", "logo": "banana"},
    "navy on cream": {"color": "1A237E", "background": "FFF8E1"},
    "green on white, rounded": {"color": "1B5E20", "corners": "rounded"},
    "black, margin 2": {"color": "000000", "margin": 2},
    "black, margin 0": {"color": "000000", "margin": 0},
    # Words around the code (issue 32): they must read as their uncaptioned twins do.
    "square, caption": {"caption": "Scan for the menu"},
    "square, caption above": {"caption": "Scan for the menu", "caption_position": "above"},
    "rounded+banana, caption": {"corners": "rounded", "logo": "banana", "caption": "Сканируйте меню"},
}
REFERENCES = ["libqrencode", "segno"]

# Severities: the camera's pixels a module of the printed payload's reference symbol (libqrencode
# at level M), blur, tilt (corner displacement as a share of the side), rotation, lighting
# gradient depth, sensor noise and JPEG quality. "as rendered" reads the image as made.
SEVERITIES = {
    "mild": dict(ppm=(2.8, 3.2), blur=(0.4, 0.6), tilt=0.06, rot=20, grad=0.25, noise=3, jpeg=(80, 90)),
    "moderate": dict(ppm=(2.3, 2.6), blur=(0.5, 0.7), tilt=0.08, rot=45, grad=0.35, noise=5, jpeg=(70, 80)),
    "strong": dict(ppm=(2.0, 2.3), blur=(0.6, 0.8), tilt=0.10, rot=180, grad=0.45, noise=7, jpeg=(60, 70)),
}
SEVERITY_ORDER = ["as rendered"] + list(SEVERITIES)
DECODERS = ["zxing-cpp", "zbar", "wechat"]
PAPER = (246, 246, 242)  # the sheet around the printed code (BGR)
TABLE = (70, 62, 58)     # what lies around the sheet


def make_codes(codes_bin, workdir, payloads, styles):
    """Make every code: bananaqr's through scancodes, the references through qrencode and segno.

    Returns {(payload, style): {"file": path, "modules": N, "margin": m} or {"error": code}}.
    """
    jobs, keys = [], []
    for p in payloads:
        for s in styles:
            out = os.path.join(workdir, f"{p}-{len(keys)}.png")
            body = {"data": PAYLOADS[p], "size": 1024, "format": "png", **STYLES[s]}
            jobs.append(json.dumps({"out": out, "body": body}))
            keys.append((p, s))
    res = subprocess.run([codes_bin], input="\n".join(jobs) + "\n", capture_output=True, text=True, check=True)
    codes = {}
    for key, line in zip(keys, res.stdout.splitlines()):
        m = json.loads(line)
        if m.get("error"):
            codes[key] = {"error": m["error"]}
        else:
            codes[key] = {"file": m["out"], "modules": m["modules"], "margin": m["margin"],
                          "module_px": m["module_px"], "version": m["version"], "ecc": m["ecc"],
                          "words": bool(STYLES[key[1]].get("caption"))}
    for p in payloads:
        text = PAYLOADS[p]
        out = os.path.join(workdir, f"{p}-libqrencode.png")
        subprocess.run(["qrencode", "-l", "M", "-s", "10", "-m", "4", "-o", out, text], check=True)
        codes[(p, "libqrencode")] = reference(out, 10, 4)
        out = os.path.join(workdir, f"{p}-segno.png")
        segno.make(text, error="m", micro=False).save(out, scale=10, border=4)
        codes[(p, "segno")] = reference(out, 10, 4)
    return codes


def reference(path, scale, border):
    """Describe a reference encoder's PNG of scale pixels a module and border modules."""
    img = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    n = img.shape[0] // scale - 2 * border
    return {"file": path, "modules": n, "margin": border, "module_px": scale, "version": (n - 17) // 4, "ecc": "M"}


def code_area(code):
    """Return what is printed of the code (BGR), and its side over the symbol's with its quiet
    zone: the symbol and its quiet zone cropped (1); for a code with words, the whole image, the
    words included, photographed with the code (its side over the code's, more than 1)."""
    img = cv2.imread(code["file"], cv2.IMREAD_COLOR)
    side = code["module_px"] * (code["modules"] + 2 * code["margin"])
    if code.get("words"):
        return img, img.shape[0] / side
    o = (img.shape[0] - side) // 2
    return img[o:o + side, o:o + side], 1.0


def rng_for(*parts):
    """Return a random generator seeded by parts (fixed across runs and processes)."""
    seed = int.from_bytes(hashlib.sha256("/".join(map(str, parts)).encode()).digest()[:8], "little")
    return np.random.default_rng(seed)


def capture(area, printed_modules, sev, rng):
    """Photograph area, a code with its quiet zone printed on paper, as severity sev says.

    area is code_area's pair. printed_modules is the reference symbol's side with a quiet zone
    of 4 modules: the printed side S is sev's pixels a module times that, whatever this code's
    own modules (and a code with words is printed larger by its words, the code the same size).
    """
    area, extent = area
    ppm = rng.uniform(*sev["ppm"])
    # This code's printed side: the same physical size for every style of a payload, its own
    # quiet zone included (a margin of 0 leaves only the paper around it).
    side = max(16, round(ppm * printed_modules * extent))
    printed = cv2.resize(area, (side, side), interpolation=cv2.INTER_AREA)
    pad = side // 2
    sheet = np.empty((side + 2 * pad, side + 2 * pad, 3), np.uint8)
    sheet[:] = PAPER
    sheet[pad:pad + side, pad:pad + side] = printed
    h = sheet.shape[0]
    src = np.float32([[0, 0], [h, 0], [h, h], [0, h]])
    dst = src + rng.uniform(-sev["tilt"], sev["tilt"], (4, 2)).astype(np.float32) * side
    theta = np.deg2rad(rng.uniform(-sev["rot"], sev["rot"]))
    c = h / 2
    rot = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]], np.float32)
    dst = (dst - c) @ rot.T + c
    frame = round(h * 1.25)
    dst += (frame - h) / 2
    m = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    img = cv2.warpPerspective(sheet, m, (frame, frame), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=TABLE)
    img = cv2.GaussianBlur(img, (0, 0), rng.uniform(*sev["blur"]))
    # Light falls off across the frame in a random direction, and the exposure varies.
    a = rng.uniform(0, 2 * np.pi)
    yy, xx = np.mgrid[0:frame, 0:frame].astype(np.float32) / frame
    ramp = (np.cos(a) * (xx - 0.5) + np.sin(a) * (yy - 0.5)) + 0.5
    light = rng.uniform(0.9, 1.05) * (1 - sev["grad"] * np.clip(ramp, 0, 1))
    img = img.astype(np.float32) * light[..., None]
    img += rng.normal(0, sev["noise"], img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    ok, jpg = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(*sev["jpeg"]))])
    return cv2.imdecode(jpg, cv2.IMREAD_COLOR)


_wechat = None
cv2.setNumThreads(1)  # the pool's processes share the cores


def decode_all(img):
    """Return the text each decoder reads in img (BGR), or None."""
    global _wechat
    if _wechat is None:
        _wechat = cv2.wechat_qrcode_WeChatQRCode()
    out = {}
    try:
        r = zxingcpp.read_barcode(img, formats=zxingcpp.BarcodeFormat.QRCode)
        out["zxing-cpp"] = r.text if r is not None and r.valid else None
    except Exception:
        out["zxing-cpp"] = None
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    found = pyzbar.decode(grey, symbols=[pyzbar.ZBarSymbol.QRCODE])
    out["zbar"] = None
    for f in found:
        try:
            out["zbar"] = f.data.decode("utf-8")
        except UnicodeDecodeError:
            pass
    try:
        texts, _ = _wechat.detectAndDecode(img)
        out["wechat"] = texts[0] if texts else None
    except UnicodeDecodeError:  # it gives the bytes in another charset: not the payload
        out["wechat"] = None
    return out


_areas = {}


def run_case(case):
    """Read one capture of one code; case is (payload, style, severity, rep, code, printed)."""
    p, s, sev, rep, code, printed = case
    if code["file"] not in _areas:
        _areas[code["file"]] = code_area(code)
    area = _areas[code["file"]]
    if sev == "as rendered":
        img = cv2.imread(code["file"], cv2.IMREAD_COLOR)
    else:
        img = capture(area, printed, SEVERITIES[sev], rng_for(p, sev, rep))
    got = decode_all(img)
    return p, s, sev, rep, {d: got[d] == PAYLOADS[p] for d in DECODERS}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--codes", required=True, help="the scancodes binary")
    ap.add_argument("--quick", action="store_true", help="a few payloads, one capture each: a smoke test")
    ap.add_argument("--reps", type=int, default=4, help="captures per payload, style and severity")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--styles", help="comma-separated styles (default: all)")
    ap.add_argument("--json", help="write every read to this file")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless every bananaqr code is read as rendered by all three decoders")
    args = ap.parse_args()
    payloads = QUICK_PAYLOADS if args.quick else list(PAYLOADS)
    reps = 1 if args.quick else args.reps
    styles = args.styles.split(",") if args.styles else list(STYLES)
    t0 = time.time()
    with tempfile.TemporaryDirectory() as workdir:
        codes = make_codes(args.codes, workdir, payloads, styles)
        cases, refused = [], []
        for p in payloads:
            printed = codes[(p, "libqrencode")]["modules"] + 8
            for s in styles + REFERENCES:
                code = codes[(p, s)]
                if "error" in code:
                    refused.append((p, s, code["error"]))
                    continue
                for sev in SEVERITY_ORDER:
                    for rep in range(1 if sev == "as rendered" else reps):
                        cases.append((p, s, sev, rep, code, printed))
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(run_case, cases, chunksize=4)
    report(results, styles + REFERENCES, refused, codes, payloads)
    print(f"\n{len(results)} captures, {len(results) * len(DECODERS)} reads in {time.time() - t0:.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump([{"payload": p, "style": s, "severity": sev, "rep": rep, "read": ok}
                       for p, s, sev, rep, ok in results], f)
    if args.check:
        unread = [f"{p}/{s}: {', '.join(d for d in DECODERS if not ok[d])}"
                  for p, s, sev, rep, ok in results if sev == "as rendered" and s in styles and not all(ok.values())]
        if unread or refused:
            print("FAIL: bananaqr codes not read as rendered by every decoder, or not made: " + "; ".join(unread + [f"{p}/{s}: {e}" for p, s, e in refused]))
            sys.exit(1)
        print("every bananaqr code was read as rendered by zxing-cpp, zbar and WeChat")


def report(results, styles, refused, codes, payloads):
    """Print decode rates per style and severity: by any decoder, and by each."""
    cells = {}
    for p, s, sev, rep, ok in results:
        c = cells.setdefault((s, sev), {"n": 0, "any": 0, **{d: 0 for d in DECODERS}})
        c["n"] += 1
        c["any"] += any(ok.values())
        for d in DECODERS:
            c[d] += ok[d]

    def pct(s, sev, key):
        c = cells.get((s, sev))
        return f"{100 * c[key] / c['n']:.0f} %" if c else "–"

    print("Read by any of the three decoders (captures a cell in brackets):\n")
    print("| style | " + " | ".join(SEVERITY_ORDER) + " | versions |")
    print("|---|" + "---|" * (len(SEVERITY_ORDER) + 1))
    for s in styles:
        row = [f"{pct(s, sev, 'any')} ({cells[(s, sev)]['n']})" if (s, sev) in cells else "–" for sev in SEVERITY_ORDER]
        versions = " ".join(f"{codes[(p, s)].get('version', 'x')}{codes[(p, s)].get('ecc', '')}" for p in payloads)
        print(f"| {s} | " + " | ".join(row) + f" | {versions} |")
    for d in DECODERS:
        print(f"\n{d}:\n")
        print("| style | " + " | ".join(SEVERITY_ORDER) + " |")
        print("|---|" + "---|" * len(SEVERITY_ORDER))
        for s in styles:
            print(f"| {s} | " + " | ".join(pct(s, sev, d) for sev in SEVERITY_ORDER) + " |")
    print("\nThe two middle severities together (mild + moderate), any decoder, against square:\n")
    mid = ["mild", "moderate"]

    def rate(s):
        n = sum(cells[(s, sev)]["n"] for sev in mid if (s, sev) in cells)
        k = sum(cells[(s, sev)]["any"] for sev in mid if (s, sev) in cells)
        return k / n if n else float("nan")

    sq = rate("square") if "square" in styles else float("nan")
    for s in styles:
        print(f"- {s}: {100 * rate(s):.1f} %" + (f" ({rate(s) / sq:.3f} of square)" if sq == sq else ""))
    if refused:
        print("\nNot made (the service refused): " + ", ".join(f"{p}/{s}: {e}" for p, s, e in refused))


if __name__ == "__main__":
    main()
