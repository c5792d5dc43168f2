//go:build !unix

package safefs

import (
	"errors"
	"io/fs"
)

const openReadFlags = 0

// linkUnsupported treats every link failure other than "exists" or
// "permission" as lack of hard-link support on non-Unix systems.
func linkUnsupported(err error) bool {
	return !errors.Is(err, fs.ErrPermission)
}
