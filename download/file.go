package download

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Evidence codes recorded with a verified download. They name the basis of
// the claim; neither claims a browser-provided file identity beyond what the
// route observed.
const (
	// EvidenceDirectoryBytes: exactly one new regular file settled in the
	// observed folder after the click; its bytes were hashed and its identity
	// rechecked. Attribution is by directory correlation.
	EvidenceDirectoryBytes = "download-directory-bytes-verified"
	// EvidenceBrowserPathBytes: the browser saved the download under its GUID
	// in a provider-owned folder; that file's bytes were hashed and its
	// identity rechecked.
	EvidenceBrowserPathBytes = "download-browser-path-bytes-verified"
)

// Mechanism hints: categorical, sanitized labels of the route used.
const (
	// MechanismDirectory is the folder-snapshot route ([Begin], [Watch.Wait]).
	MechanismDirectory = "directory"
	// MechanismBrowserPath is the GUID-named browser path route ([VerifyPath]).
	MechanismBrowserPath = "browser_path"
)

// File is one verified download.
type File struct {
	// Path is the absolute local path of the verified file. It is local
	// detail: it belongs in outputs.json only, never in a receipt, a
	// capability or a hash (see [SetHash]).
	Path string
	// Size is the number of bytes hashed, equal to the file's size.
	Size int64
	// SHA256 is "sha256:" followed by the lowercase hex SHA-256 of the bytes.
	SHA256 string
	// Mechanism is [MechanismDirectory] or [MechanismBrowserPath].
	Mechanism string
	// Evidence is [EvidenceDirectoryBytes] or [EvidenceBrowserPathBytes].
	Evidence string
}

// DefaultDirectory returns the user's home Downloads folder
// (filepath.Join(os.UserHomeDir(), "Downloads")). It does not check that the
// folder exists and does not read browser or desktop settings: a redirected
// folder must be passed explicitly by the caller.
func DefaultDirectory() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", newError(ReasonFolderUnavailable, "begin", err)
	}
	return filepath.Join(home, "Downloads"), nil
}

// folder is an observed directory: its absolute path, an os.Root bound to
// the directory opened at start (so every entry operation stays inside that
// one directory), and the directory's identity, rechecked by path on every
// observation to detect removal or replacement.
type folder struct {
	path string
	root *os.Root
	id   identity
}

func openFolder(op, dir string) (*folder, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, newError(ReasonFolderUnavailable, op, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, newError(ReasonFolderUnavailable, op, err)
	}
	if !fi.IsDir() {
		return nil, newError(ReasonFolderUnavailable, op, fmt.Errorf("%s: not a directory", abs))
	}
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, newError(ReasonFolderUnavailable, op, err)
	}
	rfi, err := root.Stat(".")
	if err == nil && !identityOf(fi).sameObject(identityOf(rfi)) {
		err = fmt.Errorf("%s: replaced while opening", abs)
	}
	if err != nil {
		_ = root.Close()
		return nil, newError(ReasonFolderUnavailable, op, err)
	}
	return &folder{path: abs, root: root, id: identityOf(rfi)}, nil
}

// check verifies that the path still names the directory opened at start.
func (f *folder) check(op string) error {
	fi, err := os.Stat(f.path)
	if err != nil {
		return newError(ReasonFolderUnavailable, op, err)
	}
	if !fi.IsDir() || !f.id.sameObject(identityOf(fi)) {
		return newError(ReasonFolderUnavailable, op, fmt.Errorf("%s: folder removed or replaced", f.path))
	}
	return nil
}

// names lists the entry names directly inside the folder.
func (f *folder) names(op string) ([]string, error) {
	d, err := f.root.Open(".")
	if err != nil {
		return nil, newError(ReasonFolderUnavailable, op, err)
	}
	names, err := d.Readdirnames(-1)
	_ = d.Close()
	if err != nil {
		return nil, newError(ReasonFolderUnavailable, op, err)
	}
	return names, nil
}

