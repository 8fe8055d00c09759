package client

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"image/png"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/internal/qrtest"
	"github.com/bananaqr/bananaqr/internal/ratelimit"
	"github.com/bananaqr/bananaqr/payload"
)

// TestBatch makes a batch through our own service: a ZIP archive with the files named as
// asked, the PNGs reading back to their payloads; a batch with invalid requests is an
// *APIError BATCH_INVALID listing them by index; one over the budget is a 429 saying when it
// would fit.
func TestBatch(t *testing.T) {
	svc := newService(t, ratelimit.NewMemory(60, time.Minute, nil))
	c := newClient(t, svc.URL, WithRateLimitRetries(0))
	wifi := api.NewRequest()
	wifi.Format = api.FormatPNG
	wifi.Payload = payload.Request{Type: payload.WiFi, SSID: "Café", Password: "correct horse"}
	link := api.NewRequest()
	link.Payload.URL = "https://example.com/menu"
	archive, err := c.Batch(context.Background(), []BatchItem{{Request: wifi, Filename: "guests"}, {Request: link}})
	if err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(archive.ZIP), int64(len(archive.ZIP)))
	if err != nil {
		t.Fatal(err)
	}
	if len(zr.File) != 2 || zr.File[0].Name != "guests.png" || zr.File[1].Name != "qr-2-url.svg" {
		t.Fatalf("files %v", zr.File)
	}
	rc, _ := zr.File[0].Open()
	b, _ := io.ReadAll(rc)
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if text, err := qrtest.DecodeImage(img, false); err != nil || text != "WIFI:T:WPA;S:Café;P:correct horse;;" {
		t.Errorf("guests.png reads %q (%v)", text, err)
	}

	bad := api.NewRequest()
	bad.Payload.Type = payload.WiFi
	_, err = c.Batch(context.Background(), []BatchItem{{Request: link}, {Request: bad}, {Request: link, Filename: "../x"}})
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusBadRequest || apiErr.Reason != api.ReasonBatchInvalid || len(apiErr.Items) != 2 ||
		apiErr.Items[0].Index != 1 || apiErr.Items[0].Reason != payload.ReasonMissingField || apiErr.Items[1].Index != 2 || apiErr.Items[1].Field != "filename" {
		t.Fatalf("%v %+v", err, apiErr)
	}

	many := make([]BatchItem, 59)
	for i := range many {
		many[i] = BatchItem{Request: link}
	}
	_, err = c.Batch(context.Background(), many)
	// 5 counted so far (the invalid batch's 3 too): 59 need 4 more places, about 4 s.
	if !errors.As(err, &apiErr) || apiErr.Reason != api.ReasonRateLimited || apiErr.RetryAfter < 3*time.Second || apiErr.RetryAfter > 5*time.Second {
		t.Fatalf("59 with 55 left: %v (retry after %v)", err, apiErr.RetryAfter)
	}
}
