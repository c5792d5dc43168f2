package safefs

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"unicode/utf8"
)

// WriteStep names one step of an atomic write, in order. A crash after a
// step leaves the state described on its constant.
type WriteStep string

const (
	// StepTempCreated: the temporary file exists, empty.
	StepTempCreated WriteStep = "tempcreated"
	// StepWritten: the data is written to the temporary file, not yet synced.
	StepWritten WriteStep = "written"
	// StepSynced: the temporary file is fsynced and closed; the final name
	// does not exist yet.
	StepSynced WriteStep = "synced"
	// StepRenamed: the final name is published and the temporary name is
	// gone; the directory entry is not yet fsynced.
	StepRenamed WriteStep = "renamed"
)

// testHookAfterStep, when set by a test, runs after each step of an atomic
// write. A non-nil error aborts the write as a crash would: the temporary file
// is closed but left in place.
var testHookAfterStep func(step WriteStep) error

const (
	tempInfix     = ".tmp-"
	tempRandHex   = 16 // hex digits of the random suffix
	maxTempPrefix = 200
)

// tempName returns a fresh temporary name for the base name base.
func tempName(base string) (string, error) {
	var b [tempRandHex / 2]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	if len(base) > maxTempPrefix {
		// Cut at a rune boundary when the name is valid UTF-8 (at most
		// UTFMax-1 bytes back); invalid bytes are cut where they are.
		cut := maxTempPrefix
		for back := 0; back < utf8.UTFMax-1 && !utf8.RuneStart(base[cut]); back++ {
			cut--
		}
		if !utf8.RuneStart(base[cut]) {
			cut = maxTempPrefix
		}
		base = base[:cut]
	}
	return "." + base + tempInfix + hex.EncodeToString(b[:]), nil
}

// IsTempName reports whether name (a base name; if it contains a slash, its
// last element is used) has the shape of a temporary file left by an
// interrupted atomic write: ".<name>.tmp-<16 lowercase hex digits>" with a
// non-empty <name>.
func IsTempName(name string) bool {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	const suffix = len(tempInfix) + tempRandHex
	if len(name) < 2+suffix || name[0] != '.' {
		return false
	}
	tail := name[len(name)-suffix:]
	if !strings.HasPrefix(tail, tempInfix) {
		return false
	}
	for _, c := range []byte(tail[len(tempInfix):]) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// WriteFileAtomic writes data to name inside root, atomically and without
// replacing anything: if name already exists (as a file, directory or
// link) it returns an error wrapping [fs.ErrExist] and leaves the existing
// entry untouched. The file gets mode 0600.
//
// The data is first written to a temporary file in the same directory
// (created exclusively, mode 0600), fsynced and closed; the final name is
// then created as a hard link to it, which fails atomically if the name
// exists, the temporary name is removed and the directory is fsynced. On a
// file system without hard links it falls back to Lstat and rename (see the
// package documentation for the race this implies). On failure the
// temporary file is removed. If only the final directory fsync fails, the
// file is already published and the error is still returned, since its
// durability is not guaranteed.
func WriteFileAtomic(root *os.Root, name string, data []byte) error {
	return writeAtomic(root, name, data, false)
}

// WriteFileAtomicReplace is [WriteFileAtomic] except that it publishes with
// rename(2), atomically replacing an existing file of the same name (a
// symbolic link at name is replaced itself, never followed). It fails if
// name is a directory.
func WriteFileAtomicReplace(root *os.Root, name string, data []byte) error {
	return writeAtomic(root, name, data, true)
}

// WriteFile opens dir as an [os.Root] and calls [WriteFileAtomic] on it.
func WriteFile(dir, name string, data []byte) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	return WriteFileAtomic(root, name, data)
}

