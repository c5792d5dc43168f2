package download_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/download"
)

const guid = "0b7d4c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e"

func TestVerifyPath(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		guid    string
		setup   func(t *testing.T, dir string)
		browser func(dir string) error
		opts    []download.Option
		want    error
	}{
		{
			name:  "completed file",
			guid:  guid,
			setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, guid), payload) },
		},
		{
			name: "file appears shortly after the event",
			guid: guid,
			browser: func(dir string) error {
				pause()
				return os.WriteFile(filepath.Join(dir, guid), payload, 0o600)
			},
		},
		{
			name:  "other files in the folder do not matter",
			guid:  guid,
			setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "other"), []byte("x")) },
			browser: func(dir string) error {
				if err := os.WriteFile(filepath.Join(dir, "another"), []byte("y"), 0o600); err != nil {
					return err
				}
				return os.WriteFile(filepath.Join(dir, guid), payload, 0o600)
			},
		},
		{
			name: "symlink named by the GUID",
			guid: guid,
			setup: func(t *testing.T, dir string) {
				write(t, filepath.Join(dir, "real"), payload)
				if err := os.Symlink("real", filepath.Join(dir, guid)); err != nil {
					t.Fatal(err)
				}
			},
			want: download.ErrNotRegular,
		},
		{
			name:  "directory named by the GUID",
			guid:  guid,
			setup: func(t *testing.T, dir string) { mkdir(t, filepath.Join(dir, guid)) },
			want:  download.ErrNotRegular,
		},
		{
			name: "missing",
			guid: guid,
			opts: []download.Option{download.WithTimeout(100 * time.Millisecond)},
			want: download.ErrTimeout,
		},
		{
			name: "never settles",
			guid: guid,
			// The file grows every few milliseconds for longer than the
			// timeout; the settle window (500 ms) is far above any pause
			// a loaded scheduler gives the writer, so the file is never
			// unchanged for a whole window.
			browser: func(dir string) error {
				f, err := os.Create(filepath.Join(dir, guid))
				if err != nil {
					return err
				}
				defer f.Close()
				for end := time.Now().Add(2500 * time.Millisecond); time.Now().Before(end); {
					if _, err := f.Write([]byte("more")); err != nil {
						return err
					}
					time.Sleep(5 * time.Millisecond)
				}
				return nil
			},
			opts: []download.Option{download.WithSettle(500 * time.Millisecond), download.WithTimeout(1500 * time.Millisecond)},
			want: download.ErrTimeout,
		},
		{name: "empty GUID", guid: "", want: download.ErrInvalidRequest},
		{name: "traversal GUID", guid: "../" + guid, want: download.ErrInvalidRequest},
		{name: "nested GUID", guid: "a/b", want: download.ErrInvalidRequest},
		{name: "hidden GUID", guid: ".vera-download", want: download.ErrInvalidRequest},
		{name: "dot-dot GUID", guid: "..", want: download.ErrInvalidRequest},
		{name: "long GUID", guid: strings.Repeat("a", download.MaxGUIDLength+1), want: download.ErrInvalidRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			errc := make(chan error, 1)
			go func() {
				if tc.browser == nil {
					errc <- nil
					return
				}
				errc <- tc.browser(dir)
			}()
			f, err := download.VerifyPath(t.Context(), dir, tc.guid, fast(tc.opts...)...)
			if berr := <-errc; berr != nil {
				t.Fatal(berr)
			}
			if tc.want != nil {
				if !errors.Is(err, tc.want) {
					t.Fatalf("err = %v (%s), want %v", err, detail(err), tc.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("VerifyPath: %v (%s)", err, detail(err))
			}
			if f.Path != filepath.Join(dir, tc.guid) || f.SHA256 != digest(payload) || f.Size != int64(len(payload)) {
				t.Errorf("file = %+v", f)
			}
			if f.Mechanism != download.MechanismBrowserPath || f.Evidence != download.EvidenceBrowserPathBytes {
				t.Errorf("mechanism/evidence = %q/%q", f.Mechanism, f.Evidence)
			}
		})
	}
}

func TestVerifyPathFolder(t *testing.T) {
	t.Parallel()
	if _, err := download.VerifyPath(t.Context(), "", guid); !errors.Is(err, download.ErrInvalidRequest) {
		t.Errorf("empty dir: %v", err)
	}
	missing := filepath.Join(t.TempDir(), "missing")
	if _, err := download.VerifyPath(t.Context(), missing, guid); !errors.Is(err, download.ErrFolderUnavailable) {
		t.Errorf("missing dir: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "d")
	mkdir(t, dir)
	errc := make(chan error, 1)
	go func() { pause(); errc <- os.RemoveAll(dir) }()
	_, err := download.VerifyPath(t.Context(), dir, guid, fast()...)
	if rerr := <-errc; rerr != nil {
		t.Fatal(rerr)
	}
	if !errors.Is(err, download.ErrFolderUnavailable) {
		t.Errorf("removed dir: %v", err)
	}
}

func TestVerifyPathUnstable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, guid), payload)
	hook := download.WithAfterHashForTest(func(p string) { _ = os.WriteFile(p, []byte("swapped"), 0o600) })
	if _, err := download.VerifyPath(t.Context(), dir, guid, fast(hook)...); !errors.Is(err, download.ErrUnstable) {
		t.Fatalf("err = %v", err)
	}
}