func (f *folder) close() error { return f.root.Close() }

// hashFile opens name inside f, checks that it still has identity want,
// streams its bytes through SHA-256, and rechecks the identity through both
// the open handle and the name afterwards.
func hashFile(ctx context.Context, done <-chan struct{}, f *folder, name string, want identity, o *options, mech, evidence string) (*File, error) {
	const op = "hash"
	p := filepath.Join(f.path, name)
	if !want.regular() {
		return nil, newError(ReasonNotRegular, op, fmt.Errorf("%s: not a regular file", p))
	}
	if want.size > o.maxBytes {
		return nil, newError(ReasonTooLarge, op, fmt.Errorf("%s: %d bytes exceeds limit %d", p, want.size, o.maxBytes))
	}
	fh, err := f.root.OpenFile(name, openFlags, 0)
	if err != nil {
		return nil, newError(ReasonUnstable, op, err)
	}
	defer fh.Close()
	if err := sameAs(fh, want, p, "before hashing"); err != nil {
		return nil, err
	}
	h := sha256.New()
	n, err := copyCtx(ctx, done, h, io.LimitReader(fh, o.maxBytes+1))
	if err != nil {
		return nil, err
	}
	if n > o.maxBytes {
		return nil, newError(ReasonTooLarge, op, fmt.Errorf("%s: more than %d bytes", p, o.maxBytes))
	}
	if o.afterHash != nil {
		o.afterHash(p)
	}
	if n != want.size {
		return nil, newError(ReasonUnstable, op, fmt.Errorf("%s: read %d bytes, expected %d", p, n, want.size))
	}
	if err := sameAs(fh, want, p, "after hashing"); err != nil {
		return nil, err
	}
	li, err := f.root.Lstat(name)
	if err != nil {
		return nil, newError(ReasonUnstable, op, err)
	}
	if identityOf(li) != want {
		return nil, newError(ReasonUnstable, op, fmt.Errorf("%s: name no longer refers to the hashed file", p))
	}
	if err := f.check(op); err != nil {
		return nil, err
	}
	return &File{
		Path:      p,
		Size:      n,
		SHA256:    "sha256:" + hex.EncodeToString(h.Sum(nil)),
		Mechanism: mech,
		Evidence:  evidence,
	}, nil
}

func sameAs(fh *os.File, want identity, p, when string) error {
	fi, err := fh.Stat()
	if err != nil {
		return newError(ReasonUnstable, "hash", err)
	}
	if !fi.Mode().IsRegular() {
		return newError(ReasonNotRegular, "hash", fmt.Errorf("%s: opened entry is not a regular file", p))
	}
	if identityOf(fi) != want {
		return newError(ReasonUnstable, "hash", fmt.Errorf("%s: identity changed %s", p, when))
	}
	return nil
}

var errClosed = errors.New("watch closed")

// interrupted returns an error if ctx is done or done is closed.
func interrupted(ctx context.Context, done <-chan struct{}, op string) error {
	if err := ctx.Err(); err != nil {
		return newError(ReasonInterrupted, op, err)
	}
	select {
	case <-done:
		return newError(ReasonInterrupted, op, errClosed)
	default:
		return nil
	}
}

// copyCtx copies src to dst in chunks, stopping promptly on cancellation.
func copyCtx(ctx context.Context, done <-chan struct{}, dst io.Writer, src io.Reader) (int64, error) {
	buf := make([]byte, 256<<10)
	var n int64
	for {
		if err := interrupted(ctx, done, "hash"); err != nil {
			return n, err
		}
		m, err := src.Read(buf)
		if m > 0 {
			_, _ = dst.Write(buf[:m]) // hash.Hash never returns an error
			n += int64(m)
		}
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, newError(ReasonUnstable, "hash", err)
		}
	}
}

// isNotExist reports whether err means the entry is gone.
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
