//go:build !unix

package chromeproc

import (
	"os"
	"os/exec"
)

// SetProcessGroup does nothing where there are no process groups.
func SetProcessGroup(*exec.Cmd) {}

// KillTree kills the browser process; without process groups its helpers
// end when their parent does.
func KillTree(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
