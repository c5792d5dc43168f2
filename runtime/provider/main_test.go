package provider

import (
	"os"
	"testing"

	"github.com/vera-run/vera/internal/testmain"
)

// TestMain gives the binary a private TMPDIR (every browser profile lives
// under it) and fails when a browser process, goroutine or temporary entry
// outlives the tests (internal/testmain).
func TestMain(m *testing.M) { os.Exit(testmain.Run(m, "vpt-")) }
