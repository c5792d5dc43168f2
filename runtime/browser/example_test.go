package browser_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
)

// Launch a provider-owned headless Chromium, restrict it to one origin
// and read a heading. (Compile-only: it needs Chromium.)
func ExampleLaunch() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := browser.Launch(ctx, browser.WithBrowserPath("/usr/bin/chromium"))
	if err != nil {
		log.Fatal(err) // wraps runtime.ErrBrowserUnavailable or ErrBrowserLaunchFailed
	}
	defer d.Close()
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{"http://127.0.0.1:4010"}}); err != nil {
		log.Fatal(err)
	}
	if err := d.Navigate(ctx, "http://127.0.0.1:4010/login"); err != nil {
		log.Fatal(err)
	}
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		log.Fatal(err)
	}
	els, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.Role, Role: "heading", Name: "Teller console", Exact: true})
	if err != nil || len(els) != 1 {
		log.Fatal(err)
	}
	text, _ := d.Read(ctx, els[0], runtime.Read{Kind: runtime.ReadText})
	fmt.Println(text)
}

// Connect to an operator's Chrome started with
// --remote-debugging-port=9222 and run a capability in it; Close leaves
// that Chrome running. (Compile-only.)
func ExampleConnect() {
	ctx := context.Background()
	d, err := browser.Connect(ctx, "http://127.0.0.1:9222")
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	fmt.Println(d.Info().Mode) // live_connected_chrome
	// res, err := runtime.Execute(ctx, capability, inputs, runtime.WithDriver(d))
}

// Connect to a remote browser grid with a smaller read limit, and tell a
// connection the endpoint broke from one it closed. (Compile-only.)
func ExampleWithMaxMessageBytes() {
	ctx := context.Background()
	d, err := browser.Connect(ctx, "wss://grid.example.com/devtools/browser/abc",
		browser.WithRemoteEndpoint(), browser.WithMaxMessageBytes(32<<20))
	var pe *browser.ProtocolError
	var ce *browser.CloseError
	switch {
	case errors.As(err, &pe):
		log.Fatalf("the endpoint is not speaking CDP: %s", pe.Reason)
	case errors.As(err, &ce):
		log.Fatalf("the endpoint closed the connection: status %d", ce.Code)
	case errors.Is(err, browser.ErrEndpointStalled):
		log.Fatal("the endpoint stopped answering")
	case err != nil:
		log.Fatal(err)
	}
	defer d.Close()
	// During a run the same errors come wrapped in runtime.ErrBrowserCrashed.
}

// Resolve a nested cross-origin frame path and search inside it.
// (Compile-only.)
func ExampleDriver_Frame() {
	ctx := context.Background()
	d, err := browser.Launch(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	if err := d.Navigate(ctx, "http://127.0.0.1:4020/billing"); err != nil {
		log.Fatal(err)
	}
	ledger, frames, err := d.Frame(ctx, []string{"iframe#workspace", "iframe#ledger"})
	if err != nil {
		log.Fatal(err) // runtime.ErrFrameNotFound, ErrFrameAmbiguous, ...
	}
	for _, f := range frames {
		fmt.Println(f.Selector, f.Origin)
	}
	rows, _ := d.Find(ctx, ledger, nil, locator.Candidate{Strategy: locator.CSS, CSS: "tr.invoice-row:visible"})
	fmt.Println(len(rows))
}

// Arm a download listener before the click that starts the download.
// (Compile-only.)
func ExampleDriver_ArmDownload() {
	ctx := context.Background()
	d, err := browser.Launch(ctx, browser.WithDownloadDirectory("/var/tmp/exports"))
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	var exportButton runtime.Element // from d.Find
	p, err := d.ArmDownload(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	if err := d.Act(ctx, exportButton, runtime.Act{Kind: runtime.ActClick}); err != nil {
		log.Fatal(err)
	}
	ev, err := p.Wait(ctx) // runtime.ErrDownloadEventMissing when nothing started
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ev.State, ev.Path)
}

// Explain why a recorded candidate misses on a live page: Chromium names
// a Swagger UI button showing GET /api/pets/{petId} (with <wbr> breaks)
// "GET /api /pets /{petId} Info for a specific pet", so the exact name an
// author typed matches nothing. (Compile-only: it needs Chromium.)
func ExampleDriver_ExplainLocator() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := browser.Launch(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{"http://127.0.0.1:4020"}}); err != nil {
		log.Fatal(err)
	}
	if err := d.Navigate(ctx, "http://127.0.0.1:4020/docs"); err != nil {
		log.Fatal(err)
	}
	ex, err := d.ExplainLocator(ctx, nil, locator.Candidate{Strategy: locator.Role, Role: "button", Name: "GET /api/pets/{petId}", Exact: true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ex.Candidate, "matches", ex.Matches)
	for _, n := range ex.Nearest {
		fmt.Println(" ", n) // "GET /api /pets /{petId} Info for a specific pet" (whitespace, extra_text)
	}
}

