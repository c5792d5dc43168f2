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
	"path/filepath"
	"syscall"
	"time"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
	"github.com/vera-run/vera/runtime/grant"
)

// tellerCapability is the reviewed teller capability, checked in with the
// placeholder origin of the capability test data.
//
//go:embed teller.capability.json
var tellerCapability []byte

// placeholderOrigin is the origin teller.capability.json was reviewed
// against; the served site listens on a random loopback port instead.
const placeholderOrigin = "http://127.0.0.1:4010"

// The demo inputs: a seed member of the teller console and synthetic
// credentials (the console accepts any non-empty pair). The password is a
// secret input: it is typed into the page and never written anywhere.
var inputs = map[string]any{
	"username":  "teller.demo",
	"password":  "demo-password-not-real",
	"member_id": "100234",
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// errUsage marks command-line mistakes (exit status 2).
var errUsage = errors.New("usage")

// run is the whole program; main only wires signals and the exit status.
// It returns nil only when both runs completed cleanly, the capability was
// finalized, the bundle was sealed and it verified.
func run(ctx context.Context, args []string, stdout io.Writer) (err error) {
	fs := flag.NewFlagSet("quickstart", flag.ContinueOnError)
	fs.SetOutput(stdout)
	browserPath := fs.String("browser", "", "Chrome or Chromium executable (default: $"+browser.EnvBrowser+", then the usual install locations)")
	outDir := fs.String("out", "", "new or empty output folder for runs and the bundle (default: a new folder under "+os.TempDir()+")")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	}
	// Find the browser before creating anything.
	bin, err := browser.FindBrowser(*browserPath)
	if err != nil {
		return &noBrowserError{path: *browserPath, env: os.Getenv(browser.EnvBrowser), err: err}
	}
	out, err := prepareOut(*outDir)
	if err != nil {
		return err
	}
	runsDir := filepath.Join(out, "runs")
	if err := os.Mkdir(runsDir, 0o700); err != nil {
		return err
	}

	// 1. The site: the teller console on a random loopback port.
	teller, err := testsite.StartTeller()
	if err != nil {
		return fmt.Errorf("teller site: %w", err)
	}
	defer teller.Close()
	fmt.Fprintf(stdout, "output folder    %s\n", out)
	fmt.Fprintf(stdout, "teller console   %s\n", teller.URL())

	capab, err := loadCapability(teller.Origin())
	if err != nil {
		return err
	}

	// 2. The operator's browser: a separate Chromium with a DevTools port.
	// It is closed (with every process it started) on return, on error and
	// on Ctrl-C, since ctx ends then and every step below returns.
	// (Scaffolding: starting it is a launch, which Vera does only with a
	// grant; a real operator's Chrome is already running and needs none.)
	operator, err := grant.Local(capab, grant.LaunchTarget(bin))
	if err != nil {
		return err
	}
	chrome, err := browser.StartLocal(ctx, browser.WithGrant(operator))
	if err != nil {
		return fmt.Errorf("operator browser: %w", err)
	}
	defer func() {
		if cerr := chrome.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	fmt.Fprintf(stdout, "operator browser %s (pid %d, %s)\n", filepath.Base(chrome.Path()), chrome.Pid(), chrome.HTTPEndpoint())

	// 3. The reviewed capability (loaded above, pointed at the served origin).
	execHash, err := capab.ExecutionHash()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "capability       %s %s (%s), execution hash %s\n", capab.ID, capab.Version, capab.State, execHash)

	// 4. Two runs, each in its own browser context of the operator's browser.
	var results []*runtime.Result
	for i := 1; i <= 2; i++ {
		fmt.Fprintf(stdout, "\nrun %d: member %s\n", i, inputs["member_id"])
		res, err := execute(ctx, chrome.Endpoint(), capab, runsDir, stdout)
		if err != nil {
			return fmt.Errorf("run %d: %w", i, err)
		}
		fmt.Fprintf(stdout, "  => %s in %s, clean=%v, mode %s\n", describe(res), res.Duration().Round(time.Millisecond), res.Clean, res.Mode)
		if res.State != runtime.StateCompleted || !res.Clean {
			return fmt.Errorf("run %d ended %s, not a clean completion (evidence in %s)", i, describe(res), res.RunDir)
		}
		fmt.Fprintf(stdout, "  balances (model-visible): %v\n", res.ModelOutputs["balances"])
		results = append(results, res)
	}

	// 5. Two clean connected runs promote the capability (default policy:
	// live_connected_chrome only).
	runDirs := []string{results[0].RunDir, results[1].RunDir}
	promoted, err := receipt.Finalize(ctx, capab, runDirs)
	if err != nil {
		return fmt.Errorf("finalize: %w", err)
	}
	promotedHash, err := promoted.ExecutionHash()
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nfinalized        %s -> %s (execution hash unchanged: %v)\n", capab.State, promoted.State, promotedHash == execHash)

	// 6. Seal into a fresh folder, then verify what was sealed.
	bundleDir := filepath.Join(out, promoted.ID+"-"+promoted.Version+".bundle")
	lock, err := bundle.Seal(ctx, bundleDir, promoted, runDirs)
	if err != nil {
		return fmt.Errorf("seal: %w", err)
	}
	fmt.Fprintf(stdout, "sealed           %s (%d files)\n", bundleDir, len(lock.Files))
	report, verr := bundle.Verify(ctx, bundleDir, bundle.WithExpectedID(promoted.ID), bundle.WithExpectedExecutionHash(execHash))

	// 7. Summary.
	fmt.Fprintf(stdout, "\nsummary\n")
	for i, r := range results {
		fmt.Fprintf(stdout, "  run %d   %-10s %8s  receipt %s\n", i+1, describe(r), r.Duration().Round(time.Millisecond), r.ReceiptHash)
	}
	fmt.Fprintf(stdout, "  state   %s (%s)\n", promoted.State, promoted.Validation.ExecutionMode)
	fmt.Fprintf(stdout, "  bundle  %s\n", bundleDir)
	if verr != nil {
		fmt.Fprintf(stdout, "  verify  INVALID\n")
		return fmt.Errorf("verify %s: %w", bundleDir, verr)
	}
	fmt.Fprintf(stdout, "  verify  valid: %d files match %s (lock %s)\n", len(report.Valid), bundle.FileLock, report.LockHash)
	fmt.Fprintf(stdout, "  check it again any time: go run ./examples/verify %s\n", bundleDir)
	return nil
}

