package download_test

import (
	"context"
	"errors"
	"testing"

	"github.com/vera-run/vera/download"
)

// TestNilArguments: a nil context or Watch is ErrInvalidRequest, never a
// panic.
func TestNilArguments(t *testing.T) {
	var nilCtx context.Context
	dir := t.TempDir()
	tests := []struct {
		name string
		call func() error
	}{
		{"Begin(nil ctx)", func() error { _, err := download.Begin(nilCtx, dir); return err }},
		{"VerifyPath(nil ctx)", func() error {
			_, err := download.VerifyPath(nilCtx, dir, "0f2b5c2e-1a3d-4b5e-8f60-7a8b9c0d1e2f")
			return err
		}},
		{"Watch.Wait(nil ctx)", func() error {
			w, err := download.Begin(context.Background(), dir, download.WithLogger(nil))
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			_, err = w.Wait(nilCtx)
			return err
		}},
		{"nil Watch", func() error { var w *download.Watch; _, err := w.Wait(context.Background()); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.call(); !errors.Is(err, download.ErrInvalidRequest) {
				t.Errorf("err = %v, want ErrInvalidRequest", err)
			}
		})
	}
}
