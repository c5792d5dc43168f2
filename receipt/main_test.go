package receipt_test

import (
	"bytes"
	"fmt"
	"github.com/vera-run/vera/internal/testmain"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"
)

// TestMain gives the test binary a private TMPDIR, so every browser
// profile the canary test launches lives under it, and fails the run if a
// process naming that directory (a browser) or a goroutine outlives the
// tests.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "vera-receipt-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("TMPDIR", dir)
	testmain.SetTestCeiling()
	code := m.Run()
	deadline := time.Now().Add(5 * time.Second)
	for n := processesNaming(dir); n > 0; n = processesNaming(dir) {
		if time.Now().After(deadline) {
			fmt.Fprintf(os.Stderr, "FAIL: %d browser processes started by the tests are still running\n", n)
			code = 1
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := goleak.Find(); err != nil && code == 0 {
		fmt.Fprintln(os.Stderr, "FAIL: goroutine leak:", err)
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// processesNaming counts the processes whose command line mentions marker
// (Linux /proc only; elsewhere it reports none).
func processesNaming(marker string) int {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	n := 0
	self := fmt.Sprintf("/proc/%d/cmdline", os.Getpid())
	for _, p := range procs {
		if p == self {
			continue
		}
		b, err := os.ReadFile(p)
		if err == nil && bytes.Contains(b, []byte(marker)) {
			n++
		}
	}
	return n
}
