//go:build linux

package bundle

import (
	"errors"
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

// renameat2 system call numbers; 0 where unknown (the portable fallback is
// used there).
func sysRenameat2() uintptr {
	switch runtime.GOARCH {
	case "amd64":
		return 316
	case "386":
		return 353
	case "arm64", "riscv64", "loong64":
		return 276
	case "arm":
		return 382
	case "ppc64", "ppc64le":
		return 357
	case "s390x":
		return 347
	case "mips64", "mips64le":
		return 5311
	case "mips", "mipsle":
		return 4351
	}
	return 0
}

// renameNoReplace renames the directory from to to, atomically failing
// with an error wrapping fs.ErrExist when to exists in any form
// (renameat2 with RENAME_NOREPLACE). Where the kernel or file system does
// not support that flag it falls back to renameFallback.
func renameNoReplace(from, to string) error {
	nr := sysRenameat2()
	if nr == 0 {
		return renameFallback(from, to)
	}
	pf, err := syscall.BytePtrFromString(from)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	pt, err := syscall.BytePtrFromString(to)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	const atFDCWD = -100
	const renameNoreplace = 1
	fd := atFDCWD
	_, _, errno := syscall.Syscall6(nr, uintptr(fd), uintptr(unsafe.Pointer(pf)),
		uintptr(fd), uintptr(unsafe.Pointer(pt)), renameNoreplace, 0)
	switch {
	case errno == 0:
		return nil
	case errors.Is(errno, syscall.ENOSYS), errors.Is(errno, syscall.EINVAL):
		return renameFallback(from, to)
	}
	return &os.LinkError{Op: "rename", Old: from, New: to, Err: errno}
}
