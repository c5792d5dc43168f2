//go:build linux

package chromeproc

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// CountProcesses returns how many running processes name marker (for
// example [Process.Dir]) on their command line. Tests use it to prove that
// no browser process outlived Close. On systems without /proc it returns 0.
func CountProcesses(marker string) int { return scan(marker, false) }

// KillProcesses kills (SIGKILL) every running process that names marker on
// its command line and returns how many it found. It is the last resort of
// a test that found leftovers; [Process.Close] already does this for its
// own directory. On systems without /proc it returns 0.
func KillProcesses(marker string) int { return scan(marker, true) }

// killByMarker kills every process naming marker and returns how many it
// found. It catches helpers that left the browser's process group, such as
// a daemonized crash handler.
func killByMarker(marker string) int { return scan(marker, true) }

func scan(marker string, kill bool) int {
	if marker == "" {
		return 0
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	self := os.Getpid()
	m := []byte(marker)
	n := 0
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || !bytes.Contains(b, m) {
			continue
		}
		// A zombie has an empty command line, so it is never counted.
		n++
		if kill {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	return n
}
