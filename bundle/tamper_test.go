package bundle_test

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/receipt"
)

// copyDir copies a bundle (regular files and directories) to a fresh
// directory.
func copyDir(t testing.TB, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "bundle")
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o700)
		}
		in, err := os.Open(p)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, in); err != nil {
			out.Close()
			return err
		}
		return out.Close()
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// problemCodes returns the sorted distinct codes of a report's problems.
func problemCodes(rep *bundle.Report) []bundle.Code {
	var codes []bundle.Code
	add := func(c bundle.Code) {
		if !slices.Contains(codes, c) {
			codes = append(codes, c)
		}
	}
	for _, g := range [][]bundle.FileProblem{rep.LockProblems, rep.Limits, rep.Unsafe, rep.Mismatched, rep.Forbidden} {
		for _, p := range g {
			add(p.Code)
		}
	}
	if len(rep.Missing) > 0 {
		add(bundle.CodeMissing)
	}
	if len(rep.Unlisted) > 0 {
		add(bundle.CodeUnlisted)
	}
	if len(rep.Capability) > 0 {
		add(bundle.CodeCapability)
	}
	if rep.Claim != nil {
		add(bundle.CodeClaim)
	}
	slices.Sort(codes)
	return codes
}

func hasProblem(ps []bundle.FileProblem, path, substr string) bool {
	for _, p := range ps {
		if p.Path == path && strings.Contains(p.Message, substr) {
			return true
		}
	}
	return false
}

func editLock(t testing.TB, dir string, edit func(*bundle.Lock)) {
	t.Helper()
	l := readLock(t, dir)
	edit(l)
	writeLock(t, dir, l)
}

// relockHeader relocks and also points the lock's capability header at
// the current capability.json, as a complete tamperer would.
func relockHeader(t testing.TB, dir string) {
	t.Helper()
	relock(t, dir)
	c, err := capability.ParseBytes(readFile(t, dir, bundle.FileCapability))
	if err != nil {
		t.Fatal(err)
	}
	editLock(t, dir, func(l *bundle.Lock) {
		l.Capability = bundle.LockCapability{ID: c.ID, Version: c.Version, ExecutionHash: execHash(t, c)}
	})
}

func editReadme(t testing.TB, dir string, extra string) {
	t.Helper()
	writeFile(t, dir, bundle.FileReadme, append(readFile(t, dir, bundle.FileReadme), extra...))
	relock(t, dir)
}

const pngHeader = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"

