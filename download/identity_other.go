//go:build !unix

package download

import (
	"io/fs"
	"os"
)

// openFlags are the flags used to open a candidate for hashing. Platforms
// without O_NOFOLLOW rely on the Lstat before and after hashing.
const openFlags = os.O_RDONLY

// lockFlags opens (creating) the lock file.
const lockFlags = os.O_CREATE | os.O_RDONLY

// devIno is unavailable from a FileInfo on this platform: identity falls
// back to size, modification time and mode.
func devIno(fs.FileInfo) (uint64, uint64) { return 0, 0 }
