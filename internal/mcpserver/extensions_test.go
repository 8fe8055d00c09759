package mcpserver_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/bananaqr/bananaqr/internal/mcpserver"
	"github.com/bananaqr/bananaqr/internal/mcptest"
)

// TestCallExtensions: generate_qr makes codes of the bananaqr extension types (tel, geo, event,
// epc and the payment types), the numbers given as JSON numbers, reads each back, and repeats
// nothing private.
func TestCallExtensions(t *testing.T) {
	f := &fakes{admit: true}
	cs := session(t, f.config(), edge("198.51.100.3", "https://qr.example.com"))
	for _, c := range []struct{ args, payload, secret string }{
		{`{"type":"tel","phone":"+44 20 7946 0000"}`, "tel:+442079460000", "7946"},
		{`{"type":"geo","latitude":48.8582,"longitude":2.2945,"altitude":35}`, "geo:48.8582,2.2945,35", "48.8582"},
		{`{"type":"event","summary":"Launch","start":"2026-12-24"}`, "BEGIN:VEVENT\r\nSUMMARY:Launch\r\nDTSTART;VALUE=DATE:20261224\r\nEND:VEVENT\r\n", "Launch"},
		{`{"type":"epc","name":"Anna Example","iban":"DE89 3704 0044 0532 0130 00","amount":12.30,"remittance":"Invoice 7"}`,
			"BCD\n002\n1\nSCT\n\nAnna Example\nDE89370400440532013000\nEUR12.3\n\n\nInvoice 7", "DE89"},
		{`{"type":"swissqr","iban":"CH 53 8000 5000 0102 83664","name":"Jane","postalCode":"1000","city":"Lausanne","country":"CH","currency":"CHF"}`,
			"SPC\r\n0200\r\n1\r\nCH5380005000010283664\r\nS\r\nJane\r\n\r\n\r\n1000\r\nLausanne\r\nCH\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\nCHF\r\n\r\n\r\n\r\n\r\n\r\n\r\n\r\nNON\r\n\r\n\r\nEPD", "Lausanne"},
		{`{"type":"emvco","scheme":"pix","key":"123e4567-e12b-12d1-a456-426655440000","name":"Fulano de Tal","city":"BRASILIA"}`,
			"00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D", "Fulano"},
		{`{"type":"upi","vpa":"nadeem@npci","name":"nadeem chinna","amount":10}`, "upi://pay?pa=nadeem@npci&pn=nadeem%20chinna&am=10&cu=INR", "nadeem"},
		{`{"type":"spayd","iban":"CZ2806000000000168540115","amount":450.00,"currency":"CZK","variableSymbol":"1234567890"}`,
			"SPD*1.0*ACC:CZ2806000000000168540115*AM:450.00*CC:CZK*X-VS:1234567890", "0168540115"},
		{`{"type":"bitcoin","address":"1andreas3batLhQa2FawWjeyjCqyBzypd","amount":0.0005}`, "bitcoin:1andreas3batLhQa2FawWjeyjCqyBzypd?amount=0.0005", "1andreas"},
	} {
		res := mcptest.CallTool(t, cs, mcpserver.ToolName, json.RawMessage(c.args))
		if _, text := mcptest.ImagePNG(t, res); text != c.payload {
			t.Errorf("%s: the PNG reads %q, want %q", c.args, text, c.payload)
		}
		if len(res.Content) != 1 {
			t.Errorf("%s: %d content blocks", c.args, len(res.Content))
		}
		if b, _ := json.Marshal(res); bytes.Contains(b, []byte(c.secret)) || bytes.Contains(b, []byte("qr.example.com")) {
			t.Errorf("%s: the answer shows the payload or a link: %.200s", c.args, b)
		}
	}
}

// TestCallCaption: generate_qr takes the words' fields; the code with them reads back, and a
// caption the font cannot draw is a tool error naming the field.
func TestCallCaption(t *testing.T) {
	f := &fakes{admit: true}
	cs := session(t, f.config(), edge("198.51.100.3", "https://qr.example.com"))
	res := mcptest.CallTool(t, cs, mcpserver.ToolName, json.RawMessage(`{"type":"url","url":"https://example.com/menu","caption":"Scan for the menu","caption_position":"above","show_destination":true}`))
	if _, text := mcptest.ImagePNG(t, res); text != "https://example.com/menu" {
		t.Errorf("the PNG reads %q", text)
	}
	res = mcptest.CallTool(t, cs, mcpserver.ToolName, json.RawMessage(`{"type":"text","text":"hi","caption":"扫码"}`))
	if b, _ := json.Marshal(res); !res.IsError || !bytes.Contains(b, []byte("INVALID_CAPTION")) {
		t.Errorf("a caption of Han characters: %.300s", b)
	}
}
