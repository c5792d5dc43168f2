package safefs_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/vera-run/vera/internal/safefs"
)

func openRoot(t *testing.T, dir string) *os.Root {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return root
}

func wantMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	if runtime.GOOS == "windows" {
		return
	}
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s: mode %o, want %o", path, got, want)
	}
}

func listNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestMkdirExclusive(t *testing.T) {
	for _, mask := range []int{0, 0o022, 0o077, 0o277} {
		withUmask(t, mask)
		dir := filepath.Join(t.TempDir(), "new")
		if err := safefs.MkdirExclusive(dir); err != nil {
			t.Fatalf("umask %o: %v", mask, err)
		}
		wantMode(t, dir, 0o700)
		err := safefs.MkdirExclusive(dir)
		if !errors.Is(err, fs.ErrExist) {
			t.Fatalf("second MkdirExclusive: got %v, want fs.ErrExist", err)
		}
	}
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := safefs.MkdirExclusive(file); !errors.Is(err, fs.ErrExist) {
		t.Errorf("over a file: got %v, want fs.ErrExist", err)
	}
	if err := safefs.MkdirExclusive(""); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("empty path: got %v, want fs.ErrInvalid", err)
	}
	if err := safefs.MkdirExclusive(filepath.Join(t.TempDir(), "missing", "x")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing parent: got %v, want fs.ErrNotExist", err)
	}
}

func TestNewRunDir(t *testing.T) {
	withUmask(t, 0)
	parent := t.TempDir()
	if in, err := safefs.InGitWorkTree(parent); err != nil || in {
		t.Skipf("test temp dir %s is inside a git work tree (%v, %v)", parent, in, err)
	}
	seen := map[string]bool{}
	for range 20 {
		dir, err := safefs.NewRunDir(parent, "run-")
		if err != nil {
			t.Fatal(err)
		}
		if seen[dir] {
			t.Fatalf("duplicate run dir %s", dir)
		}
		seen[dir] = true
		if filepath.Dir(dir) != parent || !strings.HasPrefix(filepath.Base(dir), "run-") {
			t.Errorf("run dir %s not a run- child of %s", dir, parent)
		}
		wantMode(t, dir, 0o700)
	}
	for _, bad := range []string{"a/b", `a\b`, "a*"} {
		if _, err := safefs.NewRunDir(parent, bad); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("prefix %q: got %v, want fs.ErrInvalid", bad, err)
		}
	}
}

