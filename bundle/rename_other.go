//go:build !linux

package bundle

// renameNoReplace renames the directory from to to, failing when to
// exists; see renameFallback for the guarantee off Linux.
func renameNoReplace(from, to string) error { return renameFallback(from, to) }
