package download_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/download"
)

// fast options keep the table quick while exercising the same code paths as
// the defaults.
func fast(extra ...download.Option) []download.Option {
	return append([]download.Option{
		download.WithPollInterval(5 * time.Millisecond),
		download.WithSettle(60 * time.Millisecond),
		download.WithTimeout(5 * time.Second),
		// Format every debug record so logging paths are exercised.
		download.WithLogger(slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelDebug}))),
	}, extra...)
}

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

func write(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func pause() { time.Sleep(15 * time.Millisecond) }

// chrome simulates Chromium: "Unconfirmed NNN.crdownload", renamed to
// "<name>.crdownload" once the target is known, renamed to name on completion.
func chrome(dir, name string, data []byte) error {
	unconfirmed := filepath.Join(dir, "Unconfirmed 482913.crdownload")
	half := len(data) / 2
	if err := os.WriteFile(unconfirmed, data[:half], 0o600); err != nil {
		return err
	}
	pause()
	named := filepath.Join(dir, name+".crdownload")
	if err := os.Rename(unconfirmed, named); err != nil {
		return err
	}
	f, err := os.OpenFile(named, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(data[half:]); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	pause()
	return os.Rename(named, filepath.Join(dir, name))
}

// firefox simulates Firefox: an empty placeholder plus "<name>.part", then
// the part file renamed over the placeholder.
func firefox(dir, name string, data []byte) error {
	final := filepath.Join(dir, name)
	if err := os.WriteFile(final, nil, 0o600); err != nil {
		return err
	}
	part := final + ".part"
	if err := os.WriteFile(part, data, 0o600); err != nil {
		return err
	}
	pause()
	return os.Rename(part, final)
}

var payload = bytes.Repeat([]byte("id,amount\n42,13.37\n"), 1000)

type dirCase struct {
	name    string
	setup   func(t *testing.T, dir string)
	browser func(dir string) error
	opts    []download.Option
	want    error // nil: success
	check   func(t *testing.T, dir string, f *download.File)
}

func TestWait(t *testing.T) {
	t.Parallel()
	oldPartial := []byte("someone else's download, half done")
	cases := []dirCase{
		{
			name:    "chrome single file",
			browser: func(dir string) error { return chrome(dir, "report.csv", payload) },
			check: func(t *testing.T, dir string, f *download.File) {
				if f.Path != filepath.Join(dir, "report.csv") {
					t.Errorf("Path = %q", f.Path)
				}
				if f.SHA256 != digest(payload) || f.Size != int64(len(payload)) {
					t.Errorf("got %d %s, want %d %s", f.Size, f.SHA256, len(payload), digest(payload))
				}
				if f.Mechanism != download.MechanismDirectory || f.Evidence != download.EvidenceDirectoryBytes {
					t.Errorf("mechanism/evidence = %q/%q", f.Mechanism, f.Evidence)
				}
			},
		},
		{
			name:    "firefox placeholder and part",
			browser: func(dir string) error { return firefox(dir, "invoices.pdf", payload) },
			check:   wantFile("invoices.pdf", payload),
		},
		{
			name:    "empty file",
			browser: func(dir string) error { return os.WriteFile(filepath.Join(dir, "empty.txt"), nil, 0o600) },
			check:   wantFile("empty.txt", nil),
		},
		{
			name:  "pre-existing partial left alone",
			setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "old.csv.crdownload"), oldPartial) },
			browser: func(dir string) error {
				return chrome(dir, "report.csv", payload)
			},
			check: func(t *testing.T, dir string, f *download.File) {
				wantFile("report.csv", payload)(t, dir, f)
				got, err := os.ReadFile(filepath.Join(dir, "old.csv.crdownload"))
				if err != nil || !bytes.Equal(got, oldPartial) {
					t.Errorf("pre-existing partial touched: %q, %v", got, err)
				}
			},
		},
		{
			name:  "pre-existing partial still growing does not block",
			setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "big.iso.part"), oldPartial) },
			browser: func(dir string) error {
				f, err := os.OpenFile(filepath.Join(dir, "big.iso.part"), os.O_WRONLY|os.O_APPEND, 0)
				if err != nil {
					return err
				}
				defer f.Close()
				if _, err := f.Write([]byte("more")); err != nil {
					return err
				}
				return chrome(dir, "report.csv", payload)
			},
			check: wantFile("report.csv", payload),
		},
		{
			name:  "pre-existing partial vanishes",
			setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "old.csv.crdownload"), oldPartial) },
			browser: func(dir string) error {
				if err := os.Remove(filepath.Join(dir, "old.csv.crdownload")); err != nil {
					return err
				}
				return chrome(dir, "report.csv", payload)
			},
			want: download.ErrAmbiguous,
		},
		{
			name:  "pre-existing partial completes under new name",
			setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "old.csv.crdownload"), oldPartial) },
			browser: func(dir string) error {
				return os.Rename(filepath.Join(dir, "old.csv.crdownload"), filepath.Join(dir, "old.csv"))
			},
			want: download.ErrAmbiguous,
		},
		{
			name: "two files arrive together",
			browser: func(dir string) error {
				if err := os.WriteFile(filepath.Join(dir, "a.csv"), payload, 0o600); err != nil {
					return err
				}
				return os.WriteFile(filepath.Join(dir, "b.csv"), payload, 0o600)
			},
			want: download.ErrConcurrentArrival,
		},
		{
			name:  "overwrite by rename",
			setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "report.csv"), []byte("old")) },
			browser: func(dir string) error {
				tmp := filepath.Join(dir, "report.csv.crdownload")
				if err := os.WriteFile(tmp, payload, 0o600); err != nil {
					return err
				}
				pause()
				return os.Rename(tmp, filepath.Join(dir, "report.csv"))
			},
			want: download.ErrOverwrite,
		},
		{
			name:  "overwrite in place",
			setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "report.csv"), []byte("old")) },
			browser: func(dir string) error {
				return os.WriteFile(filepath.Join(dir, "report.csv"), payload, 0o600)
			},
			want: download.ErrOverwrite,
		},
		{
			name:  "pre-existing file renamed",
			setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "a.csv"), []byte("old")) },
			browser: func(dir string) error {
				return os.Rename(filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv"))
			},
			want: download.ErrAmbiguous,
		},
		{
			name:  "pre-existing file deleted, new file arrives",
			setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "stale.csv"), []byte("old")) },
			browser: func(dir string) error {
				if err := os.Remove(filepath.Join(dir, "stale.csv")); err != nil {
					return err
				}
				return chrome(dir, "report.csv", payload)
			},
			check: wantFile("report.csv", payload),
		},
		{
			name:  "symlink arrives",
			setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "target.csv"), payload) },
			browser: func(dir string) error {
				return os.Symlink("target.csv", filepath.Join(dir, "report.csv"))
			},
			want: download.ErrNotRegular,
		},
		{
			name: "symlink out of the folder arrives",
			browser: func(dir string) error {
				return os.Symlink("/etc/hostname", filepath.Join(dir, "report.csv"))
			},
			want: download.ErrNotRegular,
		},
		{
			name: "directory arrives",
			browser: func(dir string) error {
				if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
					return err
				}
				return os.WriteFile(filepath.Join(dir, "sub", "evil.csv"), payload, 0o600)
			},
			want: download.ErrNotRegular,
		},
		{
			name: "partial never completes",
			browser: func(dir string) error {
				return os.WriteFile(filepath.Join(dir, "Unconfirmed 1.crdownload"), payload, 0o600)
			},
			opts: []download.Option{download.WithTimeout(300 * time.Millisecond)},
			want: download.ErrTimeout,
		},
		{
			name: "partial canceled, nothing arrives",
			browser: func(dir string) error {
				p := filepath.Join(dir, "report.csv.crdownload")
				if err := os.WriteFile(p, payload, 0o600); err != nil {
					return err
				}
				pause()
				return os.Remove(p)
			},
			opts: []download.Option{download.WithTimeout(300 * time.Millisecond)},
			want: download.ErrTimeout,
		},
		{
			name:    "nothing arrives",
			browser: func(string) error { return nil },
			opts:    []download.Option{download.WithTimeout(200 * time.Millisecond)},
			want:    download.ErrTimeout,
		},
		{
			name:  "suggested name with (1) next to existing",
			setup: func(t *testing.T, dir string) { write(t, filepath.Join(dir, "name.csv"), []byte("yesterday")) },
			browser: func(dir string) error {
				return chrome(dir, "name (1).csv", payload)
			},
			check: func(t *testing.T, dir string, f *download.File) {
				wantFile("name (1).csv", payload)(t, dir, f)
				if got, _ := os.ReadFile(filepath.Join(dir, "name.csv")); string(got) != "yesterday" {
					t.Errorf("existing file changed: %q", got)
				}
			},
		},
		{
			name: "suggested ../ name sanitized by the browser",
			browser: func(dir string) error {
				return chrome(dir, "_.._report.csv", payload)
			},
			check: wantFile("_.._report.csv", payload),
		},
		{
			name: "file written outside the folder is not seen",
			browser: func(dir string) error {
				return os.WriteFile(filepath.Join(dir, "..", "escape.csv"), payload, 0o600)
			},
			opts: []download.Option{download.WithTimeout(200 * time.Millisecond)},
			want: download.ErrTimeout,
		},
		{
			name: "OS metadata ignored",
			browser: func(dir string) error {
				for _, n := range []string{".DS_Store", "._report.csv", "report.csv:Zone.Identifier"} {
					if err := os.WriteFile(filepath.Join(dir, n), []byte("meta"), 0o600); err != nil {
						return err
					}
				}
				return chrome(dir, "report.csv", payload)
			},
			check: wantFile("report.csv", payload),
		},
		{
			name: "chromium temporary comes and goes",
			browser: func(dir string) error {
				tmp := filepath.Join(dir, ".org.chromium.Chromium.aB3dEf")
				if err := os.WriteFile(tmp, nil, 0o600); err != nil {
					return err
				}
				pause()
				if err := os.Remove(tmp); err != nil {
					return err
				}
				return chrome(dir, "report.csv", payload)
			},
			check: wantFile("report.csv", payload),
		},
		{
			name:    "larger than the byte limit",
			browser: func(dir string) error { return chrome(dir, "report.csv", payload) },
			opts:    []download.Option{download.WithMaxBytes(100)},
			want:    download.ErrTooLarge,
		},
		{
			name:  "pre-existing directory gains content",
			setup: func(t *testing.T, dir string) { mkdir(t, filepath.Join(dir, "archive")) },
			browser: func(dir string) error {
				if err := os.WriteFile(filepath.Join(dir, "archive", "x.csv"), payload, 0o600); err != nil {
					return err
				}
				return chrome(dir, "report.csv", payload)
			},
			check: wantFile("report.csv", payload),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "Downloads")
			mkdir(t, dir)
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			ctx := t.Context()
			w, err := download.Begin(ctx, dir, fast(tc.opts...)...)
			if err != nil {
				t.Fatalf("Begin: %v", err)
			}
			defer w.Close()
			errc := make(chan error, 1)
			go func() { errc <- tc.browser(dir) }()
			f, err := w.Wait(ctx)
			if berr := <-errc; berr != nil {
				t.Fatalf("browser simulation: %v", berr)
			}
			if tc.want != nil {
				if !errors.Is(err, tc.want) {
					t.Fatalf("Wait error = %v (%s), want %v", err, detail(err), tc.want)
				}
				if f != nil {
					t.Errorf("Wait returned a file with an error: %+v", f)
				}
				return
			}
			if err != nil {
				t.Fatalf("Wait: %v (%s)", err, detail(err))
			}
			if tc.check != nil {
				tc.check(t, dir, f)
			}
		})
	}
}