func TestGitWorkTree(t *testing.T) {
	base := t.TempDir()
	if in, err := safefs.InGitWorkTree(base); err != nil || in {
		t.Skipf("test temp dir %s is inside a git work tree (%v, %v)", base, in, err)
	}
	repo := filepath.Join(base, "repo")
	deep := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(deep, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	worktree := filepath.Join(base, "worktree")
	if err := os.MkdirAll(filepath.Join(worktree, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	// Linked work trees and submodules use a ".git" file.
	if err := os.WriteFile(filepath.Join(worktree, ".git"), []byte("gitdir: /elsewhere\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(base, "outside")
	if err := os.Mkdir(outside, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	symlinks := os.Symlink(deep, link) == nil

	tests := []struct {
		name string
		path string
		want bool
		skip bool
	}{
		{name: "repo root", path: repo, want: true},
		{name: "deep inside", path: deep, want: true},
		{name: "not yet existing inside", path: filepath.Join(deep, "missing", "x"), want: true},
		{name: "git file work tree", path: filepath.Join(worktree, "sub"), want: true},
		{name: "outside", path: outside, want: false},
		{name: "relative outside", path: ".", want: false, skip: true},
		{name: "symlink into repo", path: link, want: true, skip: !symlinks},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.skip {
				t.Skip("not applicable here")
			}
			got, err := safefs.InGitWorkTree(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("InGitWorkTree(%s) = %v, want %v", tt.path, got, tt.want)
			}
			_, err = safefs.NewRunDir(tt.path, "run-")
			if tt.want {
				if !errors.Is(err, safefs.ErrInGitWorkTree) {
					t.Errorf("NewRunDir: got %v, want ErrInGitWorkTree", err)
				}
				var pe *fs.PathError
				if !errors.As(err, &pe) {
					t.Errorf("NewRunDir error %T is not *fs.PathError", err)
				}
				if dir, err := safefs.NewRunDir(repo, "run-", safefs.AllowGitWorkTree()); err != nil {
					t.Errorf("with AllowGitWorkTree: %v", err)
				} else {
					os.Remove(dir)
				}
			} else if err != nil {
				t.Errorf("NewRunDir: %v", err)
			}
		})
	}
}

func TestWriteFileAtomic(t *testing.T) {
	for _, mask := range []int{0, 0o022, 0o277} {
		withUmask(t, mask)
		dir := t.TempDir()
		root := openRoot(t, dir)
		if err := root.Mkdir("sub", 0o700); err != nil {
			t.Fatal(err)
		}
		if err := root.Mkdir("taken-dir", 0o700); err != nil {
			t.Fatal(err)
		}

		tests := []struct {
			name    string
			file    string
			data    string
			replace bool
			wantErr error
		}{
			{name: "new file", file: "a.json", data: `{"a":1}`},
			{name: "empty data", file: "empty", data: ""},
			{name: "nested", file: "sub/b.json", data: "b"},
			{name: "existing refused", file: "a.json", data: "other", wantErr: fs.ErrExist},
			{name: "existing dir refused", file: "taken-dir", data: "x", wantErr: fs.ErrExist},
			{name: "replace", file: "a.json", data: `{"a":2}`, replace: true},
			{name: "replace new", file: "c", data: "c", replace: true},
			{name: "escape", file: "../x", data: "x", wantErr: fs.ErrInvalid},
			{name: "absolute", file: "/etc/x", data: "x", wantErr: fs.ErrInvalid},
			{name: "dot", file: ".", data: "x", wantErr: fs.ErrInvalid},
			{name: "empty name", file: "", data: "x", wantErr: fs.ErrInvalid},
			{name: "trailing slash", file: "sub/", data: "x", wantErr: fs.ErrInvalid},
			{name: "missing dir", file: "nope/x", data: "x", wantErr: fs.ErrNotExist},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				before, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(tt.file)))
				var err error
				if tt.replace {
					err = safefs.WriteFileAtomicReplace(root, tt.file, []byte(tt.data))
				} else {
					err = safefs.WriteFileAtomic(root, tt.file, []byte(tt.data))
				}
				if tt.wantErr != nil {
					if !errors.Is(err, tt.wantErr) {
						t.Fatalf("got %v, want %v", err, tt.wantErr)
					}
					if tt.file != "" && tt.file != "." && !strings.HasPrefix(tt.file, "/") && !strings.HasPrefix(tt.file, "..") {
						after, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(tt.file)))
						if !bytes.Equal(before, after) {
							t.Errorf("existing content changed: %q -> %q", before, after)
						}
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(dir, filepath.FromSlash(tt.file))
				got, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != tt.data {
					t.Errorf("content %q, want %q", got, tt.data)
				}
				wantMode(t, p, 0o600)
			})
		}
		for _, d := range []string{dir, filepath.Join(dir, "sub")} {
			for _, n := range listNames(t, d) {
				if safefs.IsTempName(n) {
					t.Errorf("umask %o: temporary file %s left in %s", mask, n, d)
				}
			}
		}
	}
}

func TestWriteFileAtomicReplaceSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target", filepath.Join(dir, "link")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	root := openRoot(t, dir)
	if err := safefs.WriteFileAtomic(root, "link", []byte("x")); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("WriteFileAtomic over symlink: got %v, want fs.ErrExist", err)
	}
	if err := safefs.WriteFileAtomicReplace(root, "link", []byte("new")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(target); string(got) != "keep" {
		t.Errorf("symlink target was written through: %q", got)
	}
	fi, err := os.Lstat(filepath.Join(dir, "link"))
	if err != nil || !fi.Mode().IsRegular() {
		t.Errorf("link not replaced by a regular file: %v %v", fi, err)
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	if err := safefs.WriteFile(dir, "x.txt", []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if err := safefs.WriteFile(dir, "x.txt", []byte("again")); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("got %v, want fs.ErrExist", err)
	}
	if err := safefs.WriteFile(filepath.Join(dir, "missing"), "x", nil); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing dir: got %v, want fs.ErrNotExist", err)
	}
}

