package safefs

import (
	"errors"
	"io/fs"
	"path"
)

var (
	// ErrInGitWorkTree reports that a run directory would be created inside a
	// Git work tree. Pass [AllowGitWorkTree] to override.
	ErrInGitWorkTree = errors.New("safefs: directory is inside a git work tree")

	// ErrSymlink reports that a name, or one of its path components, is a
	// symbolic link. safefs never reads through symbolic links.
	ErrSymlink = errors.New("safefs: refusing symbolic link")

	// ErrNotRegular reports that a name refers to something other than a
	// regular file (a directory, device, FIFO or socket).
	ErrNotRegular = errors.New("safefs: not a regular file")

	// ErrTooLarge reports that a file is larger than the limit given by the
	// caller.
	ErrTooLarge = errors.New("safefs: file exceeds size limit")

	// ErrChanged reports that the file opened is not the file that was
	// checked a moment before, i.e. the name was swapped concurrently.
	ErrChanged = errors.New("safefs: file changed while opening")
)

// checkName validates a root-relative, slash-separated name.
func checkName(op, name string) error {
	if name == "." || !fs.ValidPath(name) {
		return &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return nil
}

// dirOf returns the root-relative directory of a valid name ("." for a top
// level name).
func dirOf(name string) string {
	return path.Dir(name)
}
