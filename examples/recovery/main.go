package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
)

//go:embed teller_v1.capability.json
var tellerV1 []byte

const placeholderOrigin = "http://127.0.0.1:4010"

// newButtonName is what the site renames the search button to.
const newButtonName = "Find member"

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
		fmt.Fprintln(os.Stderr, "recovery:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

// run returns nil when the first pass requested recovery, the second
// recovered and completed (recovered, not clean, proposals written) and
// the capability was left unchanged.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("recovery", flag.ContinueOnError)
	fs.SetOutput(stdout)
	browserPath := fs.String("browser", "", "Chrome or Chromium executable (default: $"+browser.EnvBrowser+", then the usual install locations)")
	propose := fs.String("propose", "role", "what the host model proposes: role (button \""+newButtonName+"\") or test_id (member-search-submit)")
	outDir := fs.String("out", "", "folder for the run evidence (default: a new folder under "+os.TempDir()+")")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return fmt.Errorf("%w: %v %q", errUsage, err, fs.Args())
	}
	if *propose != "role" && *propose != "test_id" {
		return fmt.Errorf("%w: -propose %q: want role or test_id", errUsage, *propose)
	}

	teller, err := testsite.StartTeller()
	if err != nil {
		return err
	}
	defer teller.Close()
	c, err := capability.ParseBytes(bytes.ReplaceAll(tellerV1, []byte(placeholderOrigin), []byte(teller.Origin())))
	if err != nil {
		return fmt.Errorf("teller_v1.capability.json: %w", err)
	}
	before, err := c.Marshal()
	if err != nil {
		return err
	}
	hash, err := c.ExecutionHash()
	if err != nil {
		return err
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
	defer d.Close()
	out := *outDir
	if out == "" {
		var err error
		if out, err = os.MkdirTemp("", "vera-recovery-"); err != nil {
			return err
		}
	}

	teller.RenameSearchButton(newButtonName)
	fmt.Fprintf(stdout, "the site renamed its search button to %q; %s %s knows it only as \"Search\"\n", newButtonName, c.ID, c.Version)

	// Pass 1: the locator never resolves; the run asks for recovery.
	res, err := runtime.Execute(ctx, c, inputs, runtime.WithDriver(d), runtime.WithRunDir(out))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\npass 1 => %s in %s\n", res.State, res.Duration().Round(time.Millisecond))
	req := res.RecoveryRequest
	if res.State != runtime.StateRecoveryRequested || req == nil {
		return fmt.Errorf("pass 1 ended %s, want recovery_requested with a request", res.State)
	}
	fmt.Fprintf(stdout, "  target      action %s in milestone %s (%q)\n", req.Target.ActionID, req.Milestone, req.Action.Intent)
	fmt.Fprintf(stdout, "  page        %s%s\n", req.Origin, req.Path)
	for _, a := range req.Tried {
		fmt.Fprintf(stdout, "  tried       %s: %d matches (%s)\n", req.Action.LocatorCandidates[a.Index], a.Matches, a.Reason)
	}
	fmt.Fprintf(stdout, "  contract    %s\n  failure     %s\n", req.ContractHash, req.FailureHash)
	// What the model is shown holds no input value (the hashes are left
	// out of this check: hex digits could spell a numeric value by chance).
	redacted := *req
	redacted.ContractHash, redacted.FailureHash = "", ""
	shown, err := json.Marshal(redacted)
	if err != nil {
		return err
	}
	for name, v := range inputs {
		if bytes.Contains(shown, []byte(fmt.Sprint(v))) {
			return fmt.Errorf("the recovery request carries the value of input %s", name)
		}
	}
	fmt.Fprintf(stdout, "  the request carries no input value\n")

	// The host model proposes one semantic locator.
	p := hostModel(req, *propose)
	fmt.Fprintf(stdout, "\nhost model proposes %s: %s\n", p.Locator, p.Rationale)

	// Pass 2: start over with the proposal.
	res, err = runtime.Execute(ctx, c, inputs, runtime.WithDriver(d), runtime.WithRunDir(out),
		runtime.WithRecoveryProposal(p))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\npass 2 => %s in %s: recovered=%v clean=%v locator_changes_during_run=%v proposal=%s\n",
		res.State, res.Duration().Round(time.Millisecond), res.Recovered, res.Clean, res.LocatorChangesDuringRun, res.ProposalOutcome)
	fmt.Fprintf(stdout, "  balances: %v\n", res.ModelOutputs["balances"])
	if res.State != runtime.StateCompleted || !res.Recovered || res.Clean || !res.LocatorChangesDuringRun || res.ProposalOutcome != "recovered" {
		return errors.New("pass 2 did not complete as a recovered, unclean run")
	}

	// The evidence: recovery.proposals.json beside the receipt, locked by
	// a v2 run lock.
	files, err := receipt.Load(ctx, res.RunDir)
	if err != nil {
		return err
	}
	if files.Proposals == nil || len(files.Proposals.Proposals) != 1 || files.Lock == nil {
		return fmt.Errorf("%s: no recovery.proposals.json", res.RunDir)
	}
	pr := files.Proposals.Proposals[0]
	fmt.Fprintf(stdout, "  %s: target %s, outcome %s (lock %s)\n",
		filepath.Join(res.RunDir, receipt.FileProposals), pr.Target.ActionID, pr.Outcome, files.Lock.Schema)
	if pr.Outcome != "recovered" || files.Lock.Schema != receipt.SchemaLockV2 {
		return fmt.Errorf("proposal outcome %q, lock %q", pr.Outcome, files.Lock.Schema)
	}

	// The capability was not modified.
	after, err := c.Marshal()
	if err != nil {
		return err
	}
	hashAfter, err := c.ExecutionHash()
	if err != nil {
		return err
	}
	if !bytes.Equal(before, after) || hash != hashAfter {
		return errors.New("the capability changed during recovery")
	}
	fmt.Fprintf(stdout, "\nthe capability is unchanged (execution hash %s); fixing it is a reviewed change\n", hash)
	return nil
}

// hostModel stands in for the host's language model. A real model would
// read the request together with an observation of the page and answer
// with one semantic locator; this one is deterministic: it proposes the
// renamed button by role and name, or (kind "test_id") by its test id.
func hostModel(req *runtime.RecoveryRequest, kind string) runtime.RecoveryProposal {
	c := locator.Candidate{Strategy: locator.Role, Role: "button", Name: newButtonName, Exact: true}
	why := "the only button next to the Member ID field now reads \"" + newButtonName + "\"; it submits the same search form"
	if kind == "test_id" {
		c = locator.Candidate{Strategy: locator.TestID, TestID: "member-search-submit"}
		why = "the search button kept its test id member-search-submit after the rename"
	}
	return runtime.RecoveryProposal{
		Target:      req.Target,
		Locator:     &c,
		Rationale:   why,
		Uncertainty: "assumes the renamed button still performs the member search",
		FailureHash: req.FailureHash,
	}
}
