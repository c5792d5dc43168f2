package receipt

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vera-run/vera/internal/safefs"
)

// ErrRunDir is matched by every [*RunDirError]: the parent folder of run
// directories was refused before anything was written.
var ErrRunDir = errors.New("receipt: run folder refused")

// RunDirCheck names the check of [ReserveRunDir] that refused a folder.
type RunDirCheck string

// The run-folder checks, in the order [ReserveRunDir] applies them.
const (
	// RunDirLocation: the path is empty or cannot be made absolute.
	RunDirLocation RunDirCheck = "location"
	// RunDirGitWorkTree: the folder, an ancestor, or the resolved location
	// of its nearest existing ancestor is inside a Git work tree and
	// [AllowGitWorkTree] was not given.
	RunDirGitWorkTree RunDirCheck = "git_work_tree"
	// RunDirSymlink: a path component is a dangling symbolic link, or the
	// folder itself is a symbolic link.
	RunDirSymlink RunDirCheck = "symlink"
	// RunDirNotDirectory: the folder, or an ancestor, exists and is not a
	// directory (a regular file, a device, a link to a file).
	RunDirNotDirectory RunDirCheck = "not_directory"
	// RunDirPermission: the nearest existing folder does not let this
	// process create entries (no write or search permission, a read-only
	// file system).
	RunDirPermission RunDirCheck = "permission"
	// RunDirReserve: no fresh run directory could be created.
	RunDirReserve RunDirCheck = "reserve"
	// RunDirWritable: the fresh run directory did not accept a probe file.
	RunDirWritable RunDirCheck = "writable"
)

// RunDirError reports which check refused a run folder. It matches
// [ErrRunDir] with errors.Is and unwraps to the underlying cause (for
// example [fs.ErrPermission] or [fs.ErrNotExist]) when there is one.
type RunDirError struct {
	Check RunDirCheck
	// Path is the path component the check refused.
	Path string
	// Detail says what was found, without file contents.
	Detail string
	Err    error
}

// Error implements error.
func (e *RunDirError) Error() string {
	s := "receipt: run folder refused [" + string(e.Check) + "]: " + e.Path
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Is matches [ErrRunDir].
func (e *RunDirError) Is(target error) bool { return target == ErrRunDir }

// Unwrap returns the cause.
func (e *RunDirError) Unwrap() error { return e.Err }

const probeName = ".vera-write-probe"

// ReserveRunDir checks parent as the home of run directories and reserves
// a fresh, empty, owner-only (0700) run directory in it, whose path it
// returns; [WriteReserved] later fills exactly that directory. It performs
// every check that can be made before a run, so a caller can refuse a run
// before its first side effect, and returns a [*RunDirError] naming the
// failed check:
//
//   - location: parent is empty or cannot be made absolute;
//   - git_work_tree: parent is inside a Git work tree (lexical ancestors,
//     and the resolved ancestors of its nearest existing ancestor), unless
//     [AllowGitWorkTree] is given;
//   - symlink: a component of parent is a dangling symbolic link, or
//     parent itself is a symbolic link (ancestors that are links to
//     directories, such as /var on macOS, are followed);
//   - not_directory: parent or an ancestor exists and is not a directory;
//   - permission: the nearest existing ancestor does not allow creating
//     entries (permission bits, read-only file system);
//   - reserve: the fresh directory could not be created;
//   - writable: the fresh directory did not accept a probe file (created,
//     written, synced and removed again).
//
// Missing ancestors of parent are created (0700). On any failure
// everything ReserveRunDir created is removed again: nothing is left
// behind.
func ReserveRunDir(parent string, opts ...WriteOption) (string, error) {
	var cfg writeConfig
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if parent == "" {
		return "", &RunDirError{Check: RunDirLocation, Detail: "empty path"}
	}
	abs, err := filepath.Abs(parent)
	if err != nil {
		return "", &RunDirError{Check: RunDirLocation, Path: parent, Err: err}
	}
	// Walk the components from the root: find the nearest existing
	// ancestor and refuse links and non-directories on the way.
	existing, missing, rerr := splitExisting(abs)
	if rerr != nil {
		return "", rerr
	}
	if !cfg.allowGit {
		if found, err := gitEntryOf(abs, existing); err != nil {
			return "", &RunDirError{Check: RunDirGitWorkTree, Path: abs, Err: err}
		} else if found != "" {
			return "", &RunDirError{Check: RunDirGitWorkTree, Path: abs, Detail: "found " + found, Err: safefs.ErrInGitWorkTree}
		}
	}
	if err := canCreateIn(existing); err != nil {
		return "", &RunDirError{Check: RunDirPermission, Path: existing, Err: err}
	}
	// Create the missing ancestors, remembering them to undo on failure.
	var created []string
	undo := func() {
		for i := len(created) - 1; i >= 0; i-- {
			_ = os.Remove(created[i])
		}
	}
	cur := existing
	for _, name := range missing {
		cur = filepath.Join(cur, name)
		if err := safefs.MkdirExclusive(cur); err != nil {
			undo()
			return "", &RunDirError{Check: RunDirReserve, Path: cur, Err: err}
		}
		created = append(created, cur)
	}
	var dir string
	if cfg.name != "" {
		if !validRunID(cfg.name) || strings.Trim(cfg.name, ".") == "" {
			undo()
			return "", &RunDirError{Check: RunDirReserve, Path: abs, Detail: "run directory name is not a run id (1 to 128 bytes of A-Z a-z 0-9 . _ -, not all dots)"}
		}
		dir = filepath.Join(abs, cfg.name)
		err = safefs.MkdirExclusive(dir)
	} else {
		sopts := []safefs.Option{safefs.AllowGitWorkTree()} // checked above, with the nearest existing ancestor resolved
		dir, err = safefs.NewRunDir(abs, "run-", sopts...)
	}
	if err != nil {
		undo()
		return "", &RunDirError{Check: RunDirReserve, Path: abs, Err: err}
	}
	if err := probe(dir); err != nil {
		_ = os.RemoveAll(dir)
		undo()
		return "", &RunDirError{Check: RunDirWritable, Path: dir, Err: err}
	}
	return dir, nil
}

// splitExisting returns the longest existing prefix of abs (a directory)
// and the names below it that do not exist yet.
func splitExisting(abs string) (string, []string, *RunDirError) {
	vol := filepath.VolumeName(abs)
	rest := strings.TrimPrefix(abs[len(vol):], string(filepath.Separator))
	cur := vol + string(filepath.Separator)
	var parts []string
	if rest != "" {
		parts = strings.Split(rest, string(filepath.Separator))
	}
	for i, name := range parts {
		next := filepath.Join(cur, name)
		fi, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			return cur, parts[i:], nil
		}
		if err != nil {
			return "", nil, &RunDirError{Check: RunDirPermission, Path: next, Err: err}
		}
		last := i == len(parts)-1
		if fi.Mode()&fs.ModeSymlink != 0 {
			if last {
				return "", nil, &RunDirError{Check: RunDirSymlink, Path: next, Detail: "the run folder is a symbolic link", Err: safefs.ErrSymlink}
			}
			st, err := os.Stat(next)
			if errors.Is(err, fs.ErrNotExist) {
				return "", nil, &RunDirError{Check: RunDirSymlink, Path: next, Detail: "dangling symbolic link", Err: safefs.ErrSymlink}
			}
			if err != nil {
				return "", nil, &RunDirError{Check: RunDirSymlink, Path: next, Err: err}
			}
			fi = st
		}
		if !fi.IsDir() {
			return "", nil, &RunDirError{Check: RunDirNotDirectory, Path: next, Detail: "exists and is not a directory (" + fi.Mode().Type().String() + ")"}
		}
		cur = next
	}
	return cur, nil, nil
}

