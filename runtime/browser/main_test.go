package browser

import (
	"context"
	"fmt"
	"github.com/vera-run/vera/internal/testmain"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/internal/testsite"
)

// testTmp is a private TMPDIR for the whole test binary: every profile a
// test launches lives under it, so TestMain can prove no browser process
// survived by looking for it in every process's command line.
var testTmp string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "vbt-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	testTmp = dir
	os.Setenv("TMPDIR", dir)
	testmain.SetTestCeiling()
	baseline := goleak.IgnoreCurrent()
	code := m.Run()
	sharedClose()
	if n := countMarked(dir, 3*time.Second); n > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d browser processes started by the tests are still running\n", n)
		chromeproc.KillProcesses(dir)
		code = 1
	}
	if err := goleak.Find(baseline); err != nil && code == 0 {
		fmt.Fprintln(os.Stderr, "FAIL: goroutine leak:", err)
		code = 1
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 && code == 0 {
		for _, e := range entries {
			fmt.Fprintln(os.Stderr, "left:", e.Name())
		}
		fmt.Fprintf(os.Stderr, "FAIL: %d temporary entries left in %s\n", len(entries), dir)
		code = 1
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// countMarked waits up to d for processes naming marker to disappear and
// returns how many remain.
func countMarked(marker string, d time.Duration) int {
	deadline := time.Now().Add(d)
	for {
		n := countByPathMarker(marker)
		if n == 0 || time.Now().After(deadline) {
			return n
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// requireBrowser returns the browser to test with, or skips.
func requireBrowser(t testing.TB) string {
	t.Helper()
	p, err := findBrowser(context.Background(), buildOptions(nil))
	if err != nil {
		if os.Getenv("VERA_REQUIRE_BROWSER") == "1" {
			t.Fatalf("VERA_REQUIRE_BROWSER=1 but no browser: %v", err)
		}
		t.Skipf("no Chrome/Chromium found (%v); set VERA_REQUIRE_BROWSER=1 to make this a failure", err)
	}
	return p
}

// The shared drivers: a pool of launched drivers reused across tests
// (launching costs about a second), closed by TestMain. A test holds one
// for its whole length and no other test uses it meanwhile; the pool
// grows to as many drivers as tests hold at once (top-level tests that
// take one run with t.Parallel, so at most -parallel of them).
var (
	sharedMu   sync.Mutex
	sharedFree []*Driver // idle
	sharedAll  []*Driver // every one launched, for sharedClose
	sharedLog  *slog.Logger
	sharedErr  error // the debug log could not be opened
	sharedInit sync.Once
)

// envDebugLog names a file that receives the shared drivers' debug log.
const envDebugLog = "VERA_TEST_DEBUGLOG"

// shared returns a launched driver from the pool, held by the caller for
// the whole test and handed back, its page left neutral, when the test
// ends. A test calls it once (in the test or in each of its subtests).
func shared(t testing.TB) *Driver {
	t.Helper()
	requireBrowser(t)
	sharedInit.Do(func() {
		if p := os.Getenv(envDebugLog); p != "" {
			// The shared drivers' debug log (settle: lines and the
			// like), to diagnose a case that fails only under load.
			f, err := os.Create(p)
			if err != nil {
				sharedErr = fmt.Errorf("%s: %w", envDebugLog, err)
				return
			}
			sharedLog = slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug}))
		}
	})
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	sharedMu.Lock()
	var d *Driver
	if n := len(sharedFree); n > 0 {
		d, sharedFree = sharedFree[n-1], sharedFree[:n-1]
	}
	sharedMu.Unlock()
	if d == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var opts []Option
		if sharedLog != nil {
			opts = append(opts, WithLogger(sharedLog))
		}
		var err error
		if d, err = Launch(ctx, opts...); err != nil {
			t.Fatalf("Launch: %v", err)
		}
		sharedMu.Lock()
		sharedAll = append(sharedAll, d)
		sharedMu.Unlock()
	}
	t.Cleanup(func() {
		// Leave the page neutral for the next test.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if d.gate != nil {
			_ = d.gate.SetScope(nil)
		}
		d.mu.Lock()
		d.origins = nil
		var docs []*target
		for _, t := range d.targets {
			docs = append(docs, t)
		}
		d.mu.Unlock()
		for _, t := range docs {
			_ = d.installPolicy(ctx, t, "") // no connect policy either
		}
		_ = d.Navigate(ctx, "about:blank")
		_, _ = d.Violations(ctx)
		d.mu.Lock()
		broken := d.closed || d.closing || d.crashErr != nil
		d.mu.Unlock()
		sharedMu.Lock()
		defer sharedMu.Unlock()
		if broken {
			// Closed or crashed by the test: the next test launches
			// another (sharedClose still closes this one).
			return
		}
		sharedFree = append(sharedFree, d)
	})
	return d
}

func sharedClose() {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	for _, d := range sharedAll {
		d.Close()
	}
	sharedAll, sharedFree = nil, nil
}

// sites starts the synthetic apps for one test, so hit counters are the
// test's own.
func sites(t testing.TB) *testsite.Sites {
	t.Helper()
	s, err := testsite.Start()
	if err != nil {
		t.Fatalf("testsite: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

func tctx(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
