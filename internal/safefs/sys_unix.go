//go:build unix

package safefs

import (
	"errors"
	"syscall"
)

// openReadFlags are added to O_RDONLY when opening a file to read: a FIFO
// swapped in after the Lstat check must not block the open.
const openReadFlags = syscall.O_NONBLOCK

// linkUnsupported reports whether a link(2) error means the file system
// cannot create hard links here, as opposed to a real failure.
func linkUnsupported(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EOPNOTSUPP) ||
		errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EMLINK) ||
		errors.Is(err, syscall.EXDEV)
}
