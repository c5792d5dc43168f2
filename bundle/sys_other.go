//go:build !unix

package bundle

// openReadFlags are added to O_RDONLY when opening a file to read.
const openReadFlags = 0
