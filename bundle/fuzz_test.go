package bundle_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/vera-run/vera/bundle"
)

// FuzzVerifyLock verifies a sealed bundle under arbitrary lock files. A
// lock is canonical, sorted and must list exactly the files present with
// their sizes and hashes and name the capability in capability.json, so
// exactly one lock verifies a given folder: Verify must succeed for the
// sealed lock's bytes and fail, with a report and without panicking, for
// every other input.
func FuzzVerifyLock(f *testing.F) {
	fx := validatedFixture(f)
	sealed := readFile(f, fx.dir, bundle.FileLock)
	f.Add(sealed)
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"schema":"browser-capability-lock/v1"}`))
	f.Add(append(bytes.Clone(sealed), ' '))
	f.Add(bytes.Replace(sealed, []byte(`"sha256"`), []byte(`"sha512"`), 1))
	f.Add(bytes.Replace(sealed, []byte(`"README.md"`), []byte(`"../README.md"`), 1))
	f.Add(bytes.Replace(sealed, []byte(`"README.md"`), []byte(`"bundle.lock.json"`), 1))
	f.Add([]byte(`{"algorithm":"sha256","algorithm":"sha256"}`))
	f.Add([]byte(`{"algorithm":"sha256","capability":{"execution_hash":"x","id":"a","version":"1"},"files":[{"path":"README.md","sha256":"sha256:00","size":-1}],"schema":"browser-capability-lock/v1"}`))
	dir := copyDir(f, fx.dir)
	lockPath := filepath.Join(dir, bundle.FileLock)
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, raw []byte) {
		if err := os.WriteFile(lockPath, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		rep, err := bundle.Verify(ctx, dir)
		if rep == nil {
			t.Fatal("nil report")
		}
		if bytes.Equal(raw, sealed) {
			if err != nil {
				t.Fatalf("the sealed lock does not verify: %v", err)
			}
			return
		}
		if err == nil {
			t.Fatalf("a lock other than the sealed one verifies: %q", raw)
		}
		if !errors.Is(err, bundle.ErrVerify) || rep.Err() == nil {
			t.Fatalf("error %v does not wrap ErrVerify", err)
		}
	})
}

// FuzzParseLock parses arbitrary lock documents: never a panic, and an
// accepted lock re-encodes to exactly its input.
func FuzzParseLock(f *testing.F) {
	fx := discoveredFixture(f)
	f.Add(readFile(f, fx.dir, bundle.FileLock))
	f.Add([]byte(`{"schema":"browser-capability-lock/v1","files":[]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		l, err := bundle.ParseLock(raw)
		if err != nil {
			if !errors.Is(err, bundle.ErrVerify) {
				t.Fatalf("error %v does not wrap ErrVerify", err)
			}
			return
		}
		b, merr := l.Marshal()
		if merr != nil || !bytes.Equal(b, raw) {
			t.Fatalf("accepted lock %q re-encodes to %q (%v)", raw, b, merr)
		}
		if err := bundle.CheckPaths(pathsOf(l)); err != nil {
			t.Fatalf("accepted lock with unsafe paths: %v", err)
		}
	})
}

func pathsOf(l *bundle.Lock) []string {
	var ps []string
	for _, f := range l.Files {
		ps = append(ps, f.Path)
	}
	return ps
}
