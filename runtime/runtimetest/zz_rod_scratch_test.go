package runtimetest_test

import (
	"context"
	"testing"
	"time"

	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
	"github.com/vera-run/vera/runtime/runtimetest"
)

func TestZZRodConformance(t *testing.T) {
	runtimetest.TestDriver(t, func(t *testing.T, site *runtimetest.Site) runtime.Driver {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		d, err := browser.Launch(ctx)
		if err != nil {
			t.Skip(err)
		}
		return d
	})
}
