package safefs

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"sync"
)

// HashBufferSize is the size of the fixed buffer [HashFile] streams through.
const HashBufferSize = 1 << 20

var hashBufs = sync.Pool{New: func() any {
	b := make([]byte, HashBufferSize)
	return &b
}}

// openRegular opens name in root for reading after checking, component by
// component, that no part of it is a symbolic link and that the final
// element is a regular file; it then verifies the opened file is the one
// checked.
func openRegular(op string, root *os.Root, name string) (*os.File, fs.FileInfo, error) {
	if root == nil {
		return nil, nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if err := checkName(op, name); err != nil {
		return nil, nil, err
	}
	var fi fs.FileInfo
	for i := 0; i <= len(name); i++ {
		if i < len(name) && name[i] != '/' {
			continue
		}
		prefix := name[:i]
		var err error
		fi, err = root.Lstat(prefix)
		if err != nil {
			return nil, nil, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, nil, &fs.PathError{Op: op, Path: prefix, Err: ErrSymlink}
		}
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, &fs.PathError{Op: op, Path: name, Err: ErrNotRegular}
	}
	f, err := root.OpenFile(name, os.O_RDONLY|openReadFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	if !st.Mode().IsRegular() {
		_ = f.Close()
		return nil, nil, &fs.PathError{Op: op, Path: name, Err: ErrNotRegular}
	}
	if !os.SameFile(fi, st) {
		_ = f.Close()
		return nil, nil, &fs.PathError{Op: op, Path: name, Err: ErrChanged}
	}
	return f, st, nil
}

// ReadFileLimited reads the regular file name inside root, refusing
// symbolic links ([ErrSymlink], for any path component) and non-regular files
// ([ErrNotRegular]). It reads at most max+1 bytes and fails with
// [ErrTooLarge] if the file holds more than max bytes. A negative max is
// invalid.
func ReadFileLimited(root *os.Root, name string, max int64) ([]byte, error) {
	const op = "readlimited"
	if max < 0 {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	f, st, err := openRegular(op, root, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st.Size() > max {
		return nil, &fs.PathError{Op: op, Path: name, Err: ErrTooLarge}
	}
	// Size the buffer from the stat result (bounded by max) so a file that
	// does not change is read without regrowing.
	buf := make([]byte, 0, st.Size()+1)
	lr := &io.LimitedReader{R: f, N: max + 1}
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, rerr := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return nil, rerr
		}
	}
	if int64(len(buf)) > max {
		return nil, &fs.PathError{Op: op, Path: name, Err: ErrTooLarge}
	}
	return buf, nil
}

// HashFile streams the regular file name inside root through SHA-256 and
// returns its digest as "sha256:" followed by 64 lowercase hex digits, and its
// size. It applies the same symlink and file-type checks as
// [ReadFileLimited], reads at most expectedSize+1 bytes through a fixed
// [HashBufferSize] buffer and fails with [ErrTooLarge] if the file is longer
// than expectedSize. A shorter file is not an error: compare the returned
// size. A negative expectedSize is invalid.
func HashFile(root *os.Root, name string, expectedSize int64) (digest string, size int64, err error) {
	const op = "hashfile"
	if expectedSize < 0 {
		return "", 0, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	f, st, err := openRegular(op, root, name)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	if st.Size() > expectedSize {
		return "", 0, &fs.PathError{Op: op, Path: name, Err: ErrTooLarge}
	}
	bp := hashBufs.Get().(*[]byte)
	defer hashBufs.Put(bp)
	h := sha256.New()
	n, err := io.CopyBuffer(h, &io.LimitedReader{R: f, N: expectedSize + 1}, *bp)
	if err != nil {
		return "", 0, err
	}
	if n > expectedSize {
		return "", 0, &fs.PathError{Op: op, Path: name, Err: ErrTooLarge}
	}
	var sum [sha256.Size]byte
	return "sha256:" + hex.EncodeToString(h.Sum(sum[:0])), n, nil
}
