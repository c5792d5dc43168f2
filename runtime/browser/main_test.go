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

var (
	sharedOnce sync.Once
	sharedDrv  *Driver
	sharedErr  error
	sharedMu   sync.Mutex // tests using the shared driver run one at a time
)

// envDebugLog names a file that receives the shared driver's debug log.
const envDebugLog = "VERA_TEST_DEBUGLOG"

// shared returns a launched driver reused across tests (launching costs
// about a second); it is closed by TestMain. The caller holds it for the
// whole test.
func shared(t testing.TB) *Driver {
	t.Helper()
	requireBrowser(t)
	sharedOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var opts []Option
		if p := os.Getenv(envDebugLog); p != "" {
			// The shared driver's debug log (settle: lines and the
			// like), to diagnose a case that fails only under load.
			f, err := os.Create(p)
			if err != nil {
				sharedErr = fmt.Errorf("%s: %w", envDebugLog, err)
				return
			}
			opts = append(opts, WithLogger(slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelDebug}))))
		}
		sharedDrv, sharedErr = Launch(ctx, opts...)
	})
	if sharedErr != nil {
		t.Fatalf("Launch: %v", sharedErr)
	}
	sharedMu.Lock()
	t.Cleanup(func() {
		// Leave the page neutral for the next test.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if sharedDrv.gate != nil {
			_ = sharedDrv.gate.SetScope(nil)
		}
		sharedDrv.mu.Lock()
		sharedDrv.origins = nil
		var docs []*target
		for _, t := range sharedDrv.targets {
			docs = append(docs, t)
		}
		sharedDrv.mu.Unlock()
		for _, t := range docs {
			_ = sharedDrv.installPolicy(ctx, t, "") // no connect policy either
		}
		_ = sharedDrv.Navigate(ctx, "about:blank")
		_, _ = sharedDrv.Violations(ctx)
		sharedMu.Unlock()
	})
	return sharedDrv
}

func sharedClose() {
	if sharedDrv != nil {
		sharedDrv.Close()
	}
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
