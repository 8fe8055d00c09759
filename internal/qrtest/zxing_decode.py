#!/usr/bin/python3
"""Decode QR codes in image files with zxing-cpp, for the tests (see external.go).

Usage: zxing_decode.py FILE...   (Debian: python3-zxing-cpp, python3-pil)
Prints one JSON object per file: {"file": ..., "text": ... or null, "error": ... or null}.
"""
import json
import sys

import zxingcpp
from PIL import Image


def decode(path):
    """Return the QR code in the image at path, or raise."""
    with Image.open(path) as img:
        result = zxingcpp.read_barcode(img.convert("L"), formats=zxingcpp.BarcodeFormat.QRCode)
    if result is None or not result.valid:
        raise ValueError("no QR code found")
    return result


def main():
    for path in sys.argv[1:]:
        try:
            out = {"file": path, "text": decode(path).text, "error": None}
        except Exception as e:  # report every failure per file
            out = {"file": path, "text": None, "error": str(e)}
        print(json.dumps(out))


if __name__ == "__main__":
    main()
