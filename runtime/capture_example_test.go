package runtime_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// ExampleWithCapture records the page after the start navigation and
// after each action, then compares two runs with their captures. The
// fake driver renders no pixels and has no accessibility tree, so this
// policy asks for the DOM and events only.
func ExampleWithCapture() {
	c, _ := capability.ParseBytes([]byte(exampleCapability))
	runs, _ := os.MkdirTemp("", "vera-example-")
	defer os.RemoveAll(runs)
	d := runtimetest.NewDriver(exampleSite())
	defer d.Close()
	pol := runtime.CapturePolicy{DOM: true, Events: true}

	var rs [2]*receipt.RunFiles
	for i := range rs {
		res, err := runtime.Execute(context.Background(), c, map[string]any{"member_id": "42"},
			runtime.WithDriver(d), runtime.WithRunDir(runs), runtime.WithCapture(pol))
		if err != nil {
			fmt.Println(err)
			return
		}
		rs[i], _ = receipt.Load(context.Background(), res.RunDir)
		_, err = os.Stat(filepath.Join(res.RunDir, receipt.FileCapture))
		fmt.Println(res.State, len(rs[i].Capture.Steps), rs[i].Capture.Eligible, err == nil)
	}
	cmp, _ := receipt.Compare(rs[0].Receipt, rs[1].Receipt, receipt.WithCaptures(rs[0].Capture, rs[1].Capture))
	fmt.Println(cmp.Verdict, cmp.Totals.StepsUnchanged)
	// Output:
	// completed 3 true true
	// completed 3 true true
	// unchanged 3
}