// FsyncDir fsyncs the directory dir (root-relative, "." for the root
// itself) so that entries created or renamed in it are durable.
func FsyncDir(root *os.Root, dir string) error {
	if root == nil {
		return &fs.PathError{Op: "fsyncdir", Path: dir, Err: fs.ErrInvalid}
	}
	f, err := root.Open(dir)
	if err != nil {
		return err
	}
	serr := f.Sync()
	cerr := f.Close()
	if serr != nil {
		return serr
	}
	return cerr
}

// RemoveTemps removes, from the directory dir of root, every regular file
// whose name satisfies [IsTempName], i.e. the leftovers of interrupted atomic
// writes, and returns their names. Only call it when no write to that
// directory is in progress.
func RemoveTemps(root *os.Root, dir string) ([]string, error) {
	if root == nil {
		return nil, &fs.PathError{Op: "removetemps", Path: dir, Err: fs.ErrInvalid}
	}
	if dir != "." {
		if err := checkName("removetemps", dir); err != nil {
			return nil, err
		}
	}
	f, err := root.Open(dir)
	if err != nil {
		return nil, err
	}
	entries, err := f.ReadDir(-1)
	_ = f.Close()
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !IsTempName(e.Name()) {
			continue
		}
		if err := root.Remove(path.Join(dir, e.Name())); err != nil {
			return removed, err
		}
		removed = append(removed, e.Name())
	}
	return removed, nil
}

func writeAtomic(root *os.Root, name string, data []byte, replace bool) (err error) {
	const op = "writeatomic"
	if root == nil {
		return &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if err := checkName(op, name); err != nil {
		return err
	}
	dir := dirOf(name)

	var (
		f       *os.File
		tmp     string
		openErr error
	)
	for range 4 { // a collision of 64 random bits is practically impossible
		t, rerr := tempName(path.Base(name))
		if rerr != nil {
			return &fs.PathError{Op: op, Path: name, Err: rerr}
		}
		tmp = path.Join(dir, t)
		f, openErr = root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if openErr == nil || !errors.Is(openErr, fs.ErrExist) {
			break
		}
	}
	if openErr != nil {
		return openErr
	}

	crashed, closed := false, false
	defer func() {
		if !closed {
			_ = f.Close()
		}
		if err != nil && !crashed {
			_ = root.Remove(tmp)
		}
	}()
	hook := func(step WriteStep) error {
		if testHookAfterStep == nil {
			return nil
		}
		if herr := testHookAfterStep(step); herr != nil {
			crashed = true
			return herr
		}
		return nil
	}

	if err = f.Chmod(0o600); err != nil {
		return err
	}
	if err = hook(StepTempCreated); err != nil {
		return err
	}
	if _, err = f.Write(data); err != nil {
		return err
	}
	if err = hook(StepWritten); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	closed = true
	if err = f.Close(); err != nil {
		return err
	}
	if err = hook(StepSynced); err != nil {
		return err
	}
	if replace {
		err = root.Rename(tmp, name)
	} else {
		err = publishNoReplace(root, tmp, name)
	}
	if err != nil {
		return err
	}
	if err = hook(StepRenamed); err != nil {
		return err
	}
	return FsyncDir(root, dir)
}

// publishNoReplace makes the file at tmp visible as name, failing with an
// error wrapping fs.ErrExist if name exists. On success tmp no longer exists.
func publishNoReplace(root *os.Root, tmp, name string) error {
	err := root.Link(tmp, name)
	if err == nil {
		// The data is published; a failure to drop the temporary name only
		// leaves a recognisable leftover with the same content.
		_ = root.Remove(tmp)
		return nil
	}
	if errors.Is(err, fs.ErrExist) || !linkUnsupported(err) {
		return err
	}
	if _, lerr := root.Lstat(name); lerr == nil {
		return &fs.PathError{Op: "writeatomic", Path: name, Err: fs.ErrExist}
	} else if !errors.Is(lerr, fs.ErrNotExist) {
		return lerr
	}
	return root.Rename(tmp, name)
}
