module github.com/bananaqr/bananaqr

go 1.26
