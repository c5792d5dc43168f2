package bundle_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/vera-run/vera/bundle"
)

// TestNilArguments: a nil context, capability, lock or option gives a
// typed error (or a documented zero value), never a panic, and a refused
// Seal leaves nothing at the destination.
func TestNilArguments(t *testing.T) {
	var nilCtx context.Context
	f := validatedFixture(t)
	dst := filepath.Join(t.TempDir(), "out")
	tests := []struct {
		name string
		call func() error
		want []error
		not  error
	}{
		{"Seal(nil ctx)", func() error {
			_, err := bundle.Seal(nilCtx, dst, f.validated, f.runs)
			return err
		}, []error{bundle.ErrSeal, bundle.ErrInvalidArgument}, nil},
		{"Seal(nil capability)", func() error {
			_, err := bundle.Seal(context.Background(), dst, nil, nil)
			return err
		}, []error{bundle.ErrSeal, bundle.ErrCapability}, nil},
		{"Verify(nil ctx)", func() error {
			rep, err := bundle.Verify(nilCtx, f.dir)
			if rep == nil || rep.Dir != f.dir {
				t.Errorf("report %+v", rep)
			}
			return err
		}, []error{bundle.ErrInvalidArgument}, bundle.ErrVerify},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			for _, w := range tt.want {
				if !errors.Is(err, w) {
					t.Errorf("err = %v, want %v", err, w)
				}
			}
			if tt.not != nil && errors.Is(err, tt.not) {
				t.Errorf("err = %v also matches %v", err, tt.not)
			}
		})
	}
	if _, err := os.Lstat(dst); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused Seal left %s: %v", dst, err)
	}
	var l *bundle.Lock
	if _, ok := l.File("capability.json"); ok {
		t.Error("nil Lock has a file")
	}
	if rep, err := bundle.Verify(context.Background(), f.dir, nil, bundle.WithLogger(nil)); err != nil || rep == nil {
		t.Errorf("nil options: %v", err)
	}
}
