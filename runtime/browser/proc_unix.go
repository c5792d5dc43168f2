//go:build unix

package browser

import (
	"os/exec"
	"syscall"
)

// setProcAttr starts the browser in its own process group so that Close
// can end it and all of its children at once.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killTree sends SIGKILL to the browser's process group and to the browser.
func killTree(pid int) {
	if pid <= 0 {
		return
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = syscall.Kill(pid, syscall.SIGKILL)
}
