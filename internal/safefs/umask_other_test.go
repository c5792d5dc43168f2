//go:build !unix

package safefs_test

import "testing"

func withUmask(t *testing.T, mask int) { t.Helper() }
