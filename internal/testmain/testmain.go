// Package testmain is the TestMain of the module's test binaries that
// start Chromium but have no browser fixtures of their own: a private
// TMPDIR for the binary (every browser profile lives under it), then a
// failure when a browser process, goroutine or temporary entry outlives
// the tests. Only tests import it.
package testmain

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/vera-run/vera/internal/chromeproc"
)

// Run runs m with TMPDIR set to a new folder named prefix+random and
// returns the exit code: m's, or 1 when something outlived the tests. A
// setup failure exits 2.
func Run(m *testing.M, prefix string) int {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("TMPDIR", dir)
	code := m.Run()
	deadline := time.Now().Add(3 * time.Second)
	n := chromeproc.CountProcesses(dir)
	for n > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond) // polling the process table: processes are reaped by the OS, there is no event to wait on
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
	for _, e := range leftovers(dir, prefix) {
		fmt.Fprintln(os.Stderr, "left in TMPDIR:", e)
		code = 1
	}
	os.RemoveAll(dir)
	return code
}

// leftovers lists the entries of dir, except the private TMPDIRs of fuzz
// workers (child processes of the binary that run its TestMain and are
// stopped by the fuzzing engine before they can remove theirs; the
// RemoveAll of dir removes them).
func leftovers(dir, prefix string) []string {
	var out []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), prefix) {
			out = append(out, e.Name())
		}
	}
	return out
}
