//go:build unix

package chromeproc

import (
	"os/exec"
	"syscall"
)

// SetProcessGroup starts the browser in its own process group so Close can
// end it and its children at once; on Linux the browser also gets SIGKILL
// when the program that started it dies (see parentDeathSignal).
func SetProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	parentDeathSignal(cmd.SysProcAttr)
}

// KillTree sends SIGKILL to the browser's process group and the browser.
func KillTree(pid int) {
	if pid <= 0 {
		return
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = syscall.Kill(pid, syscall.SIGKILL)
}
