//go:build !unix

package chromeproc

import (
	"os"
	"os/exec"
)

func setProcAttr(*exec.Cmd) {}

// killTree kills the browser process; without process groups its helpers
// end when their parent does.
func killTree(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