func detail(err error) string {
	var e *download.Error
	if errors.As(err, &e) {
		return e.Detail()
	}
	return ""
}

func mkdir(t testing.TB, dir string) {
	t.Helper()
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
}

func wantFile(name string, data []byte) func(t *testing.T, dir string, f *download.File) {
	return func(t *testing.T, dir string, f *download.File) {
		t.Helper()
		if f.Path != filepath.Join(dir, name) {
			t.Errorf("Path = %q, want %q", f.Path, filepath.Join(dir, name))
		}
		if f.Size != int64(len(data)) || f.SHA256 != digest(data) {
			t.Errorf("got %d %s, want %d %s", f.Size, f.SHA256, len(data), digest(data))
		}
	}
}

func TestWaitFolderUnavailable(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		change func(dir string) error
	}{
		{"removed mid-wait", os.RemoveAll},
		{"replaced mid-wait", func(dir string) error {
			if err := os.RemoveAll(dir); err != nil {
				return err
			}
			return os.Mkdir(dir, 0o700)
		}},
		{"renamed away mid-wait", func(dir string) error { return os.Rename(dir, dir+".old") }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), "Downloads")
			mkdir(t, dir)
			write(t, filepath.Join(dir, "old.csv.crdownload"), []byte("x"))
			w, err := download.Begin(t.Context(), dir, fast()...)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			errc := make(chan error, 1)
			go func() { pause(); errc <- tc.change(dir) }()
			_, err = w.Wait(t.Context())
			if cerr := <-errc; cerr != nil {
				t.Fatal(cerr)
			}
			if !errors.Is(err, download.ErrFolderUnavailable) {
				t.Fatalf("err = %v (%s), want folder unavailable", err, detail(err))
			}
		})
	}
}