// gitEntryOf is the Git rule: a ".git" entry at or above abs lexically,
// or above the resolved nearest existing ancestor.
func gitEntryOf(abs, existing string) (string, error) {
	for _, p := range []string{abs, existing} {
		found, err := gitAbove(p)
		if found != "" || err != nil {
			return found, err
		}
	}
	resolved, err := filepath.EvalSymlinks(existing)
	if err != nil {
		return "", err
	}
	return gitAbove(resolved)
}

func gitAbove(p string) (string, error) {
	in, err := safefs.InGitWorkTree(p)
	if err != nil || !in {
		return "", err
	}
	// Name the entry for the message.
	for dir := p; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return filepath.Join(dir, ".git"), nil
		}
		if filepath.Dir(dir) == dir {
			return p, nil
		}
	}
}

// probe creates, writes, syncs and removes one file in dir.
func probe(dir string) error {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	f, err := root.OpenFile(probeName, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write([]byte("{}"))
	serr := f.Sync()
	cerr := f.Close()
	rmerr := root.Remove(probeName)
	return errors.Join(werr, serr, cerr, rmerr)
}

// WriteReserved writes run into dir, a directory [ReserveRunDir] returned
// that is still empty, in the order and with the guarantees of
// [WriteRun], and returns the receipt's hash. dir must be a real
// directory (not a symbolic link) holding no entry; anything else fails
// with an error wrapping [ErrWrite] and nothing is written. When a file
// cannot be written, the files written before it stay (an incomplete run
// without run.lock.json, which [VerifyRun] reports as [ErrIncomplete]).
func WriteReserved(dir string, run *Run) (receiptHash string, err error) {
	if err := prepareRun(run); err != nil {
		return "", err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrWrite, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%w: %s is not a directory (%s)", ErrWrite, dir, fi.Mode().Type())
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrWrite, err)
	}
	defer root.Close()
	f, err := root.Open(".")
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrWrite, err)
	}
	names, err := f.Readdirnames(1)
	_ = f.Close()
	if len(names) > 0 {
		return "", fmt.Errorf("%w: reserved run directory %s is not empty", ErrWrite, dir)
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("%w: %w", ErrWrite, err)
	}
	return writeFiles(root, run)
}
