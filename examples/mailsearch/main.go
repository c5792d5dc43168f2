package main

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
)

//go:embed mail_search.capability.json
var mailCapability []byte

// placeholderOrigin is the origin the capability names; it is rewritten to
// the served mail client's origin at load time.
const placeholderOrigin = "http://127.0.0.1:4020"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mailsearch:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

// run searches, prints the model-visible records, then shows the stuck
// search failing its postcondition. It returns nil when both runs ended as
// expected: completed, then failed with ui_assertion_failed.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("mailsearch", flag.ContinueOnError)
	fs.SetOutput(stdout)
	browserPath := fs.String("browser", "", "Chrome or Chromium executable (default: $"+browser.EnvBrowser+", then the usual install locations)")
	query := fs.String("query", "fattura", "words that must all occur in the sender or subject")
	outDir := fs.String("out", "", "folder for the run evidence (default: a new folder under "+os.TempDir()+")")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return fmt.Errorf("%w: %v %q", errUsage, err, fs.Args())
	}

	mail, err := testsite.StartMail()
	if err != nil {
		return err
	}
	defer mail.Close()
	c, err := capability.ParseBytes(bytes.ReplaceAll(mailCapability, []byte(placeholderOrigin), []byte(mail.Origin())))
	if err != nil {
		return fmt.Errorf("mail_search.capability.json: %w", err)
	}

	var d *browser.Driver
	g, err := browser.LocalGrant(c, *browserPath) // the grant: this launch, this capability, loopback origins only
	if err == nil {
		d, err = browser.Launch(ctx, browser.WithGrant(g))
	}
	if errors.Is(err, runtime.ErrBrowserUnavailable) {
		return fmt.Errorf("%w (or pass -browser PATH)", err) // the error names what to install
	}
	if err != nil {
		return err
	}
	defer d.Close() // kills the launched browser and deletes its profile
	out := *outDir
	if out == "" {
		var err error
		if out, err = os.MkdirTemp("", "vera-mailsearch-"); err != nil {
			return err
		}
	}

	// 1. A normal search: the model sees the records (exposure
	// model_and_artifact).
	fmt.Fprintf(stdout, "search %q on %s\n", *query, mail.URL()+"/mail")
	res, err := runtime.Execute(ctx, c, map[string]any{"query": *query},
		runtime.WithDriver(d), runtime.WithRunDir(out))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "  => %s in %s (%s)\n", describe(res), res.Duration().Round(time.Millisecond), res.RunDir)
	if res.State != runtime.StateCompleted {
		return fmt.Errorf("the search ended %s, want completed", describe(res))
	}
	// A record set is a []any of records, each a map[string]any holding
	// exactly the declared fields.
	records, ok := res.ModelOutputs["messages"].([]any)
	if !ok {
		return fmt.Errorf("messages: want a record set, got %T", res.ModelOutputs["messages"])
	}
	fmt.Fprintf(stdout, "  %d messages (model-visible):\n", len(records))
	for _, rec := range records {
		r, _ := rec.(map[string]any)
		fmt.Fprintf(stdout, "    %v  %-18v %v\n", r["date"], r["sender"], r["subject"])
	}

	// 2. The same search on a client whose search button does nothing:
	// the URL never reaches #search/<query>, so the postcondition fails and
	// nothing is read from the inbox that is still on screen.
	mail.SetStuckSearch(true)
	fmt.Fprintf(stdout, "search %q with the search stuck\n", *query)
	res, err = runtime.Execute(ctx, c, map[string]any{"query": *query},
		runtime.WithDriver(d), runtime.WithRunDir(out))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "  => %s at %s in %s (%s)\n", describe(res), res.StoppedAt, res.Duration().Round(time.Millisecond), res.RunDir)
	for _, a := range res.Actions {
		fmt.Fprintf(stdout, "    %-16s %-7s postcondition %s\n", a.ID, a.Status, orDash(a.Postcondition))
	}
	if res.State != runtime.StateFailed || res.Failure == nil || res.Failure.Category != "ui_assertion_failed" {
		return fmt.Errorf("the stuck search ended %s, want failed/ui_assertion_failed", describe(res))
	}
	if _, ok := res.ModelOutputs["messages"]; ok {
		return errors.New("the stuck search produced messages")
	}
	fmt.Fprintln(stdout, "  no messages were read: the failed postcondition stopped the run")
	return nil
}

func describe(r *runtime.Result) string {
	switch {
	case r.Outcome != "":
		return string(r.State) + "/" + r.Outcome
	case r.Failure != nil:
		return string(r.State) + "/" + string(r.Failure.Category)
	}
	return string(r.State)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