func TestBeginFolderUnavailable(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	file := filepath.Join(base, "file")
	write(t, file, nil)
	for _, dir := range []string{filepath.Join(base, "missing"), file} {
		w, err := download.Begin(t.Context(), dir, fast()...)
		if !errors.Is(err, download.ErrFolderUnavailable) || w != nil {
			t.Errorf("Begin(%q) = %v, %v; want folder unavailable", dir, w, err)
		}
	}
}

func TestLockSerializesWatches(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first, err := download.Begin(t.Context(), dir, fast()...)
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		w   *download.Watch
		err error
	}
	second := make(chan result, 1)
	go func() {
		w, err := download.Begin(t.Context(), dir, fast()...)
		second <- result{w, err}
	}()
	time.Sleep(100 * time.Millisecond)
	select {
	case r := <-second:
		t.Fatalf("second Begin returned while the first Watch held the lock: %v", r.err)
	default:
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	r := <-second
	if r.err != nil {
		t.Fatalf("second Begin after Close: %v", r.err)
	}
	// The lock file exists, is excluded, and the second watch works.
	errc := make(chan error, 1)
	go func() { errc <- chrome(dir, "report.csv", payload) }()
	f, err := r.w.Wait(t.Context())
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if err != nil || f.SHA256 != digest(payload) {
		t.Fatalf("Wait = %+v, %v", f, err)
	}
	if err := r.w.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(dir, download.LockFileName)); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Errorf("lock file: %v, %v", fi, err)
	}
}

func TestBeginLockBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	holder, err := download.Begin(t.Context(), dir, fast()...)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()

	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err = download.Begin(ctx, dir, fast()...)
	if !errors.Is(err, download.ErrInterrupted) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Begin with ctx deadline = %v, want interrupted + deadline exceeded", err)
	}
	_, err = download.Begin(t.Context(), dir, fast(download.WithLockTimeout(50*time.Millisecond))...)
	if !errors.Is(err, download.ErrLocked) {
		t.Errorf("Begin with lock timeout = %v, want locked", err)
	}
}

func TestWaitInterrupted(t *testing.T) {
	t.Parallel()
	t.Run("ctx canceled", func(t *testing.T) {
		t.Parallel()
		w, err := download.Begin(t.Context(), t.TempDir(), download.WithTimeout(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(50*time.Millisecond, cancel)
		_, err = w.Wait(ctx)
		if !errors.Is(err, download.ErrInterrupted) || !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want interrupted + canceled", err)
		}
	})
	t.Run("already canceled", func(t *testing.T) {
		t.Parallel()
		w, err := download.Begin(t.Context(), t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if _, err := w.Wait(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
		if _, err := download.Begin(ctx, t.TempDir()); !errors.Is(err, download.ErrInterrupted) {
			t.Fatalf("Begin err = %v", err)
		}
	})
	t.Run("Close aborts Wait", func(t *testing.T) {
		t.Parallel()
		w, err := download.Begin(t.Context(), t.TempDir(), download.WithTimeout(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		time.AfterFunc(50*time.Millisecond, func() { _ = w.Close() })
		_, err = w.Wait(t.Context())
		if !errors.Is(err, download.ErrInterrupted) {
			t.Fatalf("err = %v, want interrupted", err)
		}
		if err := w.Close(); err != nil {
			t.Fatalf("second Close = %v", err)
		}
	})
}

func TestWaitMisuse(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := download.Begin(t.Context(), dir, fast(download.WithTimeout(50*time.Millisecond))...)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Wait(t.Context()); !errors.Is(err, download.ErrTimeout) {
		t.Fatalf("first Wait = %v", err)
	}
	if _, err := w.Wait(t.Context()); !errors.Is(err, download.ErrInvalidRequest) {
		t.Fatalf("second Wait = %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("Close is not idempotent: %v", err)
	}
	if _, err := w.Wait(t.Context()); !errors.Is(err, download.ErrInvalidRequest) {
		t.Fatalf("Wait after Close = %v", err)
	}
	var nilWatch *download.Watch
	if _, err := nilWatch.Wait(t.Context()); !errors.Is(err, download.ErrInvalidRequest) {
		t.Fatalf("nil Wait = %v", err)
	}
	if err := nilWatch.Close(); err != nil {
		t.Fatalf("nil Close = %v", err)
	}
}

func TestWaitUnstableDuringHashing(t *testing.T) {
	t.Parallel()
	mutations := map[string]func(path string){
		"appended": func(p string) {
			f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			if err == nil {
				_, _ = f.Write([]byte("late bytes"))
				_ = f.Close()
			}
		},
		"replaced": func(p string) {
			_ = os.WriteFile(p+".new", payload, 0o600)
			_ = os.Rename(p+".new", p)
		},
		"touched": func(p string) {
			_ = os.Chtimes(p, time.Now(), time.Now().Add(time.Hour))
		},
		"removed": func(p string) { _ = os.Remove(p) },
	}
	for name, mutate := range mutations {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			w, err := download.Begin(t.Context(), dir, fast(download.WithAfterHashForTest(mutate))...)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			write(t, filepath.Join(dir, "report.csv"), payload)
			_, err = w.Wait(t.Context())
			if !errors.Is(err, download.ErrUnstable) {
				t.Fatalf("err = %v (%s), want unstable", err, detail(err))
			}
		})
	}
}

func TestErrorIsSanitized(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "private-folder")
	mkdir(t, dir)
	w, err := download.Begin(t.Context(), dir, fast()...)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	write(t, filepath.Join(dir, "secret-a.csv"), payload)
	write(t, filepath.Join(dir, "secret-b.csv"), payload)
	_, err = w.Wait(t.Context())
	if download.ReasonOf(err) != download.ReasonConcurrentArrival {
		t.Fatalf("err = %v", err)
	}
	if msg := err.Error(); strings.Contains(msg, "secret") || strings.Contains(msg, "private-folder") {
		t.Errorf("Error() leaks local detail: %q", msg)
	}
	if d := detail(err); !strings.Contains(d, "secret-a.csv") || !strings.Contains(d, dir) {
		t.Errorf("Detail() lacks local detail: %q", d)
	}
}

func TestDefaultDirectory(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	got, err := download.DefaultDirectory()
	if err != nil || got != filepath.Join(home, "Downloads") {
		t.Fatalf("DefaultDirectory = %q, %v", got, err)
	}
	// Begin("") uses it; it does not exist yet.
	if _, err := download.Begin(t.Context(), "", fast()...); !errors.Is(err, download.ErrFolderUnavailable) {
		t.Fatalf("Begin(\"\") without Downloads = %v", err)
	}
	mkdir(t, got)
	w, err := download.Begin(t.Context(), "", fast()...)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if w.Dir() != got {
		t.Errorf("Dir = %q, want %q", w.Dir(), got)
	}
}

func TestLargeFolderSweep(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for i := range 1500 {
		write(t, filepath.Join(dir, "old-"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+"-"+strconv.Itoa(i)+".csv"), []byte("x"))
	}
	write(t, filepath.Join(dir, "target.csv"), []byte("old"))
	w, err := download.Begin(t.Context(), dir, fast()...)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	// An overwrite among many pre-existing files is still caught, even when
	// it happens together with a new file that settles.
	write(t, filepath.Join(dir, "target.csv"), []byte("new content"))
	write(t, filepath.Join(dir, "report.csv"), payload)
	if _, err := w.Wait(t.Context()); !errors.Is(err, download.ErrOverwrite) {
		t.Fatalf("err = %v", err)
	}
}
