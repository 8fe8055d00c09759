module pngproto

go 1.26
