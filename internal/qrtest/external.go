package qrtest

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/bananaqr/bananaqr/internal/testenv"
)

// The decoders outside Go: zbarimg (Debian's zbar-tools) and zxing-cpp (python3-zxing-cpp, with
// python3-pil), both independent of this project. .ci/run installs them.

//go:embed zxing_decode.py
var zxingScript string

//go:embed wechat_decode.py
var wechatScript string

// python is the interpreter that has Debian's zxingcpp module.
const python = "/usr/bin/python3"

// NeedTools skips the test when one of the programs is not installed, or fails it in CI (the
// CI environment variable set), where they must be.
func NeedTools(t testing.TB, names ...string) {
	t.Helper()
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			missing(t, name)
		}
	}
}

// NeedWeChat is NeedTools for OpenCV's Python module with the WeChat detector.
func NeedWeChat(t testing.TB) {
	t.Helper()
	if err := exec.Command(python, "-c", "import cv2; cv2.wechat_qrcode_WeChatQRCode()").Run(); err != nil {
		missing(t, "python3-opencv (with cv2.wechat_qrcode)")
	}
}

// NeedZXingCPP is NeedTools for zxing-cpp's Python module and PIL.
func NeedZXingCPP(t testing.TB) {
	t.Helper()
	if err := exec.Command(python, "-c", "import zxingcpp, PIL").Run(); err != nil {
		missing(t, "python3-zxing-cpp and python3-pil")
	}
}

func missing(t testing.TB, what string) {
	t.Helper()
	testenv.Missing(t, what+" is not installed", "see .ci/run")
}

// Zbarimg decodes image files with zbar and returns the text found in each, byte for byte
// (zbarimg --raw, a file at a time: its XML output loses carriage returns and mangles some
// UTF-8). Without an ECI, zbar takes the bytes for Shift_JIS, Latin-1 or Big5 before UTF-8, so
// non-ASCII text comes back exact only when the symbol says UTF-8 with ECI 26.
func Zbarimg(t testing.TB, files []string) map[string]string {
	t.Helper()
	got := make([]string, len(files))
	var wg sync.WaitGroup
	work := make(chan int)
	for range 4 {
		wg.Go(func() {
			for i := range work {
				out, err := exec.Command("zbarimg", "--raw", "-q", "-Sdisable", "-Sqrcode.enable", files[i]).Output()
				if err != nil {
					got[i] = "error: " + err.Error()
					continue
				}
				got[i] = strings.TrimSuffix(string(out), "\n")
			}
		})
	}
	for i := range files {
		work <- i
	}
	close(work)
	wg.Wait()
	m := map[string]string{}
	for i, f := range files {
		m[f] = got[i]
	}
	return m
}

// ZXingCPP decodes image files with zxing-cpp and returns the text found in each, or "error: "
// and why.
func ZXingCPP(t testing.TB, files []string) map[string]string {
	t.Helper()
	return pythonDecoder(t, "zxing-cpp", zxingScript, files)
}

// WeChat decodes image files with OpenCV's WeChat detector and returns the text found in each,
// or "error: " and why.
func WeChat(t testing.TB, files []string) map[string]string {
	t.Helper()
	return pythonDecoder(t, "WeChat", wechatScript, files)
}

// pythonDecoder runs a decoder script over files: it prints a JSON line per file.
func pythonDecoder(t testing.TB, name, script string, files []string) map[string]string {
	t.Helper()
	out, err := exec.Command(python, append([]string{"-c", script}, files...)...).Output()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	got := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r struct {
			File  string  `json:"file"`
			Text  *string `json:"text"`
			Error *string `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.Text != nil {
			got[r.File] = *r.Text
		} else {
			got[r.File] = "error: " + strconv.Quote(*r.Error)
		}
	}
	return got
}
