//go:build linux

package browser

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// killByPathMarker kills every process whose command line mentions marker
// (the driver's unique temporary root) and returns how many it found. It
// catches helpers that left the browser's process group, such as the
// crash handler, which daemonizes.
func killByPathMarker(marker string) int {
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
		n++
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	return n
}
