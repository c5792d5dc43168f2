//go:build linux

package bundle

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// renameNoReplace renames the directory from to to, atomically failing
// with an error wrapping fs.ErrExist when to exists in any form
// (renameat2 with RENAME_NOREPLACE). Where the kernel or file system does
// not support that flag it falls back to renameFallback.
func renameNoReplace(from, to string) error {
	err := unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EINVAL):
		return renameFallback(from, to)
	}
	return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
}
