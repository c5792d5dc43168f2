//go:build !unix

package runwrite

// canCreateIn has no portable permission check outside Unix; the probe
// file of [ReserveRunDir] still proves the directory writable.
func canCreateIn(dir string) error { return nil }