// Start a local Chromium to stand in for an operator's browser, connect
// to it and close both: closing the Driver leaves the browser running;
// closing the LocalBrowser ends every process it started and deletes its
// profile. (Compile-only: it needs Chromium.)
func ExampleStartLocal() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	chrome, err := browser.StartLocal(ctx, browser.WithExtraFlags("--lang=en-US"))
	if err != nil {
		log.Fatal(err) // wraps runtime.ErrBrowserUnavailable or ErrBrowserLaunchFailed
	}
	defer chrome.Close()
	d, err := browser.Connect(ctx, chrome.Endpoint())
	if err != nil {
		log.Fatal(err)
	}
	defer d.Close()
	fmt.Println(d.Info().Mode, chrome.ProfileDir() != "") // live_connected_chrome true
	// res, err := runtime.Execute(ctx, capability, inputs, runtime.WithDriver(d))
}

// Run the same capability at a phone-sized and a desktop-sized viewport
// in one operator's Chrome: each driver's page (and its popups) lays out
// at its own size; the operator's windows are not resized. A size
// outside 1..1920 x 1..1600 is refused before the browser is contacted.
// (Compile-only.)
func ExampleWithViewport() {
	ctx := context.Background()
	for _, size := range [][2]int{{414, 800}, {1280, 800}} {
		d, err := browser.Connect(ctx, "http://127.0.0.1:9222", browser.WithViewport(size[0], size[1]))
		if errors.Is(err, browser.ErrInvalidOption) {
			log.Fatal(err) // names WithViewport and the limits
		} else if err != nil {
			log.Fatal(err)
		}
		// res, err := runtime.Execute(ctx, capability, inputs, runtime.WithDriver(d))
		d.Close()
	}
}

// Launch one Chromium and run several capabilities at once, each in a
// driver (and browser context) of its own. One Driver is never shared
// between concurrent runs: runtime.Execute refuses that with
// runtime.ErrDriverBusy. (Compile-only.)
func ExampleLaunchBrowser() {
	ctx := context.Background()
	b, err := browser.LaunchBrowser(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close() // closes any driver still open, then the browser
	done := make(chan error)
	for range 4 {
		go func() {
			d, err := b.NewDriver(ctx)
			if err != nil {
				done <- err
				return
			}
			defer d.Close()
			// _, err = runtime.Execute(ctx, capability, inputs, runtime.WithDriver(d))
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			log.Print(err)
		}
	}
}

// A host that runs capabilities one after another keeps a spare: the
// Browser opens the next run's driver (connection, browser context, page)
// when the last one closes, so a run that starts after a pause does not
// wait for a new page. A launched Browser keeps one by default; a
// connected one (an operator's Chrome, a grid) only when asked, as here.
// (Compile-only.)
func ExampleWithSpare() {
	ctx := context.Background()
	b, err := browser.ConnectBrowser(ctx, "http://127.0.0.1:9222", browser.WithSpare(true))
	if err != nil {
		log.Fatal(err)
	}
	defer b.Close() // closes the spare's browser context too
	for range 3 {
		d, err := b.NewDriver(ctx) // the spare, once its open ended
		if err != nil {
			log.Fatal(err)
		}
		// res, err := runtime.Execute(ctx, capability, inputs, runtime.WithDriver(d))
		d.Close() // starts the open of the next spare
	}
}
