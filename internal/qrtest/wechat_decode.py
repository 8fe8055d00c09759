#!/usr/bin/python3
"""Decode QR codes in image files with OpenCV's WeChat detector, for the tests (see external.go).

Usage: wechat_decode.py FILE...   (Debian: python3-opencv, which has cv2.wechat_qrcode)
Prints one JSON object per file: {"file": ..., "text": ... or null, "error": ... or null}.
The detector runs without its CNN models (Debian ships none): its traditional detector.
"""
import json
import sys

import cv2


def main():
    detector = cv2.wechat_qrcode_WeChatQRCode()
    for path in sys.argv[1:]:
        try:
            texts, _ = detector.detectAndDecode(cv2.imread(path, cv2.IMREAD_COLOR))
            if not texts:
                raise ValueError("no QR code found")
            out = {"file": path, "text": texts[0], "error": None}
        except Exception as e:  # report every failure per file (a text not in UTF-8 too)
            out = {"file": path, "text": None, "error": str(e)}
        print(json.dumps(out))


if __name__ == "__main__":
    main()
