package runtime_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// TestBadOptionValues: an option given a bad value makes Execute return
// ErrInvalidArgument naming the option, before the driver is touched.
func TestBadOptionValues(t *testing.T) {
	tests := []struct {
		name string
		opt  runtime.Option
	}{
		{"WithPollInterval", runtime.WithPollInterval(0)},
		{"WithPollInterval", runtime.WithPollInterval(-time.Millisecond)},
		{"WithPollInterval", runtime.WithPollInterval(runtime.MinPollInterval - 1)},
		{"WithPollInterval", runtime.WithPollInterval(runtime.MaxPollInterval + 1)},
		{"WithRunDir", runtime.WithRunDir("")},
		{"WithDownloadDirectory", runtime.WithDownloadDirectory("")},
		{"WithDownloadOptions", runtime.WithDownloadOptions(download.WithSettle(0))},
		{"WithDownloadOptions", runtime.WithDownloadOptions(download.WithMaxBytes(-1))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inner := runtimetest.NewDriver(tellerSite())
			defer inner.Close()
			d := &recordingDriver{inner: inner}
			res, err := runtime.Execute(t.Context(), loadCap(t, "teller.json"), tellerInputs, runtime.WithDriver(d), tt.opt)
			if !errors.Is(err, runtime.ErrInvalidArgument) || res != nil {
				t.Fatalf("Execute = %v, %v; want ErrInvalidArgument", res, err)
			}
			if !strings.Contains(err.Error(), tt.name) {
				t.Errorf("error %q does not name %s", err, tt.name)
			}
			if calls := d.Calls(); len(calls) != 0 {
				t.Errorf("driver called: %v", calls)
			}
		})
	}
}