func TestWriteCrashSteps(t *testing.T) {
	crash := errors.New("simulated crash")
	tests := []struct {
		step        safefs.WriteStep
		wantTemp    bool
		wantFinal   bool
		tempContent string
	}{
		{step: safefs.StepTempCreated, wantTemp: true, tempContent: ""},
		{step: safefs.StepWritten, wantTemp: true, tempContent: "payload"},
		{step: safefs.StepSynced, wantTemp: true, tempContent: "payload"},
		{step: safefs.StepRenamed, wantFinal: true},
	}
	for _, tt := range tests {
		for _, replace := range []bool{false, true} {
			t.Run(string(tt.step), func(t *testing.T) {
				dir := t.TempDir()
				root := openRoot(t, dir)
				restore := safefs.SetTestHookAfterStep(func(step safefs.WriteStep) error {
					if step == tt.step {
						return crash
					}
					return nil
				})
				defer restore()
				write := safefs.WriteFileAtomic
				if replace {
					write = safefs.WriteFileAtomicReplace
				}
				if err := write(root, "out.json", []byte("payload")); !errors.Is(err, crash) {
					t.Fatalf("got %v, want the simulated crash", err)
				}
				var temps []string
				for _, n := range listNames(t, dir) {
					if safefs.IsTempName(n) {
						temps = append(temps, n)
						if !strings.HasPrefix(n, ".out.json.tmp-") {
							t.Errorf("temp name %q does not name its target", n)
						}
						got, err := os.ReadFile(filepath.Join(dir, n))
						if err != nil {
							t.Fatal(err)
						}
						if string(got) != tt.tempContent {
							t.Errorf("temp content %q, want %q", got, tt.tempContent)
						}
						wantMode(t, filepath.Join(dir, n), 0o600)
					}
				}
				if (len(temps) == 1) != tt.wantTemp || len(temps) > 1 {
					t.Errorf("temp files %v, want one: %v", temps, tt.wantTemp)
				}
				_, err := os.Stat(filepath.Join(dir, "out.json"))
				if (err == nil) != tt.wantFinal {
					t.Errorf("final file exists: %v, want %v", err == nil, tt.wantFinal)
				}
				restore()
				removed, err := safefs.RemoveTemps(root, ".")
				if err != nil {
					t.Fatal(err)
				}
				if len(removed) != len(temps) {
					t.Errorf("RemoveTemps removed %v, want %v", removed, temps)
				}
				if tt.wantFinal {
					return
				}
				if err := safefs.WriteFileAtomic(root, "out.json", []byte("payload")); err != nil {
					t.Fatalf("write after crash: %v", err)
				}
			})
		}
	}
}

func TestIsTempName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{".a.tmp-0123456789abcdef", true},
		{".run.receipt.json.tmp-deadbeefdeadbeef", true},
		{"dir/.x.tmp-0123456789abcdef", true},
		{"..tmp-0123456789abcdef", false},   // empty target name
		{"a.tmp-0123456789abcdef", false},   // no leading dot
		{".a.tmp-0123456789ABCDEF", false},  // upper case
		{".a.tmp-0123456789abcde", false},   // 15 digits
		{".a.tmp-0123456789abcdefa", false}, // 17 digits, tail mismatch
		{".a.tmp-0123456789abcdeg", false},  // not hex
		{".a.tmp0123456789abcdef", false},   // missing dash
		{".a.tmp-0123456789abcdef/", false}, // trailing slash
		{"", false},
		{".", false},
		{"run.receipt.json", false},
	}
	for _, tt := range tests {
		if got := safefs.IsTempName(tt.name); got != tt.want {
			t.Errorf("IsTempName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
	long := strings.Repeat("é", 150)
	n, err := safefs.TempName(long)
	if err != nil {
		t.Fatal(err)
	}
	if len(n) > 255 || !safefs.IsTempName(n) || !strings.HasPrefix(n, "."+strings.Repeat("é", 100)) {
		t.Errorf("long temp name %q (len %d) not truncated at a rune boundary", n, len(n))
	}
}

func FuzzIsTempName(f *testing.F) {
	f.Add("a")
	f.Add("run.receipt.json")
	f.Add(".a.tmp-0123456789abcdef")
	f.Add("")
	f.Add(strings.Repeat("x", 300))
	f.Fuzz(func(t *testing.T, base string) {
		is := safefs.IsTempName(base)
		if is && !strings.Contains(base, ".tmp-") {
			t.Fatalf("IsTempName(%q) without .tmp-", base)
		}
		if base == "" || strings.Contains(base, "/") {
			return
		}
		n, err := safefs.TempName(base)
		if err != nil {
			t.Fatal(err)
		}
		if !safefs.IsTempName(n) {
			t.Fatalf("IsTempName(TempName(%q) = %q) = false", base, n)
		}
		if safefs.IsTempName(n + "x") {
			t.Fatalf("IsTempName(%q) = true", n+"x")
		}
	})
}

func TestReadFileLimited(t *testing.T) {
	dir := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(dir, "ten"), []byte("0123456789"), 0o600))
	must(os.WriteFile(filepath.Join(dir, "empty"), nil, 0o600))
	must(os.Mkdir(filepath.Join(dir, "sub"), 0o700))
	must(os.WriteFile(filepath.Join(dir, "sub", "f"), []byte("inner"), 0o600))
	symlinks := os.Symlink("ten", filepath.Join(dir, "link")) == nil
	if symlinks {
		must(os.Symlink("sub", filepath.Join(dir, "sublink")))
	}
	fifo := makeFIFO(filepath.Join(dir, "fifo")) == nil

	tests := []struct {
		name    string
		file    string
		max     int64
		want    string
		wantErr error
		skip    bool
	}{
		{name: "under limit", file: "ten", max: 100, want: "0123456789"},
		{name: "exactly limit", file: "ten", max: 10, want: "0123456789"},
		{name: "over limit", file: "ten", max: 9, wantErr: safefs.ErrTooLarge},
		{name: "zero limit empty file", file: "empty", max: 0, want: ""},
		{name: "zero limit", file: "ten", max: 0, wantErr: safefs.ErrTooLarge},
		{name: "negative limit", file: "ten", max: -1, wantErr: fs.ErrInvalid},
		{name: "nested", file: "sub/f", max: 5, want: "inner"},
		{name: "directory", file: "sub", max: 100, wantErr: safefs.ErrNotRegular},
		{name: "missing", file: "nope", max: 100, wantErr: fs.ErrNotExist},
		{name: "escape", file: "../ten", max: 100, wantErr: fs.ErrInvalid},
		{name: "symlink", file: "link", max: 100, wantErr: safefs.ErrSymlink, skip: !symlinks},
		{name: "symlink component", file: "sublink/f", max: 100, wantErr: safefs.ErrSymlink, skip: !symlinks},
		{name: "fifo", file: "fifo", max: 100, wantErr: safefs.ErrNotRegular, skip: !fifo},
	}
	root := openRoot(t, dir)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.skip {
				t.Skip("not supported on this system")
			}
			got, err := safefs.ReadFileLimited(root, tt.file, tt.max)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("got %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
		t.Run("hash/"+tt.name, func(t *testing.T) {
			if tt.skip {
				t.Skip("not supported on this system")
			}
			digest, size, err := safefs.HashFile(root, tt.file, tt.max)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("got %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256([]byte(tt.want))
			if want := "sha256:" + hex.EncodeToString(sum[:]); digest != want || size != int64(len(tt.want)) {
				t.Errorf("got %s %d, want %s %d", digest, size, want, len(tt.want))
			}
		})
	}
	if _, err := safefs.ReadFileLimited(nil, "ten", 10); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("nil root: got %v", err)
	}
}

