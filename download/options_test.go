package download_test

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/download"
)

// TestBadOptionValues: an option given a bad value fails the call with
// ReasonInvalidRequest naming the option, before the folder is touched.
func TestBadOptionValues(t *testing.T) {
	tests := []struct {
		name string
		opt  download.Option
	}{
		{"WithSettle", download.WithSettle(0)},
		{"WithSettle", download.WithSettle(-time.Second)},
		{"WithTimeout", download.WithTimeout(0)},
		{"WithPollInterval", download.WithPollInterval(0)},
		{"WithPollInterval", download.WithPollInterval(download.MinPollInterval - 1)},
		{"WithPollInterval", download.WithPollInterval(download.MaxPollInterval + 1)},
		{"WithLockTimeout", download.WithLockTimeout(-1)},
		{"WithMaxBytes", download.WithMaxBytes(0)},
		{"WithMaxBytes", download.WithMaxBytes(download.MaxSafeBytes + 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, call := range []func() error{
				func() error { _, err := download.Begin(t.Context(), dir, tt.opt); return err },
				func() error { _, err := download.VerifyPath(t.Context(), dir, "abc", tt.opt); return err },
				func() error { return download.CheckOptions(download.WithSettle(time.Second), tt.opt) },
			} {
				err := call()
				var de *download.Error
				if !errors.As(err, &de) || de.Reason != download.ReasonInvalidRequest {
					t.Fatalf("err = %v, want ReasonInvalidRequest", err)
				}
				if got := de.Detail(); !strings.Contains(got, tt.name) {
					t.Errorf("error %q does not name %s", got, tt.name)
				}
			}
			// Nothing was created in the folder (no lock file).
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("folder touched: %v", ents)
			}
		})
	}
	// In-range values are accepted.
	if err := download.CheckOptions(download.WithPollInterval(download.MaxPollInterval), nil); err != nil {
		t.Errorf("CheckOptions: %v", err)
	}
	w, err := download.Begin(t.Context(), t.TempDir(), download.WithPollInterval(download.MinPollInterval),
		download.WithMaxBytes(download.MaxSafeBytes), download.WithSettle(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
}
