package exampletest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/internal/livetest"
	"github.com/vera-run/vera/internal/testmain"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
)

// Main runs m with a private TMPDIR and checks what survived; call it from
// TestMain. It does not return.
func Main(m *testing.M) {
	dir, err := os.MkdirTemp("", "vex-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("TMPDIR", dir)
	testmain.SetTestCeiling()
	code := m.Run()
	// Processes get a moment to be reaped after a Close that already
	// waited for the browser.
	deadline := time.Now().Add(3 * time.Second)
	n := chromeproc.CountProcesses(dir)
	for n > 0 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
		n = chromeproc.CountProcesses(dir)
	}
	if n > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d browser processes started by the tests are still running\n", n)
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
	if n > 0 {
		killLeftovers(dir)
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// killLeftovers kills the processes naming dir until none is left (three
// tries), so a failed run does not leave browsers behind.
func killLeftovers(dir string) {
	for range 3 {
		if chromeproc.KillProcesses(dir) == 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// RequireBrowser returns the browser executable the examples will find
// (explicit VERA_BROWSER, else the usual install locations), or skips the
// test when there is none, failing it instead under VERA_REQUIRE_BROWSER=1
// (livetest.RequireBrowser, the module's one rule).
func RequireBrowser(t testing.TB) string {
	t.Helper()
	return livetest.RequireBrowser(t)
}

// RunFunc is an example's entry point: run(ctx, args, stdout).
type RunFunc func(ctx context.Context, args []string, stdout io.Writer) error

// CheckNoBrowser runs the example with a -browser path that does not
// exist and checks that it fails with runtime.ErrBrowserUnavailable naming
// what to install (browser.InstallHint) and leaves no vera- folder behind
// in the test's TMPDIR.
func CheckNoBrowser(t *testing.T, run RunFunc) {
	t.Helper()
	var out bytes.Buffer
	err := run(context.Background(), []string{"-browser", filepath.Join(t.TempDir(), "no-chrome")}, &out)
	if !errors.Is(err, runtime.ErrBrowserUnavailable) || !strings.Contains(err.Error(), browser.InstallHint) {
		t.Fatalf("run = %v, want ErrBrowserUnavailable naming what to install", err)
	}
	ents, _ := os.ReadDir(os.TempDir())
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "vera-") {
			t.Errorf("left %s behind", e.Name())
		}
	}
}
