module pixcmp

go 1.26
