//go:build unix

package safefs_test

import (
	"syscall"
	"testing"
)

// withUmask sets the process umask for the rest of the test. Tests using it
// must not run in parallel.
func withUmask(t *testing.T, mask int) {
	t.Helper()
	old := syscall.Umask(mask)
	t.Cleanup(func() { syscall.Umask(old) })
}