// TestTamperMatrix mutates valid sealed bundles, one way each, and checks
// each mutation is rejected with its own reason: the sentinel, the report
// field naming the file, and exactly the expected problem codes.
func TestTamperMatrix(t *testing.T) {
	validated := validatedFixture(t)
	discovered := discoveredFixture(t)
	ctx := context.Background()
	for _, base := range []*fixture{validated, discovered} {
		if _, err := bundle.Verify(ctx, base.dir); err != nil {
			t.Fatalf("untouched bundle does not verify: %v", err)
		}
	}
	receipts := receiptPaths(validated.lock)
	if len(receipts) != 2 {
		t.Fatalf("validated bundle holds %d receipts", len(receipts))
	}
	run0 := validated.runs[0]

	cases := []struct {
		name   string
		base   *fixture
		mutate func(t *testing.T, dir string)
		want   error
		codes  []bundle.Code
		check  func(rep *bundle.Report) bool
	}{
		{
			name: "flipped byte",
			mutate: func(t *testing.T, dir string) {
				b := readFile(t, dir, bundle.FileCapability)
				b[len(b)/2] ^= 0x01
				writeFile(t, dir, bundle.FileCapability, b)
			},
			want: bundle.ErrMismatch, codes: []bundle.Code{"mismatch"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Mismatched, bundle.FileCapability, "sha256") },
		},
		{
			name: "truncated file",
			mutate: func(t *testing.T, dir string) {
				b := readFile(t, dir, bundle.FileReadme)
				writeFile(t, dir, bundle.FileReadme, b[:len(b)-10])
			},
			want: bundle.ErrMismatch, codes: []bundle.Code{"mismatch"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Mismatched, bundle.FileReadme, "size") },
		},
		{
			name:   "extra file",
			mutate: func(t *testing.T, dir string) { writeFile(t, dir, "notes.txt", []byte("hello\n")) },
			want:   bundle.ErrUnlisted, codes: []bundle.Code{"unlisted"},
			check: func(r *bundle.Report) bool { return slices.Equal(r.Unlisted, []string{"notes.txt"}) },
		},
		{
			name: "extra empty directory",
			mutate: func(t *testing.T, dir string) {
				if err := os.Mkdir(filepath.Join(dir, "extra"), 0o700); err != nil {
					t.Fatal(err)
				}
			},
			want: bundle.ErrUnlisted, codes: []bundle.Code{"unlisted"},
			check: func(r *bundle.Report) bool { return slices.Equal(r.Unlisted, []string{"extra/"}) },
		},
		{
			name: "removed file",
			mutate: func(t *testing.T, dir string) {
				if err := os.Remove(filepath.Join(dir, bundle.FileReadme)); err != nil {
					t.Fatal(err)
				}
			},
			want: bundle.ErrMissing, codes: []bundle.Code{"missing"},
			check: func(r *bundle.Report) bool { return slices.Equal(r.Missing, []string{bundle.FileReadme}) },
		},
		{
			name: "renamed file",
			mutate: func(t *testing.T, dir string) {
				if err := os.Rename(filepath.Join(dir, bundle.FileReadme), filepath.Join(dir, "readme.md")); err != nil {
					t.Fatal(err)
				}
			},
			want: bundle.ErrMissing, codes: []bundle.Code{"missing", "unlisted"},
			check: func(r *bundle.Report) bool {
				return slices.Equal(r.Missing, []string{bundle.FileReadme}) && slices.Equal(r.Unlisted, []string{"readme.md"})
			},
		},
		{
			name: "symlink in place of a file",
			mutate: func(t *testing.T, dir string) {
				outside := filepath.Join(t.TempDir(), "README.md")
				if err := os.WriteFile(outside, readFile(t, dir, bundle.FileReadme), 0o600); err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(dir, bundle.FileReadme)
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(outside, p); err != nil {
					t.Fatal(err)
				}
			},
			want: bundle.ErrUnsafeFile, codes: []bundle.Code{"unsafe_file"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Unsafe, bundle.FileReadme, "symbolic link") },
		},
		{
			name: "symlinked directory",
			mutate: func(t *testing.T, dir string) {
				outside := copyDir(t, dir)
				rd := filepath.Join(dir, bundle.DirReceipts)
				if err := os.RemoveAll(rd); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(filepath.Join(outside, bundle.DirReceipts), rd); err != nil {
					t.Fatal(err)
				}
			},
			want: bundle.ErrUnsafeFile, codes: []bundle.Code{"unsafe_file"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Unsafe, bundle.DirReceipts, "symbolic link") },
		},
		{
			name: "path traversal in the lock",
			mutate: func(t *testing.T, dir string) {
				editLock(t, dir, func(l *bundle.Lock) {
					l.Files = append([]bundle.LockFile{{Path: "../outside.json", Size: 2, SHA256: canonjson.SumBytes([]byte("{}"))}}, l.Files...)
				})
			},
			want: bundle.ErrUnsafePath, codes: []bundle.Code{"unsafe_path"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Unsafe, "../outside.json", "") },
		},
		{
			name: "absolute path in the lock",
			mutate: func(t *testing.T, dir string) {
				editLock(t, dir, func(l *bundle.Lock) {
					l.Files = append([]bundle.LockFile{{Path: "/etc/passwd", Size: 2, SHA256: canonjson.SumBytes([]byte("{}"))}}, l.Files...)
				})
			},
			want: bundle.ErrUnsafePath, codes: []bundle.Code{"unsafe_path"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Unsafe, "/etc/passwd", "absolute") },
		},
		{
			name: "case-fold twin with the Kelvin sign",
			mutate: func(t *testing.T, dir string) {
				addListed(t, dir, "K.txt", []byte("k\n"))
				addListed(t, dir, "\u212a.txt", []byte("kelvin\n"))
			},
			want: bundle.ErrUnsafePath, codes: []bundle.Code{"forbidden", "unsafe_path"},
			check: func(r *bundle.Report) bool {
				return hasProblem(r.Unsafe, "\u212a.txt", "differ only in case") && hasProblem(r.Unsafe, "\u212a.txt", "U+212A")
			},
		},
		{
			name: "ASCII case twin",
			mutate: func(t *testing.T, dir string) {
				addListed(t, dir, "readme.md", readFile(t, dir, bundle.FileReadme))
			},
			want: bundle.ErrUnsafePath, codes: []bundle.Code{"forbidden", "unsafe_path"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Unsafe, "readme.md", "differ only in case") },
		},
		{
			name: "file and directory at one path",
			mutate: func(t *testing.T, dir string) {
				editLock(t, dir, func(l *bundle.Lock) {
					l.Files = append(l.Files, bundle.LockFile{Path: "receipts", Size: 0, SHA256: canonjson.SumBytes(nil)})
					sortFiles(l.Files)
				})
			},
			want: bundle.ErrUnsafePath, codes: []bundle.Code{"forbidden", "mismatch", "unsafe_path"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Unsafe, "receipts", "a directory") },
		},
		{
			name: "Windows reserved name",
			mutate: func(t *testing.T, dir string) {
				addListed(t, dir, "aux.md", []byte("# notes\n"))
			},
			want: bundle.ErrUnsafePath, codes: []bundle.Code{"unsafe_path"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Unsafe, "aux.md", "reserved") },
		},
		{
			name: "duplicate lock entry",
			mutate: func(t *testing.T, dir string) {
				editLock(t, dir, func(l *bundle.Lock) {
					f, _ := l.File(bundle.FileReadme)
					l.Files = append(l.Files, f)
					sortFiles(l.Files)
				})
			},
			want: bundle.ErrLock, codes: []bundle.Code{"lock"},
			check: func(r *bundle.Report) bool { return hasProblem(r.LockProblems, bundle.FileReadme, "duplicate") },
		},
		{
			name: "lock listing itself",
			mutate: func(t *testing.T, dir string) {
				editLock(t, dir, func(l *bundle.Lock) {
					l.Files = append(l.Files, bundle.LockFile{Path: bundle.FileLock, Size: 10, SHA256: canonjson.SumBytes(nil)})
					sortFiles(l.Files)
				})
			},
			want: bundle.ErrLock, codes: []bundle.Code{"lock"},
			check: func(r *bundle.Report) bool { return hasProblem(r.LockProblems, bundle.FileLock, "lists itself") },
		},
		{
			name: "lock listing itself in another case",
			mutate: func(t *testing.T, dir string) {
				editLock(t, dir, func(l *bundle.Lock) {
					l.Files = append(l.Files, bundle.LockFile{Path: "Bundle.Lock.JSON", Size: 10, SHA256: canonjson.SumBytes(nil)})
					sortFiles(l.Files)
				})
			},
			want: bundle.ErrLock, codes: []bundle.Code{"lock"},
			check: func(r *bundle.Report) bool { return hasProblem(r.LockProblems, bundle.FileLock, "lists itself") },
		},
		{
			name:   "wrong algorithm",
			mutate: func(t *testing.T, dir string) { editLock(t, dir, func(l *bundle.Lock) { l.Algorithm = "sha512" }) },
			want:   bundle.ErrLock, codes: []bundle.Code{"lock"},
			check: func(r *bundle.Report) bool { return hasProblem(r.LockProblems, bundle.FileLock, "unknown algorithm") },
		},
		{
			name: "unknown schema",
			mutate: func(t *testing.T, dir string) {
				editLock(t, dir, func(l *bundle.Lock) { l.Schema = "browser-capability-lock/v2" })
			},
			want: bundle.ErrLock, codes: []bundle.Code{"lock"},
			check: func(r *bundle.Report) bool {
				return r.Lock == nil && hasProblem(r.LockProblems, bundle.FileLock, "unknown schema")
			},
		},
		{
			name: "lock with trailing garbage",
			mutate: func(t *testing.T, dir string) {
				writeFile(t, dir, bundle.FileLock, append(readFile(t, dir, bundle.FileLock), " {}"...))
			},
			want: bundle.ErrLock, codes: []bundle.Code{"lock"},
			check: func(r *bundle.Report) bool { return hasProblem(r.LockProblems, bundle.FileLock, "not one valid JSON") },
		},
		{
			name: "lock with duplicate keys",
			mutate: func(t *testing.T, dir string) {
				b := readFile(t, dir, bundle.FileLock)
				b = append([]byte(`{"algorithm":"sha512",`), b[1:]...)
				writeFile(t, dir, bundle.FileLock, b)
			},
			want: bundle.ErrLock, codes: []bundle.Code{"lock"},
			check: func(r *bundle.Report) bool { return hasProblem(r.LockProblems, bundle.FileLock, "duplicate") },
		},
		{
			name: "lock not canonical",
			mutate: func(t *testing.T, dir string) {
				writeFile(t, dir, bundle.FileLock, append(readFile(t, dir, bundle.FileLock), '\n'))
			},
			want: bundle.ErrLock, codes: []bundle.Code{"lock"},
			check: func(r *bundle.Report) bool { return hasProblem(r.LockProblems, bundle.FileLock, "canonical") },
		},
		{
			name: "lock with an unknown member",
			mutate: func(t *testing.T, dir string) {
				b := readFile(t, dir, bundle.FileLock)
				writeFile(t, dir, bundle.FileLock, append([]byte(`{"Algorithm":"sha256",`), b[1:]...))
			},
			want: bundle.ErrLock, codes: []bundle.Code{"lock"},
			check: func(r *bundle.Report) bool { return hasProblem(r.LockProblems, bundle.FileLock, "unknown member") },
		},
		{
			name: "lock missing",
			mutate: func(t *testing.T, dir string) {
				if err := os.Remove(filepath.Join(dir, bundle.FileLock)); err != nil {
					t.Fatal(err)
				}
			},
			want: bundle.ErrLock, codes: []bundle.Code{"lock"},
			check: func(r *bundle.Report) bool {
				return r.Lock == nil && hasProblem(r.LockProblems, bundle.FileLock, "missing")
			},
		},
		{
			name: "lock is a symbolic link",
			mutate: func(t *testing.T, dir string) {
				outside := filepath.Join(t.TempDir(), "lock.json")
				if err := os.WriteFile(outside, readFile(t, dir, bundle.FileLock), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Remove(filepath.Join(dir, bundle.FileLock)); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(outside, filepath.Join(dir, bundle.FileLock)); err != nil {
					t.Fatal(err)
				}
			},
			want: bundle.ErrUnsafeFile, codes: []bundle.Code{"unsafe_file"},
			check: func(r *bundle.Report) bool {
				return r.Lock == nil && hasProblem(r.Unsafe, bundle.FileLock, "symbolic link")
			},
		},
		{
			name: "lock larger than MaxLockBytes",
			mutate: func(t *testing.T, dir string) {
				b := readFile(t, dir, bundle.FileLock)
				writeFile(t, dir, bundle.FileLock, append(b, make([]byte, bundle.MaxLockBytes)...))
			},
			want: bundle.ErrLimit, codes: []bundle.Code{"limit"},
			check: func(r *bundle.Report) bool {
				return r.Lock == nil && hasProblem(r.Limits, bundle.FileLock, "MaxLockBytes")
			},
		},
		{
			name: "lock names another capability",
			mutate: func(t *testing.T, dir string) {
				editLock(t, dir, func(l *bundle.Lock) { l.Capability.Version = "9.9.9" })
			},
			want: bundle.ErrLock, codes: []bundle.Code{"lock"},
			check: func(r *bundle.Report) bool { return hasProblem(r.LockProblems, bundle.FileLock, "names capability") },
		},
		{
			name: "capability.json unlisted",
			mutate: func(t *testing.T, dir string) {
				editLock(t, dir, func(l *bundle.Lock) {
					l.Files = slices.DeleteFunc(l.Files, func(f bundle.LockFile) bool { return f.Path == bundle.FileCapability })
				})
			},
			want: bundle.ErrUnlisted, codes: []bundle.Code{"lock", "unlisted"},
			check: func(r *bundle.Report) bool {
				return slices.Equal(r.Unlisted, []string{bundle.FileCapability}) && hasProblem(r.LockProblems, bundle.FileLock, "does not list")
			},
		},
		{
			name:   "screenshot added and listed",
			mutate: func(t *testing.T, dir string) { addListed(t, dir, "screenshot.png", []byte(pngHeader)) },
			want:   bundle.ErrForbidden, codes: []bundle.Code{"forbidden"},
			check: func(r *bundle.Report) bool {
				return hasProblem(r.Forbidden, "screenshot.png", "image or screenshot") && hasProblem(r.Forbidden, "screenshot.png", "PNG image data")
			},
		},
		{
			name: "image bytes disguised as a receipt",
			mutate: func(t *testing.T, dir string) {
				b := []byte(pngHeader)
				addListed(t, dir, bundle.ReceiptPath(canonjson.SumBytes(b)), b)
			},
			want: bundle.ErrForbidden, codes: []bundle.Code{"forbidden"},
			check: func(r *bundle.Report) bool {
				return hasProblem(r.Forbidden, bundle.ReceiptPath(canonjson.SumBytes([]byte(pngHeader))), "PNG image data")
			},
		},
		{
			name: "outputs.json added and listed",
			mutate: func(t *testing.T, dir string) {
				addListed(t, dir, "outputs.json", readFile(t, run0, receipt.FileOutputs))
			},
			want: bundle.ErrForbidden, codes: []bundle.Code{"forbidden"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Forbidden, "outputs.json", "run file") },
		},
		{
			name: "run lock added and listed",
			mutate: func(t *testing.T, dir string) {
				addListed(t, dir, "run/run.lock.json", readFile(t, run0, receipt.FileLock))
			},
			want: bundle.ErrForbidden, codes: []bundle.Code{"forbidden"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Forbidden, "run/run.lock.json", "run file") },
		},
		{
			name: "HTML added and listed",
			mutate: func(t *testing.T, dir string) {
				addListed(t, dir, "page.html", []byte("<!DOCTYPE html><html><body>Balance</body></html>"))
			},
			want: bundle.ErrForbidden, codes: []bundle.Code{"forbidden"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Forbidden, "page.html", "HTML") },
		},
		{
			name:   "HTML inside the README, re-locked",
			mutate: func(t *testing.T, dir string) { editReadme(t, dir, "\n<div class=\"row\">Mario Rossi</div>\n") },
			want:   bundle.ErrForbidden, codes: []bundle.Code{"forbidden"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Forbidden, bundle.FileReadme, "HTML markup (<div)") },
		},
		{
			name:   "cookie store added and listed",
			mutate: func(t *testing.T, dir string) { addListed(t, dir, "Default/Cookies", []byte("SQLite format 3\x00...")) },
			want:   bundle.ErrForbidden, codes: []bundle.Code{"forbidden"},
			check: func(r *bundle.Report) bool {
				return hasProblem(r.Forbidden, "Default/Cookies", "browser storage") && hasProblem(r.Forbidden, "Default/Cookies", "SQLite")
			},
		},
		{
			name:   "browser storage by extension",
			mutate: func(t *testing.T, dir string) { addListed(t, dir, "leveldb/000003.ldb", []byte("\x00\x01binary")) },
			want:   bundle.ErrForbidden, codes: []bundle.Code{"forbidden"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Forbidden, "leveldb/000003.ldb", "browser storage") },
		},
		{
			name: "token inside capability.json, re-locked",
			base: discovered,
			mutate: func(t *testing.T, dir string) {
				editCapabilityRaw(t, dir, func(c *capability.Capability) {
					c.Goal += " Use ghp_" + strings.Repeat("a1B2", 9) + " to sign in."
				})
				relockHeader(t, dir)
			},
			want: bundle.ErrForbidden, codes: []bundle.Code{"capability", "forbidden"},
			check: func(r *bundle.Report) bool {
				return hasProblem(r.Forbidden, bundle.FileCapability, "api_key-shaped secret at \"goal\"")
			},
		},
		{
			name: "session URL with a query in the README, re-locked",
			mutate: func(t *testing.T, dir string) {
				editReadme(t, dir, "\nOpen https://teller.example/members?session=8f2a&member=42 to start.\n")
			},
			want: bundle.ErrForbidden, codes: []bundle.Code{"forbidden"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Forbidden, bundle.FileReadme, "a URL with a query") },
		},
		{
			name:   "embedded screenshot in the README, re-locked",
			mutate: func(t *testing.T, dir string) { editReadme(t, dir, "\n![page](data:image/png;base64,iVBORw0KGgo)\n") },
			want:   bundle.ErrForbidden, codes: []bundle.Code{"forbidden"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Forbidden, bundle.FileReadme, "data URI") },
		},
		{
			name: "discovery record added and listed",
			mutate: func(t *testing.T, dir string) {
				addListed(t, dir, "discovery.json", []byte(`{"schema":"browser-discovery/v2","site":{"name":"Teller"}}`))
			},
			want: bundle.ErrForbidden, codes: []bundle.Code{"forbidden"},
			check: func(r *bundle.Report) bool {
				return hasProblem(r.Forbidden, "discovery.json", "outside the bundle layout")
			},
		},
		{
			name: "discovery record disguised as a receipt",
			mutate: func(t *testing.T, dir string) {
				b := []byte(`{"schema":"browser-discovery\/v2","site":{"name":"Teller"}}`)
				addListed(t, dir, bundle.ReceiptPath(canonjson.SumBytes(b)), b)
			},
			want: bundle.ErrForbidden, codes: []bundle.Code{"forbidden"},
			check: func(r *bundle.Report) bool {
				return len(r.Forbidden) > 0 && strings.Contains(r.Forbidden[0].Message, "private discovery record")
			},
		},
		{
			name: "discovery record pasted into the README, re-locked",
			mutate: func(t *testing.T, dir string) {
				editReadme(t, dir, "\n    {\"schema\": \"browser-discovery/v2\", \"site\": {\"name\": \"Teller\"}}\n")
			},
			want: bundle.ErrForbidden, codes: []bundle.Code{"forbidden"},
			check: func(r *bundle.Report) bool {
				return hasProblem(r.Forbidden, bundle.FileReadme, "private discovery record")
			},
		},
		{
			name: "receipts swapped, re-locked",
			mutate: func(t *testing.T, dir string) {
				a, b := readFile(t, dir, receipts[0]), readFile(t, dir, receipts[1])
				writeFile(t, dir, receipts[0], b)
				writeFile(t, dir, receipts[1], a)
				relock(t, dir)
			},
			want: bundle.ErrMismatch, codes: []bundle.Code{"mismatch"},
			check: func(r *bundle.Report) bool {
				return hasProblem(r.Mismatched, receipts[0], "named by its own sha256") && hasProblem(r.Mismatched, receipts[1], "named by its own sha256")
			},
		},
		{
			name: "receipt tampered, re-locked",
			mutate: func(t *testing.T, dir string) {
				writeFile(t, dir, receipts[0], tamperReceipt(t, readFile(t, dir, receipts[0]), func(r *receipt.Receipt) { r.DurationMS++ }))
				relock(t, dir)
			},
			want: bundle.ErrMismatch, codes: []bundle.Code{"mismatch"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Mismatched, receipts[0], "named by its own sha256") },
		},
		{
			name: "receipt tampered, renamed to its hash, re-locked",
			mutate: func(t *testing.T, dir string) {
				b := tamperReceipt(t, readFile(t, dir, receipts[0]), func(r *receipt.Receipt) { r.DurationMS++ })
				if err := os.Remove(filepath.Join(dir, receipts[0])); err != nil {
					t.Fatal(err)
				}
				writeFile(t, dir, bundle.ReceiptPath(canonjson.SumBytes(b)), b)
				relock(t, dir)
			},
			want: bundle.ErrClaim, codes: []bundle.Code{"claim"},
			check: func(r *bundle.Report) bool {
				return errors.Is(r.Claim, receipt.ErrClaim) && strings.Contains(r.Claim.Error(), "stray receipt")
			},
		},
		{
			name: "receipt rewritten as a simulated run, re-claimed",
			mutate: func(t *testing.T, dir string) {
				b := tamperReceipt(t, readFile(t, dir, receipts[0]), func(r *receipt.Receipt) { r.ExecutionMode = receipt.ModeSimulated })
				if err := os.Remove(filepath.Join(dir, receipts[0])); err != nil {
					t.Fatal(err)
				}
				h := canonjson.SumBytes(b)
				writeFile(t, dir, bundle.ReceiptPath(h), b)
				editCapabilityRaw(t, dir, func(c *capability.Capability) {
					other := "sha256:" + strings.TrimSuffix(strings.TrimPrefix(receipts[1], "receipts/"), ".json")
					c.Validation.Receipts = []string{h, other}
					slices.Sort(c.Validation.Receipts)
				})
				relock(t, dir)
			},
			want: bundle.ErrClaim, codes: []bundle.Code{"claim"},
			check: func(r *bundle.Report) bool {
				var fe *receipt.FinalizeError
				return errors.As(r.Claim, &fe) && strings.Contains(r.Claim.Error(), "simulated never counts")
			},
		},
		{
			name: "receipt records an origin outside allowed_origins, re-claimed",
			mutate: func(t *testing.T, dir string) {
				b := tamperReceipt(t, readFile(t, dir, receipts[0]), func(r *receipt.Receipt) {
					r.Origins = append([]string{"https://attacker.example"}, r.Origins...)
				})
				if err := os.Remove(filepath.Join(dir, receipts[0])); err != nil {
					t.Fatal(err)
				}
				h := canonjson.SumBytes(b)
				writeFile(t, dir, bundle.ReceiptPath(h), b)
				editCapabilityRaw(t, dir, func(c *capability.Capability) {
					other := "sha256:" + strings.TrimSuffix(strings.TrimPrefix(receipts[1], "receipts/"), ".json")
					c.Validation.Receipts = []string{h, other}
					slices.Sort(c.Validation.Receipts)
				})
				relock(t, dir)
			},
			want: bundle.ErrClaim, codes: []bundle.Code{"claim"},
			check: func(r *bundle.Report) bool {
				return errors.Is(r.Claim, receipt.ErrOrigin) && errors.Is(r.Claim, receipt.ErrVerify)
			},
		},
		{
			name: "receipt records an undeclared action, re-claimed",
			mutate: func(t *testing.T, dir string) {
				b := tamperReceipt(t, readFile(t, dir, receipts[0]), func(r *receipt.Receipt) { r.Actions[0].ID = "fill-other" })
				if err := os.Remove(filepath.Join(dir, receipts[0])); err != nil {
					t.Fatal(err)
				}
				h := canonjson.SumBytes(b)
				writeFile(t, dir, bundle.ReceiptPath(h), b)
				editCapabilityRaw(t, dir, func(c *capability.Capability) {
					other := "sha256:" + strings.TrimSuffix(strings.TrimPrefix(receipts[1], "receipts/"), ".json")
					c.Validation.Receipts = []string{h, other}
					slices.Sort(c.Validation.Receipts)
				})
				relock(t, dir)
			},
			want: bundle.ErrClaim, codes: []bundle.Code{"claim"},
			check: func(r *bundle.Report) bool { return errors.Is(r.Claim, receipt.ErrSequence) },
		},
		{
			name: "state raised to validated_local without receipts, re-locked",
			base: discovered,
			mutate: func(t *testing.T, dir string) {
				editCapabilityRaw(t, dir, func(c *capability.Capability) { c.State = capability.StateValidatedLocal })
				relock(t, dir)
			},
			want: bundle.ErrClaim, codes: []bundle.Code{"capability", "claim"},
			check: func(r *bundle.Report) bool {
				return errors.Is(r.Claim, receipt.ErrClaim) && slices.ContainsFunc(r.Capability, func(s string) bool { return strings.Contains(s, "validation") })
			},
		},
		{
			name: "state raised with forged validation metadata, re-locked",
			base: discovered,
			mutate: func(t *testing.T, dir string) {
				editCapabilityRaw(t, dir, func(c *capability.Capability) {
					c.State = capability.StateValidatedLocal
					c.Validation = &capability.Validation{
						Receipts:      []string{"sha256:" + strings.Repeat("a", 64), "sha256:" + strings.Repeat("b", 64)},
						ExecutionMode: string(receipt.ModeLiveConnected), FinalizedAt: "2026-03-02T09:00:00Z", Claim: receipt.ClaimText,
					}
				})
				relock(t, dir)
			},
			want: bundle.ErrClaim, codes: []bundle.Code{"claim"},
			check: func(r *bundle.Report) bool { return strings.Contains(r.Claim.Error(), "is not in the bundle") },
		},
		{
			name: "stray receipt beside a discovered capability",
			base: discovered,
			mutate: func(t *testing.T, dir string) {
				b := readFile(t, run0, receipt.FileReceipt)
				addListed(t, dir, bundle.ReceiptPath(canonjson.SumBytes(b)), b)
			},
			want: bundle.ErrClaim, codes: []bundle.Code{"claim"},
			check: func(r *bundle.Report) bool { return strings.Contains(r.Claim.Error(), "stray receipts") },
		},
		{
			name: "draft capability, re-locked",
			base: discovered,
			mutate: func(t *testing.T, dir string) {
				editCapabilityRaw(t, dir, func(c *capability.Capability) { c.State = capability.StateDraft; c.Provenance.Review = nil })
				relockHeader(t, dir)
			},
			want: bundle.ErrCapability, codes: []bundle.Code{"capability"},
			check: func(r *bundle.Report) bool {
				return slices.ContainsFunc(r.Capability, func(s string) bool { return strings.Contains(s, "never travels") })
			},
		},
		{
			name: "invalid capability, re-locked",
			base: discovered,
			mutate: func(t *testing.T, dir string) {
				editCapabilityRaw(t, dir, func(c *capability.Capability) { c.Runtime.Start = "/members?id=42" })
				relockHeader(t, dir)
			},
			want: bundle.ErrCapability, codes: []bundle.Code{"capability", "forbidden"},
			check: func(r *bundle.Report) bool {
				return hasProblem(r.Forbidden, bundle.FileCapability, "a path with a query") &&
					slices.ContainsFunc(r.Capability, func(s string) bool { return strings.Contains(s, "runtime.start") })
			},
		},
		{
			name: "FIFO in place of a file",
			mutate: func(t *testing.T, dir string) {
				p := filepath.Join(dir, bundle.FileReadme)
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				if err := syscall.Mkfifo(p, 0o600); err != nil {
					t.Skipf("mkfifo: %v", err)
				}
			},
			want: bundle.ErrUnsafeFile, codes: []bundle.Code{"unsafe_file"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Unsafe, bundle.FileReadme, "named pipe") },
		},
		{
			name: "oversized declared size",
			mutate: func(t *testing.T, dir string) {
				editLock(t, dir, func(l *bundle.Lock) {
					for i := range l.Files {
						if l.Files[i].Path == bundle.FileReadme {
							l.Files[i].Size = 1 << 40
						}
					}
				})
			},
			want: bundle.ErrLimit, codes: []bundle.Code{"limit"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Limits, bundle.FileReadme, "MaxFileBytes") },
		},
		{
			name: "README over its content limit",
			mutate: func(t *testing.T, dir string) {
				editReadme(t, dir, strings.Repeat("x", int(bundle.MaxReadmeBytes)))
			},
			want: bundle.ErrLimit, codes: []bundle.Code{"limit"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Limits, bundle.FileReadme, "limit of this file") },
		},
		{
			name: "too many files",
			mutate: func(t *testing.T, dir string) {
				for i := range bundle.MaxFiles {
					writeFile(t, dir, "many/"+strings.Repeat("f", 1+i%3)+string(rune('a'+i%26))+string(rune('a'+i/26)), []byte("x"))
				}
			},
			want: bundle.ErrLimit, codes: []bundle.Code{"limit", "unlisted"},
			check: func(r *bundle.Report) bool { return hasProblem(r.Limits, "", "MaxFiles") },
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := tc.base
			if base == nil {
				base = validated
			}
			dir := copyDir(t, base.dir)
			tc.mutate(t, dir)
			rep, err := bundle.Verify(ctx, dir)
			if err == nil {
				t.Fatal("tampered bundle verifies")
			}
			if !errors.Is(err, bundle.ErrVerify) || !errors.Is(err, tc.want) {
				t.Errorf("error does not match %v:\n%v", tc.want, err)
			}
			if got := problemCodes(rep); !slices.Equal(got, tc.codes) {
				t.Errorf("codes %v, want %v\n%v", got, tc.codes, err)
			}
			if !tc.check(rep) {
				t.Errorf("report does not name the problem:\n%v", err)
			}
		})
	}
	if len(cases) < 25 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, base := range []*fixture{validated, discovered} {
		if _, err := bundle.Verify(ctx, base.dir); err != nil {
			t.Fatalf("untouched bundle no longer verifies: %v", err)
		}
	}
}

// editCapabilityRaw rewrites capability.json through edit without
// relocking.
func editCapabilityRaw(t testing.TB, dir string, edit func(*capability.Capability)) {
	t.Helper()
	c, err := capability.ParseBytes(readFile(t, dir, bundle.FileCapability))
	if err != nil {
		t.Fatal(err)
	}
	edit(c)
	b, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, bundle.FileCapability, b)
}

// tamperReceipt decodes a receipt, edits it and re-encodes it canonically.
func tamperReceipt(t testing.TB, raw []byte, edit func(*receipt.Receipt)) []byte {
	t.Helper()
	r, err := receipt.LoadReceipt(raw)
	if err != nil {
		t.Fatal(err)
	}
	edit(r)
	b, err := canonjson.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
