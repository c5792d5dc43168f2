package safefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Option configures [NewRunDir].
type Option func(*options)

type options struct {
	allowGitWorkTree bool
}

// AllowGitWorkTree lets [NewRunDir] create a directory inside a Git work
// tree. Vera's own callers never pass it for run evidence; it exists for
// tests and for hosts that deliberately keep runs under version control.
func AllowGitWorkTree() Option {
	return func(o *options) { o.allowGitWorkTree = true }
}

// MkdirExclusive creates the directory path with mode 0700 (enforced with
// Chmod, independent of the umask). Its parent must exist. If path already
// exists, in any form, it fails with an error wrapping [fs.ErrExist]: an
// existing directory is never reused.
func MkdirExclusive(path string) error {
	if path == "" {
		return &fs.PathError{Op: "mkdir", Path: path, Err: fs.ErrInvalid}
	}
	if err := os.Mkdir(path, 0o700); err != nil {
		return err
	}
	if err := os.Chmod(path, 0o700); err != nil {
		_ = os.Remove(path)
		return err
	}
	return nil
}

// NewRunDir creates a new, uniquely named directory under parent whose name
// starts with prefix, with mode 0700 enforced after creation, and returns its
// path (parent joined with the new name). An empty parent means
// [os.TempDir]. prefix must not contain a path separator.
//
// Unless [AllowGitWorkTree] is passed, NewRunDir refuses a parent that lies
// inside a Git work tree (see [InGitWorkTree]) with an error wrapping
// [ErrInGitWorkTree], before creating anything.
func NewRunDir(parent, prefix string, opts ...Option) (string, error) {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if parent == "" {
		parent = os.TempDir()
	}
	if strings.ContainsAny(prefix, `/\`) || strings.Contains(prefix, "*") {
		return "", &fs.PathError{Op: "newrundir", Path: prefix, Err: fs.ErrInvalid}
	}
	if !o.allowGitWorkTree {
		found, err := gitEntry(parent)
		if err != nil {
			return "", &fs.PathError{Op: "newrundir", Path: parent, Err: err}
		}
		if found != "" {
			return "", &fs.PathError{Op: "newrundir", Path: parent,
				Err: fmt.Errorf("%w (found %s)", ErrInGitWorkTree, found)}
		}
	}
	dir, err := os.MkdirTemp(parent, prefix+"*")
	if err != nil {
		return "", err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		_ = os.Remove(dir)
		return "", err
	}
	return dir, nil
}

// InGitWorkTree reports whether path, or any of its ancestors, contains a
// ".git" entry (a directory, or the file Git uses for linked work trees and
// submodules). path need not exist. When it exists and involves symbolic
// links, the ancestors of the resolved path are checked as well.
func InGitWorkTree(path string) (bool, error) {
	found, err := gitEntry(path)
	return found != "", err
}

// gitEntry returns the first ".git" entry found at or above path, or "".
func gitEntry(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	found, err := walkUp(abs)
	if found != "" || err != nil {
		return found, err
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil || resolved == abs {
		// A path that does not exist (yet) has nothing to resolve; its
		// lexical ancestors were checked above.
		return "", nil
	}
	return walkUp(resolved)
}

func walkUp(dir string) (string, error) {
	for {
		candidate := filepath.Join(dir, ".git")
		_, err := os.Lstat(candidate)
		switch {
		case err == nil:
			return candidate, nil
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
		default:
			return "", err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}
