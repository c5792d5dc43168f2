package download_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vera-run/vera/download"
)

func TestReasons(t *testing.T) {
	t.Parallel()
	sentinels := map[download.Reason]error{
		download.ReasonEventMissing:      download.ErrEventMissing,
		download.ReasonTimeout:           download.ErrTimeout,
		download.ReasonAmbiguous:         download.ErrAmbiguous,
		download.ReasonOverwrite:         download.ErrOverwrite,
		download.ReasonConcurrentArrival: download.ErrConcurrentArrival,
		download.ReasonFolderUnavailable: download.ErrFolderUnavailable,
		download.ReasonCanceled:          download.ErrCanceled,
		download.ReasonNotRegular:        download.ErrNotRegular,
		download.ReasonUnstable:          download.ErrUnstable,
		download.ReasonLocked:            download.ErrLocked,
		download.ReasonTooLarge:          download.ErrTooLarge,
		download.ReasonInterrupted:       download.ErrInterrupted,
		download.ReasonInvalidRequest:    download.ErrInvalidRequest,
	}
	rs := download.Reasons()
	if len(rs) != len(sentinels) {
		t.Fatalf("Reasons() has %d codes, sentinels %d", len(rs), len(sentinels))
	}
	seen := map[download.Reason]bool{}
	for _, r := range rs {
		if seen[r] {
			t.Errorf("duplicate reason %q", r)
		}
		seen[r] = true
		if !r.Valid() {
			t.Errorf("%q not Valid", r)
		}
		if !strings.HasPrefix(string(r), "download_") || strings.ToLower(string(r)) != string(r) {
			t.Errorf("%q is not a lowercase download_ code", r)
		}
		s, ok := sentinels[r]
		if !ok {
			t.Fatalf("no sentinel for %q", r)
		}
		err := fmt.Errorf("wrapped: %w", &download.Error{Reason: r, Op: "wait", Err: errors.New("/home/u/Downloads/x.csv")})
		if !errors.Is(err, s) {
			t.Errorf("errors.Is(%q error, sentinel) = false", r)
		}
		if download.ReasonOf(err) != r {
			t.Errorf("ReasonOf = %q, want %q", download.ReasonOf(err), r)
		}
		for other, os := range sentinels {
			if other != r && errors.Is(err, os) {
				t.Errorf("%q error matches %q sentinel", r, other)
			}
		}
	}
	rs[0] = "mutated"
	if download.Reasons()[0] == "mutated" {
		t.Error("Reasons() exposes its backing array")
	}
	for _, bad := range []download.Reason{"", "timeout", "download_", "DOWNLOAD_TIMEOUT"} {
		if bad.Valid() {
			t.Errorf("%q Valid", bad)
		}
	}
}

func TestErrorFormatting(t *testing.T) {
	t.Parallel()
	e := &download.Error{Reason: download.ReasonTimeout, Op: "wait", Err: context.DeadlineExceeded}
	if got := e.Error(); got != "download: wait: download_timeout" {
		t.Errorf("Error() = %q", got)
	}
	if got := e.Detail(); got != "download: wait: download_timeout: context deadline exceeded" {
		t.Errorf("Detail() = %q", got)
	}
	if !errors.Is(e, context.DeadlineExceeded) {
		t.Error("Unwrap lost the detail")
	}
	if got := download.ErrTimeout.Error(); got != "download: download_timeout" {
		t.Errorf("sentinel Error() = %q", got)
	}
	if errors.Is(e, &download.Error{Reason: download.ReasonTimeout, Op: "hash"}) {
		t.Error("Is matched a different Op")
	}
	if download.ReasonOf(nil) != "" || download.ReasonOf(errors.New("x")) != "" {
		t.Error("ReasonOf of a foreign error is not empty")
	}
}
