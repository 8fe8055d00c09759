// Package generate is the service's one way through: a request becomes a payload, the payload a
// symbol, the symbol an SVG, a PNG, a PDF or an EPS. The HTTP and MCP edges both call Code; a
// batch calls Prepare for every code, then Make for each, the same steps apart. It does no I/O.
package generate

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/bananaqr/bananaqr/api"
	"github.com/bananaqr/bananaqr/payload"
	"github.com/bananaqr/bananaqr/qr"
	"github.com/bananaqr/bananaqr/render"
)

// Result is a QR code made for a request. Its images live in pooled memory: call Release
// when they are written.
type Result struct {
	Payload  payload.Payload
	Symbol   *qr.Symbol
	ModulePx int // pixels a module
	// Warnings are what some readers mishandle about the payload and the style, though both
	// are valid: the payload's first.
	Warnings []api.Warning
	SVG      []byte // for the svg and json formats
	PNG      []byte // for the png and json formats
	PDF      []byte // for the pdf format
	EPS      []byte // for the eps format

	svgBuf, pngBuf, pdfBuf, epsBuf *[]byte // the pooled memory the images were written into
}

// Image returns the image of format f, the body of a response in that format: SVG, PNG, PDF
// or EPS; nil for json, whose answer holds both the SVG and the PNG.
func (r *Result) Image(f api.Format) []byte {
	switch f {
	case api.FormatSVG:
		return r.SVG
	case api.FormatPNG:
		return r.PNG
	case api.FormatPDF:
		return r.PDF
	case api.FormatEPS:
		return r.EPS
	}
	return nil
}

// buffers holds image memory between requests, as pointers so that putting one back costs
// no allocation.
var buffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooled is the largest image memory kept for other requests (a 2048 px PNG is far less).
const maxPooled = 1 << 20

// Release gives the result's image memory back for other requests; the result's images must
// not be used afterwards.
func (r *Result) Release() {
	release(r.svgBuf, r.SVG)
	release(r.pngBuf, r.PNG)
	release(r.pdfBuf, r.PDF)
	release(r.epsBuf, r.EPS)
	r.SVG, r.PNG, r.PDF, r.EPS = nil, nil, nil, nil
	r.svgBuf, r.pngBuf, r.pdfBuf, r.epsBuf = nil, nil, nil, nil
}

// release puts buf back in the pool holding img, the memory last written through it (which
// grew from buf's).
func release(buf *[]byte, img []byte) {
	if buf != nil && cap(img) <= maxPooled {
		*buf = img[:0]
		buffers.Put(buf)
	}
}

// Prepared is a request that passed every check of Code, with what the checks decided: its
// payload built, its symbol's version and level chosen (qr.Prepared, a few words whatever the
// symbol's size), and the pixels a module of its image. Make makes its code; Prepare makes it, so
// that a batch checks every code before making any while holding no symbol or image.
type Prepared struct {
	Request  api.Request
	Payload  payload.Payload
	ModulePx int         // pixels a module
	Symbol   qr.Prepared // the symbol's version and level, decided; Make encodes it
}

// Prepare checks r as Code does, with Code's errors, and decides its symbol without encoding it
// (qr.Prepare): Make then encodes and draws it.
func Prepare(r *api.Request) (Prepared, error) {
	p, err := build(r)
	if err != nil {
		return Prepared{}, err
	}
	s, err := qr.Prepare(p.Text, Encoding(r))
	if err = encodeError(err, p, r); err != nil {
		return Prepared{}, err
	}
	if err = checkVersion(s.Version(), p, r); err != nil {
		return Prepared{}, err
	}
	c, err := fit(r, p, s.Size())
	if err != nil {
		return Prepared{}, err
	}
	c.Symbol = s
	return c, nil
}

// Make makes the code that Prepare checked: its symbol encoded (qr.Prepared.Encode), its image
// drawn.
func (c *Prepared) Make() (*Result, error) {
	s, err := c.Symbol.Encode(c.Payload.Text)
	if err != nil {
		return nil, err
	}
	return c.draw(s)
}

// Symbol makes the symbol of r, everything of a code but its image: the colours checked, the
// payload built, the symbol encoded as r asks (the logo's pad spared). Its errors are the API's,
// as Code's.
func Symbol(r *api.Request) (payload.Payload, *qr.Symbol, error) {
	p, err := build(r)
	if err != nil {
		return p, nil, err
	}
	s, err := qr.Encode(p.Text, Encoding(r))
	if err = encodeError(err, p, r); err != nil {
		return p, nil, err
	}
	if err = checkVersion(s.Version(), p, r); err != nil {
		return p, nil, err
	}
	return p, s, nil
}

