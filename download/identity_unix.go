//go:build unix

package download

import (
	"io/fs"
	"os"
	"syscall"
)

// openFlags are the flags used to open a candidate for hashing. O_NOFOLLOW
// rejects a symlink swapped in after the Lstat, and O_NONBLOCK keeps a FIFO
// swapped in from blocking the open; the fstat identity check rejects both.
const openFlags = os.O_RDONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// lockFlags opens the lock file without following a planted symlink.
const lockFlags = os.O_CREATE | os.O_RDONLY | syscall.O_NOFOLLOW

func devIno(fi fs.FileInfo) (uint64, uint64) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st == nil {
		return 0, 0
	}
	return uint64(st.Dev), uint64(st.Ino) //nolint:unconvert // Dev is int32 on darwin
}
