package runtimetest

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a test leaves a goroutine behind (the
// fake starts none; Serve's servers close in t.Cleanup).
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
