package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/vera-run/vera/bundle"
)

// Exit statuses.
const (
	exitValid   = 0
	exitInvalid = 1
	exitUsage   = 2
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "verify:", err)
	}
	os.Exit(exitCode(err))
}

// exitError carries the exit status of a failed run.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// exitCode maps run's error to the exit status: 0 for nil, the code of an
// *exitError, else 1.
func exitCode(err error) int {
	if err == nil {
		return exitValid
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitInvalid
}

func usageError(format string, a ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, a...)}
}

// run verifies the bundle named by args and prints the report to stdout.
// The error is nil only for a valid bundle; an invalid one gives an error
// wrapping bundle.ErrVerify (exit status 1), a usage mistake exit status 2.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	fs.SetOutput(stdout)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: verify [-id ID] [-hash sha256:HEX] [-allow-launched] [-json] BUNDLE_DIR")
		fs.PrintDefaults()
	}
	id := fs.String("id", "", "require this capability id")
	hash := fs.String("hash", "", "require this execution hash (sha256:<hex>)")
	allowLaunched := fs.Bool("allow-launched", false, "accept runs in a provider-launched browser (live_launched_browser)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	if err := fs.Parse(args); err != nil {
		return usageError("%v", err)
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return usageError("want exactly one bundle folder, got %d arguments", fs.NArg())
	}
	dir := fs.Arg(0)

	var opts []bundle.Option
	if *id != "" {
		opts = append(opts, bundle.WithExpectedID(*id))
	}
	if *hash != "" {
		opts = append(opts, bundle.WithExpectedExecutionHash(*hash))
	}
	if *allowLaunched {
		opts = append(opts, bundle.WithAllowLaunchedBrowser())
	}
	report, verr := bundle.Verify(ctx, dir, opts...)
	if report == nil {
		return &exitError{code: exitInvalid, err: verr}
	}
	if *asJSON {
		if err := printJSON(stdout, report); err != nil {
			return err
		}
	} else {
		printReport(stdout, report, verr)
	}
	if verr != nil {
		return &exitError{code: exitInvalid, err: fmt.Errorf("%s is not a valid bundle: %w", dir, verr)}
	}
	return nil
}

// printReport writes the report for a person: what was checked and every
// problem, grouped as bundle.Report groups them.
func printReport(w io.Writer, r *bundle.Report, verr error) {
	fmt.Fprintf(w, "bundle      %s\n", r.Dir)
	if r.LockHash != "" {
		fmt.Fprintf(w, "lock        %s\n", r.LockHash)
	}
	if c := r.Verified; c != nil {
		fmt.Fprintf(w, "capability  %s %s, state %s\n", c.ID, c.Version, c.State)
		if h, err := c.ExecutionHash(); err == nil {
			fmt.Fprintf(w, "exec hash   %s\n", h)
		}
		if v := c.Validation; v != nil {
			fmt.Fprintf(w, "validation  %d receipts, %s, finalized %s\n", len(v.Receipts), v.ExecutionMode, v.FinalizedAt)
			fmt.Fprintf(w, "claim       %s\n", v.Claim)
		}
	}
	fmt.Fprintf(w, "valid files %d: %s\n", len(r.Valid), strings.Join(r.Valid, ", "))
	n := 0
	list := func(title string, items []string) {
		for _, it := range items {
			if it == "" {
				it = "(the bundle folder)"
			}
			fmt.Fprintf(w, "  %-12s %s\n", title, it)
			n++
		}
	}
	problems := func(title string, ps []bundle.FileProblem) {
		for _, p := range ps {
			list(title, []string{p.Error()})
		}
	}
	fmt.Fprintln(w, "problems:")
	list("unlisted", r.Unlisted)
	list("missing", r.Missing)
	problems("mismatched", r.Mismatched)
	problems("unsafe", r.Unsafe)
	problems("forbidden", r.Forbidden)
	problems("lock", r.LockProblems)
	problems("limit", r.Limits)
	list("capability", r.Capability)
	if r.Claim != nil {
		list("claim", []string{r.Claim.Error()})
	}
	if verr != nil && n == 0 {
		list("error", []string{verr.Error()})
	}
	if n == 0 {
		fmt.Fprintln(w, "  none")
	}
	if verr != nil {
		fmt.Fprintln(w, "verdict     INVALID")
		return
	}
	fmt.Fprintln(w, "verdict     VALID (artifact consistency; not an attestation of a person, machine or website)")
}

// printJSON writes the report as its versioned JSON document
// (bundle.SchemaReport), "ok" being the verdict.
func printJSON(w io.Writer, r *bundle.Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}
