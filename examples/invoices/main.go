package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
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
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
)

//go:embed invoice_export.capability.json
var invoiceCapability []byte

// The placeholder origins the capability names: the billing shell (A)
// and the cross-site workspace that hosts the ledger (B).
const (
	placeholderShell     = "http://127.0.0.1:4030"
	placeholderWorkspace = "http://localhost:4031"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "invoices:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

// run returns nil when the ungated run stopped at the gate with nothing
// issued, each approved run completed with exactly one more invoice issued
// (the self-approved one flagged), every run read all invoices and every
// download matched the served CSV.
func run(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("invoices", flag.ContinueOnError)
	fs.SetOutput(stdout)
	browserPath := fs.String("browser", "", "Chrome or Chromium executable (default: $"+browser.EnvBrowser+", then the usual install locations)")
	outDir := fs.String("out", "", "folder for run evidence and downloads (default: a new folder under "+os.TempDir()+")")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return fmt.Errorf("%w: %v %q", errUsage, err, fs.Args())
	}

	inv, err := testsite.StartInvoicing()
	if err != nil {
		return err
	}
	defer inv.Close()
	raw := bytes.ReplaceAll(invoiceCapability, []byte(placeholderShell), []byte(inv.Origin()))
	raw = bytes.ReplaceAll(raw, []byte(placeholderWorkspace), []byte(inv.WorkspaceOrigin()))
	c, err := capability.ParseBytes(raw)
	if err != nil {
		return fmt.Errorf("invoice_export.capability.json: %w", err)
	}
	served := sha256.Sum256(inv.ExportCSV())
	wantCSV := "sha256:" + hex.EncodeToString(served[:])
	fmt.Fprintf(stdout, "billing shell %s, ledger %s (frames %v)\n", inv.URL()+"/billing", inv.WorkspaceOrigin(), c.Runtime.FrameSelectors)
	fmt.Fprintf(stdout, "consequential actions: %v\n", c.ConsequentialActions())

	out := *outDir
	if out == "" {
		var err error
		if out, err = os.MkdirTemp("", "vera-invoices-"); err != nil {
			return err
		}
	}
	downloads := filepath.Join(out, "downloads")
	if err := os.MkdirAll(downloads, 0o700); err != nil {
		return err
	}
	var d *browser.Driver
	g, err := browser.LocalGrant(c, *browserPath) // the grant: this launch, this capability, loopback origins only
	if err == nil {
		d, err = browser.Launch(ctx, browser.WithGrant(g), browser.WithDownloadDirectory(downloads))
	}
	if err != nil && *outDir == "" {
		_ = os.RemoveAll(out) // nothing ran: leave no empty folder behind
	}
	if errors.Is(err, runtime.ErrBrowserUnavailable) {
		return fmt.Errorf("%w (or pass -browser PATH)", err) // the error names what to install
	}
	if err != nil {
		return err
	}
	defer d.Close()

	// 1. No approver: the run stops at the gate before "Confirm".
	fmt.Fprintf(stdout, "\nrun 1: requested by %s, no approver\n", maker)
	res, err := runtime.Execute(ctx, c, nil,
		runtime.WithDriver(d), runtime.WithRunDir(out), runtime.WithRequester(maker))
	if err != nil {
		return err
	}
	if err := report(ctx, stdout, res, wantCSV); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "  stopped at %s (%s), invoices issued by the site: %d\n", res.StoppedAt, res.Failure.Reason, inv.IssuedCount())
	if res.State != runtime.StateStoppedAtGate || res.StoppedAt != "confirm-issue" || inv.IssuedCount() != 0 {
		return fmt.Errorf("run 1 ended %s at %q with %d issued, want stopped_at_gate at confirm-issue with none", describe(res), res.StoppedAt, inv.IssuedCount())
	}

	// 2. The checker approves at action time: the run completes and the
	// site issues one invoice. 3. The maker approves their own request:
	// it completes too, flagged as self-approved.
	for i, approver := range []string{checker, maker} {
		fmt.Fprintf(stdout, "\nrun %d: requested by %s, approved by %s\n", i+2, maker, approver)
		before := inv.IssuedCount()
		res, err := runtime.Execute(ctx, c, nil,
			runtime.WithDriver(d), runtime.WithRunDir(out), runtime.WithRequester(maker),
			runtime.WithApprover(approverFunc(stdout, approver)))
		if err != nil {
			return err
		}
		if err := report(ctx, stdout, res, wantCSV); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "  invoices issued by the site: %d\n", inv.IssuedCount())
		if res.State != runtime.StateCompleted || inv.IssuedCount() != before+1 {
			return fmt.Errorf("run %d ended %s with %d issued (before %d), want completed with one more", i+2, describe(res), inv.IssuedCount(), before)
		}
		var proof *receipt.ApprovalProof
		for _, a := range res.Actions {
			if a.ID == "confirm-issue" {
				proof = a.Approval
			}
		}
		if proof == nil || !proof.Approved {
			return fmt.Errorf("run %d recorded no approval for confirm-issue", i+2)
		}
		fmt.Fprintf(stdout, "  approval proof: requester %s, approver %s, self-approved %v\n", proof.Requester, proof.Approver, proof.SelfApproved)
		if proof.SelfApproved != (approver == maker) {
			return fmt.Errorf("run %d: self_approved = %v for requester %q and approver %q", i+2, proof.SelfApproved, maker, approver)
		}
	}
	fmt.Fprintf(stdout, "\nevidence in %s\n", out)
	return nil
}

