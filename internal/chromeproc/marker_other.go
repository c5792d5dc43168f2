//go:build !linux

package chromeproc

// CountProcesses returns how many running processes name marker on their
// command line. Without /proc it cannot tell and returns 0.
func CountProcesses(marker string) int { return 0 }

func killByMarker(string) int { return 0 }

// KillProcesses kills every running process that names marker on its
// command line. Without /proc it cannot find them and returns 0.
func KillProcesses(marker string) int { return 0 }
