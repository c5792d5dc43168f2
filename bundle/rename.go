package bundle

import (
	"errors"
	"io/fs"
	"os"
)

// renameFallback checks that to does not exist and renames from to to.
// rename(2) itself refuses a destination that is a file or a non-empty
// directory (and Windows refuses any existing directory), so the only race
// left between the check and the rename is another process creating an
// empty directory at to, which the rename would replace: no content is
// ever lost.
func renameFallback(from, to string) error {
	if _, err := os.Lstat(to); err == nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: fs.ErrExist}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.Rename(from, to)
}
