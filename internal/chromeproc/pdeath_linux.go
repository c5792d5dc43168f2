//go:build linux

package chromeproc

import "syscall"

// parentDeathSignal asks the kernel to SIGKILL the browser when the
// program that started it dies, even by SIGKILL, which runs no Close: a
// host that crashed left its Chromium running before. The kernel sends
// it when the thread that started the browser exits, so Start starts and
// waits for the browser on one locked thread. The browser's renderers
// and helpers end with it; the temporary directory stays (nothing runs
// to delete it).
func parentDeathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