// checkVersion returns NOT_ENCODABLE when the symbol of payload p, of version v, is larger than
// its standard allows: a swissqr code is at most version 25 (SIX IG QR-bill 2.3), or nil.
func checkVersion(v int, p payload.Payload, r *api.Request) error {
	if p.Type != payload.SwissQR || v <= render.SwissMaxVersion {
		return nil
	}
	return api.NewError(api.ReasonNotEncodable, "",
		fmt.Sprintf("Shorten the bill's texts (names, addresses, the message or the billing information): the Swiss QR-bill allows at most version %d, and at level M with the Swiss cross this text needs version %d.", render.SwissMaxVersion, v),
		"the payload (%d bytes) needs a version %d symbol; a Swiss QR Code is at most version %d", len(p.Text), v, render.SwissMaxVersion)
}

// Code makes the QR code of r, or returns an error that api.ErrorOf turns into the API's error:
// the colours' contrast, the payload's errors, and NOT_ENCODABLE when the payload does not fit a
// symbol at the level asked for or the symbol does not fit the image. Its steps are Prepare's
// and Make's, but that the symbol is decided and encoded at once (qr.Encode, on the same scratch
// memory) rather than apart: a code made alone need not be kept in between.
func Code(r *api.Request) (*Result, error) {
	p, s, err := Symbol(r)
	if err != nil {
		return nil, err
	}
	return Draw(r, p, s)
}

// Draw draws the image of symbol s, made by Symbol from r and its payload p: Code's second step,
// apart for a caller that times the two (a span each). Its error is NOT_ENCODABLE when s does
// not fit the image r asks for.
func Draw(r *api.Request, p payload.Payload, s *qr.Symbol) (*Result, error) {
	c, err := fit(r, p, s.Size())
	if err != nil {
		return nil, err
	}
	return c.draw(s)
}

// build checks the colours and what else no single field of r shows (Check), then builds its
// payload, and checks that a destination asked for can be shown (checkDestination).
func build(r *api.Request) (payload.Payload, error) {
	if err := Check(r); err != nil {
		return payload.Payload{}, err
	}
	p, err := payload.Build(&r.Payload)
	if err != nil {
		return p, err
	}
	return p, checkDestination(r, p)
}

// checkDestination returns INVALID_VALUE when r asks to print the destination of payload p and p
// has none to show: only a public url code's link is printed (a private payload never shows,
// such as a link with user information).
func checkDestination(r *api.Request, p payload.Payload) error {
	if !r.ShowDestination {
		return nil
	}
	if _, ok := payload.DestinationOf(p.Text); !ok || p.Type != payload.URL || p.Private {
		return api.NewError(api.ReasonInvalidValue, "show_destination",
			"Leave out show_destination, or use it with a url code: it prints a public link's host and path.",
			"show_destination is for public url codes, not %s", p.Type)
	}
	return nil
}

// encodeError returns the API's error for err, the encoder's error for payload p of r: NOT_ENCODABLE
// when it does not fit a symbol at r's level (field "") or no symbol can spare the logo's cover
// (field logo); err as it is otherwise.
func encodeError(err error, p payload.Payload, r *api.Request) error {
	var long *qr.TooLongError
	if errors.As(err, &long) {
		return api.NewError(api.ReasonNotEncodable, "",
			fmt.Sprintf("At error correction level %s a code holds at most %d bytes of this text; shorten it, lower ecc, or encode a URL that points to it.", long.Level, long.Max),
			"the payload (%d bytes) does not fit a QR code at level %s", long.Len, long.Level)
	}
	if errors.Is(err, qr.ErrCoverTooCostly) {
		return api.NewError(api.ReasonNotEncodable, "logo",
			"Leave out the logo (logo=none), or shorten the payload: the logo hides modules that this code's error correction cannot spare.",
			"the payload (%d bytes) leaves too little error correction for the logo at level %s or above", len(p.Text), r.ECC)
	}
	return err
}