// noBrowserError says which browser was looked for and exactly what to
// install. It wraps browser.FindBrowser's error (and so
// runtime.ErrBrowserUnavailable).
type noBrowserError struct {
	path, env string
	err       error
}

func (e *noBrowserError) Error() string {
	what := "no Chrome or Chromium in the usual install locations"
	switch {
	case e.path != "":
		what = fmt.Sprintf("-browser %q is not an executable", e.path)
	case e.env != "":
		what = fmt.Sprintf("%s=%q is not an executable", browser.EnvBrowser, e.env)
	}
	return what + "\n  to fix: " + browser.InstallHint + ", or pass -browser PATH"
}

func (e *noBrowserError) Unwrap() error { return e.err }

// prepareOut returns the output folder: dir when it is new or empty
// (created 0700), else a new folder under os.TempDir(). Run directories are
// refused inside a Git work tree, hence the temporary default.
func prepareOut(dir string) (string, error) {
	if dir == "" {
		return os.MkdirTemp("", "vera-quickstart-")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	if len(ents) > 0 {
		return "", fmt.Errorf("%w: -out %s is not empty; name a new folder", errUsage, dir)
	}
	return filepath.Abs(dir)
}

// loadCapability parses the embedded capability after rewriting its
// placeholder origin (site.allowed_origins, and runtime.start when it is
// absolute) to origin. The rewrite changes the execution hash, as it must:
// the hash pins the exact origin the runs were allowed to reach.
func loadCapability(origin string) (*capability.Capability, error) {
	if !bytes.Contains(tellerCapability, []byte(placeholderOrigin)) {
		return nil, fmt.Errorf("teller.capability.json does not name the placeholder origin %s", placeholderOrigin)
	}
	raw := bytes.ReplaceAll(tellerCapability, []byte(placeholderOrigin), []byte(origin))
	c, err := capability.ParseBytes(raw)
	if err != nil {
		return nil, fmt.Errorf("teller.capability.json: %w", err)
	}
	if problems := c.ValidateForExecution(); len(problems) > 0 {
		return nil, fmt.Errorf("teller.capability.json: %w", problems)
	}
	return c, nil
}

// execute runs the capability once in a new browser context of the
// operator's browser, printing one line per action and milestone.
func execute(ctx context.Context, endpoint string, c *capability.Capability, runsDir string, stdout io.Writer) (*runtime.Result, error) {
	g, err := grant.Local(c, grant.ConnectTarget(endpoint)) // the grant: this endpoint, this capability, loopback origins only
	if err != nil {
		return nil, err
	}
	d, err := browser.Connect(ctx, endpoint, browser.WithGrant(g))
	if err != nil {
		return nil, err
	}
	defer d.Close() // closes this run's browser context only
	return runtime.Execute(ctx, c, inputs,
		runtime.WithDriver(d),
		runtime.WithRunDir(runsDir),
		runtime.WithHooks(progress(stdout)))
}

// progress prints one line per action and one per milestone, with timing.
func progress(w io.Writer) *runtime.Hooks {
	return &runtime.Hooks{
		ActionDone: func(i runtime.ActionDoneInfo) {
			o := i.Outcome
			where := "no locator"
			if o.LocatorIndex >= 0 {
				where = fmt.Sprintf("locator #%d", o.LocatorIndex)
			}
			fmt.Fprintf(w, "    %-18s %-8s %-7s %-10s %7s\n", o.ID, o.Operation, o.Status, where, ms(o.Duration))
		},
		MilestoneDone: func(i runtime.MilestoneDoneInfo) {
			next := i.Next
			if next == "" {
				next = "(end)"
			}
			fmt.Fprintf(w, "  milestone %-14s %-9s -> %-14s %7s\n", i.ID, i.Status, next, ms(i.Duration))
		},
	}
}

// describe is the terminal state, with the outcome or failure category.
func describe(r *runtime.Result) string {
	switch {
	case r.Outcome != "":
		return string(r.State) + "/" + r.Outcome
	case r.Failure != nil:
		return string(r.State) + "/" + string(r.Failure.Category)
	}
	return string(r.State)
}

func ms(d time.Duration) string { return d.Round(time.Millisecond).String() }
