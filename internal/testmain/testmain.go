// Package testmain is the TestMain of the module's test binaries that
// start Chromium but have no browser fixtures of their own: a private
// TMPDIR for the binary (every browser profile lives under it), then a
// failure when a browser process, goroutine or temporary entry outlives
// the tests. It also sets the test ceiling of browser automation
// ([SetTestCeiling]: auto-grant for any executable and loopback). Only
// tests import it.
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
	SetTestCeiling()
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

// TestCeiling is the ceiling of every test binary that starts Chromium,
// as the environment variables [SetTestCeiling] sets: browser automation
// enabled, any executable (root "/"), any port of the three loopback
// hosts as CDP endpoint and as origin (http and https), no environment
// names, and auto-grant, so tests that launch or connect without an
// explicit grant get one derived per run, as an unattended trusted
// environment would. Tests of the refusals pass their own ceiling
// (browser.WithCeiling) or clear these variables.
func TestCeiling() map[string]string {
	loop := `["http://127.0.0.1:*","http://localhost:*","http://[::1]:*","https://127.0.0.1:*","https://localhost:*","https://[::1]:*"]`
	return map[string]string{
		"VERA_BROWSER_ENABLED":               "true",
		"VERA_BROWSER_EXECUTABLE_ROOTS_JSON": `["/"]`,
		"VERA_BROWSER_CDP_ENDPOINTS_JSON":    `["http://127.0.0.1:*","http://localhost:*","http://[::1]:*"]`,
		"VERA_BROWSER_ALLOWED_ORIGINS_JSON":  loop,
		"VERA_BROWSER_ALLOWED_ENV_JSON":      `["PORTAL_PASSWORD","PORTAL_SESSION"]`, // the portal tests' secrets (runtime/browser/secret_test.go)
		"VERA_BROWSER_AUTO_GRANT":            "true",
	}
}

// SetTestCeiling sets the [TestCeiling] environment variables that are
// not already set (a developer's own ceiling wins). Call it first in a
// TestMain; [Run] calls it.
func SetTestCeiling() {
	for k, v := range TestCeiling() {
		if _, ok := os.LookupEnv(k); !ok {
			os.Setenv(k, v)
		}
	}
}