// fit checks that a symbol of modules a side fits the image r asks for, at 2 pixels a module at
// least (else NOT_ENCODABLE, field size), and returns r and payload p checked, with the pixels a
// module; the symbol is the caller's to add.
func fit(r *api.Request, p payload.Payload, modules int) (Prepared, error) {
	o := optionsFor(r, p)
	px, err := render.ModulePixels(modules, &o)
	var small *render.TooSmallError
	if errors.As(err, &small) {
		hint := fmt.Sprintf("Use size %d or more (2 pixels a module), or a smaller margin.", small.MinSize)
		if small.MinSize > render.MaxSize {
			hint = "Shorten the payload, lower ecc or the margin: even 2048 pixels give fewer than 2 pixels a module."
		}
		return Prepared{}, api.NewError(api.ReasonNotEncodable, "size", hint,
			"%d modules a side (with the quiet zone) do not fit %d pixels at 2 pixels a module", small.Modules, small.Size)
	}
	if err != nil {
		return Prepared{}, err
	}
	return Prepared{Request: *r, Payload: p, ModulePx: px}, nil
}

// draw draws the image of symbol s, the symbol of c, in the format c asks for.
func (c *Prepared) draw(s *qr.Symbol) (*Result, error) {
	r, p := &c.Request, c.Payload
	o := optionsFor(r, p)
	res := &Result{Payload: p, Symbol: s, ModulePx: c.ModulePx, Warnings: warnings(p, r)}
	var err error
	switch r.Format {
	case api.FormatPDF:
		o.Title = Title(p) // the document's /Title
		res.pdfBuf = buffers.Get().(*[]byte)
		if res.PDF, err = render.AppendPDF((*res.pdfBuf)[:0], s, &o); err != nil {
			return nil, err
		}
		return res, nil
	case api.FormatEPS:
		res.epsBuf = buffers.Get().(*[]byte)
		if res.EPS, err = render.AppendEPS((*res.epsBuf)[:0], s, &o); err != nil {
			return nil, err
		}
		return res, nil
	}
	if r.Format != api.FormatPNG {
		o.Title, o.Desc = Title(p), Description(p, &o)
		res.svgBuf = buffers.Get().(*[]byte)
		if res.SVG, err = render.AppendSVG((*res.svgBuf)[:0], s, &o); err != nil {
			return nil, err
		}
	}
	if r.Format != api.FormatSVG {
		o.Title = ""
		res.pngBuf = buffers.Get().(*[]byte)
		if res.PNG, err = render.AppendPNG((*res.pngBuf)[:0], s, &o); err != nil {
			res.Release()
			return nil, err
		}
	}
	return res, nil
}

// Title returns the accessible name of a code's SVG and the /Title of its PDF: the payload itself
// when it is public, else only its type, so that a private payload never shows.
func Title(p payload.Payload) string {
	if p.Private {
		return "QR code (" + string(p.Type) + ")"
	}
	return "QR code: " + p.Text
}

// usage says, by payload type, what scanning a code does: the start of its SVG's description
// (the payment types: paying with a banking or wallet app).
var usage = map[payload.Type]string{
	payload.URL: phone + "open the link.", payload.WiFi: phone + "join the Wi-Fi network.", payload.VCard: phone + "save the contact.",
	payload.Email: phone + "write the e-mail.", payload.SMS: phone + "write the text message.", payload.Text: phone + "read the text.",
	payload.Tel: phone + "call the number.", payload.Geo: phone + "open the place on a map.", payload.Event: phone + "add the event to a calendar.",
}

// phone starts the usage of a code a phone's camera reads.
const phone = "Scan it with a phone's camera to "

// Description returns the accessible description of a code's SVG, its <desc>, for payload p drawn
// with o: how to use it, then the words drawn around it, whose outlines screen readers skip (the
// caption, and the destination of a public link). It never shows a private payload: the
// destination is printed, and so described, for public url codes only.
func Description(p payload.Payload, o *render.Options) string {
	d, ok := usage[p.Type]
	if !ok {
		d = "Scan it with a banking or wallet app to pay."
	}
	if o.Caption == "" && o.DestinationHost == "" {
		return d // no allocation: the common case
	}
	var b strings.Builder
	b.WriteString(d)
	if o.Caption != "" {
		b.WriteString(" Printed with it: " + o.Caption + ".")
	}
	if o.DestinationHost != "" {
		b.WriteString(" It leads to " + o.DestinationHost + o.DestinationPath + ".")
	}
	return b.String()
}

// warnings returns the warnings of a code of payload p made for r: the payload's, then the
// request's.
func warnings(p payload.Payload, r *api.Request) []api.Warning {
	style := StyleWarnings(r)
	if len(p.Warnings)+len(style) == 0 {
		return nil
	}
	w := make([]api.Warning, 0, len(p.Warnings)+len(style))
	for _, wn := range p.Warnings {
		w = append(w, api.Warning{Reason: string(wn.Reason), Field: wn.Field, Message: wn.Message})
	}
	return append(w, style...)
}
