package browser

import (
	"strconv"
	"testing"
	"time"
)

// BenchmarkBrowserNewDriverIdle measures opening (and closing) one
// driver of a launched Browser while 0 or 16 other drivers of it sit
// idle (issue 18: every new target waited for every open driver's
// connection). The Browser keeps no spare (WithSpare(false)), so every
// iteration opens a driver. Compare the two sub-benchmarks side by side:
//
//	VERA_REQUIRE_BROWSER=1 go test ./runtime/browser -run '^$' -bench BrowserNewDriverIdle -benchtime 10x
func BenchmarkBrowserNewDriverIdle(b *testing.B) {
	bin := requireBrowser(b)
	br, err := LaunchBrowser(tctx(b, 60*time.Second), WithBrowserPath(bin), WithSpare(false))
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	var idle []*Driver
	defer func() {
		for _, d := range idle {
			_ = d.Close()
		}
	}()
	for _, k := range []int{0, 16} {
		for len(idle) < k {
			d, err := br.NewDriver(tctx(b, 60*time.Second))
			if err != nil {
				b.Fatal(err)
			}
			idle = append(idle, d)
		}
		b.Run("idle="+strconv.Itoa(k), func(b *testing.B) {
			for b.Loop() {
				d, err := br.NewDriver(tctx(b, 60*time.Second))
				if err != nil {
					b.Fatal(err)
				}
				_ = d.Close()
			}
		})
	}
}