func TestHashFile(t *testing.T) {
	dir := t.TempDir()
	root := openRoot(t, dir)
	// Larger than the buffer and not a multiple of it.
	data := bytes.Repeat([]byte("vera-0123456789"), (3*safefs.HashBufferSize)/15+7)
	if err := safefs.WriteFileAtomic(root, "big.bin", data); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	want := "sha256:" + hex.EncodeToString(sum[:])
	for _, limit := range []int64{int64(len(data)), int64(len(data)) + 1, 1 << 30} {
		digest, size, err := safefs.HashFile(root, "big.bin", limit)
		if err != nil {
			t.Fatal(err)
		}
		if digest != want || size != int64(len(data)) {
			t.Errorf("limit %d: got %s %d, want %s %d", limit, digest, size, want, len(data))
		}
	}
	if _, _, err := safefs.HashFile(root, "big.bin", int64(len(data))-1); !errors.Is(err, safefs.ErrTooLarge) {
		t.Errorf("got %v, want ErrTooLarge", err)
	}
	digest, _, err := safefs.HashFile(root, "big.bin", int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(digest, "sha256:") || len(digest) != 7+64 {
		t.Errorf("digest %q has the wrong shape", digest)
	}

	// Memory does not grow with the file: the allocations of hashing a
	// multi-megabyte file are the same as those of a tiny one.
	if err := safefs.WriteFileAtomic(root, "tiny", []byte("x")); err != nil {
		t.Fatal(err)
	}
	small := testing.AllocsPerRun(20, func() { safefs.HashFile(root, "tiny", 10) })
	large := testing.AllocsPerRun(20, func() { safefs.HashFile(root, "big.bin", 1<<30) })
	if large > small+2 {
		t.Errorf("hashing %d bytes allocates %.0f times, a 1-byte file %.0f", len(data), large, small)
	}
}

func BenchmarkHashFile(b *testing.B) {
	dir := b.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	data := bytes.Repeat([]byte{0xA5}, 64<<20)
	if err := safefs.WriteFileAtomic(root, "f", data); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, _, err := safefs.HashFile(root, "f", int64(len(data))); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteFileAtomic(b *testing.B) {
	dir := b.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer root.Close()
	data := bytes.Repeat([]byte("x"), 4096)
	i := 0
	for b.Loop() {
		i++
		if err := safefs.WriteFileAtomic(root, fmt.Sprintf("f%d", i), data); err != nil {
			b.Fatal(err)
		}
	}
}
