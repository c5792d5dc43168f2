//go:build unix

package runwrite

import "syscall"

// canCreateIn reports, through access(2), whether this process may create
// entries in the directory dir (write and search permission, writable
// file system).
func canCreateIn(dir string) error {
	const wOK, xOK = 0x2, 0x1
	return syscall.Access(dir, wOK|xOK)
}
