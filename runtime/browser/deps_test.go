package browser

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoBrowserDownloadMachinery: a program that imports runtime/browser
// links none of go-rod's launcher, its download code (fetchup) or its
// embedded "leakless" helper binaries.
func TestNoBrowserDownloadMachinery(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(gobin, "list", "-deps", "github.com/vera-run/vera/runtime/browser").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "leakless") || strings.Contains(dep, "fetchup") || strings.HasSuffix(dep, "rod/lib/launcher") {
			t.Errorf("runtime/browser links %s", dep)
		}
	}
}
