//go:build !unix

package runtime_test

import "time"

// cpuTime is unavailable here; the cpu-ns/action metric reads 0.
func cpuTime() time.Duration { return 0 }
