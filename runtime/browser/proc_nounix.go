//go:build !unix

package browser

import (
	"os"
	"os/exec"
)

func setProcAttr(*exec.Cmd) {}

// killTree kills the browser process; without process groups its children
// end when their parent's pipe closes.
func killTree(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
