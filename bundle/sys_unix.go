//go:build unix

package bundle

import "syscall"

// openReadFlags are added to O_RDONLY when opening a file to read: a FIFO
// swapped in after the Lstat check must not block the open.
const openReadFlags = syscall.O_NONBLOCK
