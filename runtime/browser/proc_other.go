//go:build !linux

package browser

// killByPathMarker is a no-op where /proc is unavailable; the process
// group kill is all Close can do there.
func killByPathMarker(string) int { return 0 }
