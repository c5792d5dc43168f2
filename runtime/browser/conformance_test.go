package browser

import (
	"testing"

	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// TestConformanceLaunch holds a launched browser to the Driver contract.
func TestConformanceLaunch(t *testing.T) {
	t.Parallel()
	requireBrowser(t)
	if testing.Short() {
		t.Skip("launches one browser per subtest; skipped in -short mode (TestConformanceConnect covers the same driver code)")
	}
	runtimetest.TestDriver(t, func(t *testing.T, _ *runtimetest.Site) runtime.Driver {
		d, err := Launch(t.Context())
		if err != nil {
			t.Fatalf("Launch: %v", err)
		}
		return d
	})
}

// TestConformanceConnect holds a connected browser to the Driver contract;
// every subtest connects to the same external browser, which must survive
// every Close.
func TestConformanceConnect(t *testing.T) {
	t.Parallel()
	ext := startExternal(t)
	runtimetest.TestDriver(t, func(t *testing.T, _ *runtimetest.Site) runtime.Driver {
		// A headless stand-in cancels downloads by default; a folder for the
		// driver's own context makes the Download subtest meaningful.
		d, err := Connect(t.Context(), ext.endpoint, WithDownloadDirectory(t.TempDir()))
		if err != nil {
			t.Fatalf("Connect: %v", err)
		}
		return d
	})
	if !ext.alive(t) {
		t.Fatal("the external browser did not survive the suite")
	}
}
