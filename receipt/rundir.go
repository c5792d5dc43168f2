package receipt

import (
	"errors"
)

// ErrRunDir is matched by every [*RunDirError]: the parent folder of run
// directories was refused before anything was written.
var ErrRunDir = errors.New("receipt: run folder refused")

// RunDirCheck names the check that refused a run folder (the runtime
// reserves each run's directory before its first browser call; see
// runtime.ErrRunDir).
type RunDirCheck string

// The run-folder checks, in the order they are applied.
const (
	// RunDirLocation: the path is empty or cannot be made absolute.
	RunDirLocation RunDirCheck = "location"
	// RunDirGitWorkTree: the folder, an ancestor, or the resolved location
	// of its nearest existing ancestor is inside a Git work tree and
	// runtime.WithAllowGitWorkTree was not given.
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
