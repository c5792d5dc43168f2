package runwrite

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/vera-run/vera/internal/runrule"
	"github.com/vera-run/vera/internal/safefs"
	"github.com/vera-run/vera/receipt"
)

const probeName = ".vera-write-probe"

// ReserveRunDir checks parent as the home of run directories and reserves
// a fresh, empty, owner-only (0700) run directory in it, whose path it
// returns; [WriteReserved] later fills exactly that directory. It performs
// every check that can be made before a run, so a caller can refuse a run
// before its first side effect, and returns a [*receipt.RunDirError] naming the
// failed check:
//
//   - location: parent is empty or cannot be made absolute;
//   - git_work_tree: parent is inside a Git work tree (lexical ancestors,
//     and the resolved ancestors of its nearest existing ancestor), unless
//     [WithAllowGitWorkTree] is given;
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
func ReserveRunDir(parent string, opts ...Option) (string, error) {
	var cfg config
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if parent == "" {
		return "", &receipt.RunDirError{Check: receipt.RunDirLocation, Detail: "empty path"}
	}
	abs, err := filepath.Abs(parent)
	if err != nil {
		return "", &receipt.RunDirError{Check: receipt.RunDirLocation, Path: parent, Err: err}
	}
	// Walk the components from the root: find the nearest existing
	// ancestor and refuse links and non-directories on the way.
	existing, missing, rerr := splitExisting(abs)
	if rerr != nil {
		return "", rerr
	}
	if !cfg.allowGit {
		if found, err := gitEntryOf(abs, existing); err != nil {
			return "", &receipt.RunDirError{Check: receipt.RunDirGitWorkTree, Path: abs, Err: err}
		} else if found != "" {
			return "", &receipt.RunDirError{Check: receipt.RunDirGitWorkTree, Path: abs, Detail: "found " + found, Err: safefs.ErrInGitWorkTree}
		}
	}
	if err := canCreateIn(existing); err != nil {
		return "", &receipt.RunDirError{Check: receipt.RunDirPermission, Path: existing, Err: err}
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
			return "", &receipt.RunDirError{Check: receipt.RunDirReserve, Path: cur, Err: err}
		}
		created = append(created, cur)
	}
	var dir string
	if cfg.name != "" {
		if !runrule.ValidRunID(cfg.name) || strings.Trim(cfg.name, ".") == "" {
			undo()
			return "", &receipt.RunDirError{Check: receipt.RunDirReserve, Path: abs, Detail: "run directory name is not a run id (1 to 128 bytes of A-Z a-z 0-9 . _ -, not all dots)"}
		}
		dir = filepath.Join(abs, cfg.name)
		err = safefs.MkdirExclusive(dir)
	} else {
		sopts := []safefs.Option{safefs.AllowGitWorkTree()} // checked above, with the nearest existing ancestor resolved
		dir, err = safefs.NewRunDir(abs, "run-", sopts...)
	}
	if err != nil {
		undo()
		return "", &receipt.RunDirError{Check: receipt.RunDirReserve, Path: abs, Err: err}
	}
	if err := probe(dir); err != nil {
		_ = os.RemoveAll(dir)
		undo()
		return "", &receipt.RunDirError{Check: receipt.RunDirWritable, Path: dir, Err: err}
	}
	return dir, nil
}

// splitExisting returns the longest existing prefix of abs (a directory)
// and the names below it that do not exist yet.
func splitExisting(abs string) (string, []string, *receipt.RunDirError) {
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
			return "", nil, &receipt.RunDirError{Check: receipt.RunDirPermission, Path: next, Err: err}
		}
		last := i == len(parts)-1
		if fi.Mode()&fs.ModeSymlink != 0 {
			if last {
				return "", nil, &receipt.RunDirError{Check: receipt.RunDirSymlink, Path: next, Detail: "the run folder is a symbolic link", Err: safefs.ErrSymlink}
			}
			st, err := os.Stat(next)
			if errors.Is(err, fs.ErrNotExist) {
				return "", nil, &receipt.RunDirError{Check: receipt.RunDirSymlink, Path: next, Detail: "dangling symbolic link", Err: safefs.ErrSymlink}
			}
			if err != nil {
				return "", nil, &receipt.RunDirError{Check: receipt.RunDirSymlink, Path: next, Err: err}
			}
			fi = st
		}
		if !fi.IsDir() {
			return "", nil, &receipt.RunDirError{Check: receipt.RunDirNotDirectory, Path: next, Detail: "exists and is not a directory (" + fi.Mode().Type().String() + ")"}
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
// without run.lock.json, which receipt.VerifyRun reports as receipt.ErrIncomplete).
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
