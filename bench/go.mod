module github.com/bananaqr/bananaqr/bench

go 1.26.0

require (
	github.com/bananaqr/bananaqr v0.0.0
	github.com/boombuler/barcode v1.1.0
	github.com/skip2/go-qrcode v0.0.0-20200617195104-da1b6568686e
	github.com/yeqown/go-qrcode/v2 v2.2.5
	rsc.io/qr v0.2.0
)

require (
	github.com/yeqown/reedsolomon v1.0.0 // indirect
	golang.org/x/image v0.47.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/text v0.44.0 // indirect
)

replace github.com/bananaqr/bananaqr => ../
