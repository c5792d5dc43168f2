package browser

import (
	"bytes"
	"os"
	"strconv"
)

// countByPathMarker counts live processes whose command line names marker.
func countByPathMarker(marker string) int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(b, []byte(marker)) {
			n++
		}
	}
	return n
}
