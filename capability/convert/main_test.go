package convert

import (
	"fmt"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/vera-run/vera/internal/chromeproc"
)

// TestMain gives the binary a private TMPDIR (every browser profile lives
// under it) and fails when a browser process, goroutine or temporary entry
// outlives the tests.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "vconv-")
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
	if ents, _ := os.ReadDir(dir); len(ents) > 0 {
		for _, e := range ents {
			fmt.Fprintln(os.Stderr, "left in TMPDIR:", e.Name())
		}
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}
