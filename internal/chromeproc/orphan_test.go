package chromeproc_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/vera-run/vera/internal/chromeproc"
)

// envOrphanHelper makes the test binary a program that starts a browser,
// prints its directory and waits to be killed (TestParentDeathKillsBrowser).
const envOrphanHelper = "VERA_CHROMEPROC_ORPHAN_HELPER"

func orphanHelper() {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := chromeproc.Start(ctx)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(2)
	}
	fmt.Println("dir:", p.Dir())
	select {}
}
