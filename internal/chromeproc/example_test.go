package chromeproc_test

import (
	"context"
	"fmt"
	"time"

	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/runtime/browser"
)

// Start an operator-like Chromium and connect to it, as the quickstart
// does. Compile-only: it needs a browser.
func ExampleStart() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := chromeproc.Start(ctx)
	if err != nil {
		fmt.Println(err) // names what to install when no browser is found
		return
	}
	defer p.Close() // kills the browser and its helpers, deletes the profile

	d, err := browser.Connect(ctx, p.Endpoint())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer d.Close() // disconnects; the browser stays up until p.Close
	fmt.Println(d.Info().Mode)
}