// The maker requests every run; the checker approves consequential steps.
const (
	maker   = "clerk@example"
	checker = "supervisor@example"
)

// approverFunc approves every request as who, printing what was asked.
func approverFunc(w io.Writer, who string) runtime.Approver {
	return runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Approval, error) {
		fmt.Fprintf(w, "  approval asked: %s (%q, %s) in milestone %s, requested by %s -> approved by %s\n",
			req.ActionID, req.Intent, req.Effect, req.Milestone, req.Requester, who)
		return runtime.Approval{ActionID: req.ActionID, Approved: true, Approver: who}, nil
	})
}

// report prints a run's milestones, outputs and download, and checks the
// extraction and the download against the site.
func report(ctx context.Context, w io.Writer, res *runtime.Result, wantCSV string) error {
	fmt.Fprintf(w, "  => %s in %s, mode %s\n", describe(res), res.Duration().Round(time.Millisecond), res.Mode)
	visits := ""
	for _, m := range res.Milestones {
		visits += " " + m.ID
	}
	fmt.Fprintf(w, "  milestones:%s\n", visits)
	// invoices is model_summary: the model sees its kind, count and
	// fields; the rows stay in outputs.json.
	sum, ok := res.ModelOutputs["invoices"].(runtime.OutputSummary)
	if !ok {
		return fmt.Errorf("invoices: want an OutputSummary for the model, got %T", res.ModelOutputs["invoices"])
	}
	fmt.Fprintf(w, "  invoices (model-visible summary): %s of %d, fields %v\n", sum.Kind, sum.Count, sum.Fields)
	if sum.Count != len(testsite.Invoices) {
		return fmt.Errorf("read %d invoices, the ledger has %d", sum.Count, len(testsite.Invoices))
	}
	// The rows themselves are in the run's outputs.json, for the host only.
	run, err := receipt.Load(ctx, res.RunDir)
	if err != nil {
		return err
	}
	var rows []any
	var files []receipt.DownloadFile
	for _, o := range run.Outputs.Outputs {
		switch o.Name {
		case "invoices":
			rows, _ = o.Value.([]any)
		case "invoices_csv":
			files = o.Files
		}
	}
	for i, r := range rows {
		rec, _ := r.(map[string]any)
		if i >= len(testsite.Invoices) || rec["number"] != testsite.Invoices[i].Number {
			return fmt.Errorf("invoice %d reads %v, the ledger shows %s", i, rec["number"], testsite.Invoices[min(i, len(testsite.Invoices)-1)].Number)
		}
		if i == 0 || i == len(rows)-1 {
			fmt.Fprintf(w, "    row %2d (host only): %v %v %v %v %v\n", i+1, rec["number"], rec["customer"], rec["date"], rec["amount"], rec["status"])
		}
	}
	// invoices_csv is artifact_only: only its count reaches the model.
	fmt.Fprintf(w, "  invoices_csv (artifact only): %d file\n", res.ArtifactOutputs["invoices_csv"])
	if len(files) != 1 {
		return fmt.Errorf("want one downloaded CSV, got %d", len(files))
	}
	got, err := fileHash(files[0].Path)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  CSV %s: %d bytes, %s (served %s)\n", filepath.Base(files[0].Path), files[0].Bytes, got, wantCSV)
	if got != wantCSV || files[0].SHA256 != wantCSV {
		return fmt.Errorf("the downloaded CSV hashes to %s (receipt %s), the site served %s", got, files[0].SHA256, wantCSV)
	}
	return nil
}

func fileHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
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
