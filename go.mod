module github.com/bananaqr/bananaqr

go 1.26.0

require (
	github.com/makiuchi-d/gozxing v0.1.1
	golang.org/x/net v0.62.0
)

require (
	golang.org/x/text v0.43.0 // indirect
	golang.org/x/xerrors v0.0.0-20200804184101-5ec99f83aff1 // indirect
)
