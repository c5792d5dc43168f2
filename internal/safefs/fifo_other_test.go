//go:build !unix

package safefs_test

import "errors"

func makeFIFO(path string) error { return errors.New("no FIFOs") }
