// Package apiscan lists the exported API of a Go package directory, one
// line per identifier, in the manner of Go's own api/*.txt files: every
// exported constant, variable, function, type, method of an exported type,
// field of an exported struct and method of an exported interface. The
// listing is built from the syntax tree alone (no type checking), so it is
// fast and sees exactly what a reader of the source sees.
//
// The module's api/ folder holds one listing per public package; the root
// package's TestAPI fails when a listing no longer matches the code, so the
// public API changes only on purpose (regenerate with
// `go test -run TestAPI . -update`). The identifier count a review quotes
// is the number of lines over all listings (`go run ./internal/apiscan/apicount`).
package apiscan
