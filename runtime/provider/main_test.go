package provider

import (
	"fmt"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/vera-run/vera/internal/chromeproc"
)

// TestMain runs the tests with a private TMPDIR, so every browser profile
// the Chromium tests launch lives under it, and then proves no browser
// process, goroutine or temporary entry survived.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "vpt-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("TMPDIR", dir)
	code := m.Run()
	deadline := time.Now().Add(3 * time.Second)
	n := chromeproc.CountProcesses(dir)
	for n > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond) // polling the process table; no event exists for it
		n = chromeproc.CountProcesses(dir)
	}
	if n > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d browser processes started by the tests are still running\n", n)
		chromeproc.KillProcesses(dir)
		code = 1
	}
	if err := goleak.Find(); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: goroutine leak:", err)
		code = 1
	}
	if ents, _ := os.ReadDir(dir); len(ents) > 0 && code == 0 {
		for _, e := range ents {
			fmt.Fprintln(os.Stderr, "left in TMPDIR:", e.Name())
		}
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}
