package runtimetest_test

import (
	"testing"

	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

func TestFakeConformance(t *testing.T) {
	runtimetest.TestDriver(t, func(t *testing.T, site *runtimetest.Site) runtime.Driver {
		return runtimetest.NewDriver(site)
	})
}

func TestFakeConformanceDirectoryRoute(t *testing.T) {
	runtimetest.TestDriver(t, func(t *testing.T, site *runtimetest.Site) runtime.Driver {
		return runtimetest.NewDriver(site, runtimetest.WithDownloadDirectory(t.TempDir()))
	})
}
