package download

import (
	"io/fs"
)

// identity is what "the same file" means during observation: device and
// inode (zero where the platform does not expose them), byte size,
// modification time in nanoseconds and the file mode (type and permission).
type identity struct {
	dev   uint64
	ino   uint64
	size  int64
	mtime int64
	mode  fs.FileMode
}

func identityOf(fi fs.FileInfo) identity {
	dev, ino := devIno(fi)
	return identity{
		dev:   dev,
		ino:   ino,
		size:  fi.Size(),
		mtime: fi.ModTime().UnixNano(),
		mode:  fi.Mode(),
	}
}

// sameObject reports whether a and b are the same file system object
// (device, inode and type), ignoring content changes.
func (a identity) sameObject(b identity) bool {
	return a.dev == b.dev && a.ino == b.ino && a.mode.Type() == b.mode.Type()
}

// regular reports whether the identity is a regular file.
func (a identity) regular() bool { return a.mode.IsRegular() }

// hasInode reports whether the platform provided a device/inode pair.
func (a identity) hasInode() bool { return a.dev != 0 || a.ino != 0 }
