package receipt_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
	"github.com/vera-run/vera/runtime/grant"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// Canary input values: distinctive, several token-shaped, so that any copy
// of them in a run file is found (and a leak would also be caught by the
// receipts' secret scan).
var (
	canaryUser     = "ghp_" + "Zq8Xw2Lm4Np6Rt0Vy3Bc5Df7Gh9Jk1Ms2Qa"
	canaryPassword = "CANARY-pw-" + "sk_live_" + "Q7w9E2r4T6y8U0i1O3p5A7s9"
	canaryMember   = "ZQ91CANARY77" // the capability bounds member ids to 12 characters
	canaryQuery    = "xoxb-" + "1234567890-CanaryQuery-ZxYwVuTs"
	canaryApprover = "CANARY-approver-" + "ghp_" + "Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh8Ii9Jj0Kk1Ll2"
	// canaryMailQuery matches seed messages, so the run completes; it is
	// not an output value either.
	canaryMailQuery = "Studio Fattura"
)

var allCanaries = []string{canaryUser, canaryPassword, canaryMember, canaryQuery, canaryApprover, canaryMailQuery}

// assertNoCanary reads every file under a run directory and fails if a
// canary appears anywhere; in outputs.json the output values (where an
// output may legitimately hold an input) are blanked first. It returns
// the files it read.
func assertNoCanary(t *testing.T, dir string, canaries []string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		name := filepath.Base(p)
		files = append(files, name)
		text := string(raw)
		if name == receipt.FileOutputs {
			o, err := receipt.LoadOutputs(raw)
			if err != nil {
				t.Fatalf("outputs.json: %v", err)
			}
			for i := range o.Outputs {
				o.Outputs[i].Value, o.Outputs[i].Files = nil, nil
			}
			b, _ := canonjson.Marshal(o)
			text = string(b)
		}
		for _, c := range canaries {
			if strings.Contains(text, c) {
				t.Errorf("%s contains the canary %q", name, c)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// leakyDriver reports failures whose raw text contains the typed value, as
// a careless driver might.
type leakyDriver struct {
	runtime.Driver
	failOn string
}

// Authorization forwards the wrapped live driver's grant (a wrapper of a
// live driver must, or Execute refuses it).
func (d *leakyDriver) Authorization() grant.Authorization {
	if a, ok := d.Driver.(runtime.Authorized); ok {
		return a.Authorization()
	}
	return grant.Authorization{}
}

func (d *leakyDriver) Act(ctx context.Context, el runtime.Element, a runtime.Act) error {
	if a.Value == d.failOn {
		return fmt.Errorf("%w: typing %q into the field failed", runtime.ErrNotInteractable, a.Value)
	}
	return d.Driver.Act(ctx, el, a)
}

func loadTestdata(t *testing.T, name string, origins map[string]string) *capability.Capability {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "capability", "testdata", "valid", name))
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	for from, to := range origins {
		s = strings.ReplaceAll(s, from, to)
	}
	c, err := capability.ParseBytes([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// promote makes a testdata capability a discovered one (the mail search is
// a scaffold; the invoice export's claim is for other origins).
func promote(c, from *capability.Capability) {
	c.State = capability.StateDiscovered
	if c.Provenance.HandAuthored() {
		c.State = capability.StateAuthored // runnable and promotable as written
	}
	c.Validation = nil
	if c.Provenance == nil {
		p := *from.Provenance
		c.Provenance = &p
	}
}

// canaryRun is one run of the canary test; an empty state accepts any
// terminal state.
type canaryRun struct {
	cap     *capability.Capability
	driver  func(t *testing.T) runtime.Driver
	inputs  map[string]any
	opts    []runtime.Option
	state   receipt.TerminalState
	outcome string
}

// runCanary executes one run and checks its evidence: no canary anywhere,
// the run verifies, a failure carries a detail hash only. A run that the
// browser driver loses to a known CDP race ("Not attached to an active
// page", reported as internal/url_failed) is checked the same way and
// retried, at most twice.
func runCanary(t *testing.T, r canaryRun) *runtime.Result {
	t.Helper()
	for attempt := 1; ; attempt++ {
		res, logs := executeCanary(t, r)
		checkEvidence(t, res, r.cap)
		if r.state == "" || (res.State == r.state && res.Outcome == r.outcome) {
			return res
		}
		if attempt < 3 && res.Failure != nil && res.Failure.Category == receipt.CategoryInternal && res.Failure.Reason == "url_failed" {
			t.Logf("attempt %d lost to a driver race (internal/url_failed); retrying", attempt)
			continue
		}
		t.Fatalf("state %s outcome %q failure %+v, want %s %q\nlogs:\n%s", res.State, res.Outcome, res.Failure, r.state, r.outcome, logs)
	}
}

func executeCanary(t *testing.T, r canaryRun) (*runtime.Result, string) {
	t.Helper()
	d := r.driver(t)
	defer d.Close()
	var logs strings.Builder
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	opts := append([]runtime.Option{runtime.WithDriver(d), runtime.WithRunDir(t.TempDir()), runtime.WithLogger(logger)}, r.opts...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := runtime.Execute(ctx, r.cap, r.inputs, opts...)
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	return res, logs.String()
}

func checkEvidence(t *testing.T, res *runtime.Result, c *capability.Capability) {
	t.Helper()
	files := assertNoCanary(t, res.RunDir, allCanaries)
	if len(files) < 3 {
		t.Errorf("run files %v", files)
	}
	rep, err := receipt.VerifyRun(context.Background(), res.RunDir, c)
	if err != nil || !rep.Complete {
		t.Fatalf("VerifyRun of a runtime-written run: %v", err)
	}
	rc, err := receipt.LoadReceipt(readFile(t, res.RunDir, receipt.FileReceipt))
	if err != nil {
		t.Fatal(err)
	}
	if f := rc.Terminal.Failure; f != nil && f.DetailHash != "" && !canonjson.ValidDigest(f.DetailHash) {
		t.Errorf("failure detail hash %q", f.DetailHash)
	}
	for _, in := range rc.Inputs {
		if in.Secret && in.Hash != "" {
			t.Errorf("secret input %s hashed", in.Name)
		}
	}
}

// fakeTeller is a fixture of the teller console for the fake driver, with
// pages for the seed member and for the canary member id.
func fakeTeller(origin string) *runtimetest.Site {
	member := &runtimetest.Node{ID: "main", Tag: "main", Children: []*runtimetest.Node{
		{ID: "acc", Tag: "h2", Text: "Accounts"},
		{ID: "name", Tag: "p", TestID: "member-name", Text: "Ada Lovelace"},
		{ID: "sav", Tag: "p", TestID: "balance-savings", Text: "$12,480.55"},
		{ID: "chk", Tag: "p", TestID: "balance-checking", Text: "$1,204.10"},
	}}
	click := func(node, to string) runtimetest.Rule {
		return runtimetest.Rule{On: runtimetest.Trigger{Node: node, Act: runtime.ActClick}, Effects: []runtimetest.Effect{{Navigate: to}}}
	}
	return &runtimetest.Site{Pages: map[string]*runtimetest.Page{
		origin + "/login": {Body: []*runtimetest.Node{
			{ID: "username", Tag: "input", Label: "Username"},
			{ID: "password", Tag: "input", Label: "Password", Attributes: map[string]string{"type": "password"}},
			{ID: "signin", Tag: "button", Text: "Sign in"},
		}, Rules: []runtimetest.Rule{click("signin", "/members")}},
		origin + "/members": {Body: []*runtimetest.Node{
			{ID: "member-id", Tag: "input", Label: "Member ID"},
			{ID: "search", Tag: "button", Text: "Search", TestID: "member-search-submit"},
		}, Rules: []runtimetest.Rule{click("search", "/members/{{value:member-id}}")}},
		origin + "/members/100234":          {Body: []*runtimetest.Node{member}},
		origin + "/members/" + canaryMember: {Body: []*runtimetest.Node{{ID: "nf", Tag: "p", Text: "No member found"}}},
	}}
}

// TestSecretCanaryFake runs the teller process on the fake driver with
// canary inputs (completed, business outcome, and a driver failure whose
// raw text holds the password) and checks no canary reaches a run file.
func TestSecretCanaryFake(t *testing.T) {
	const origin = "http://127.0.0.1:4010"
	c := loadTestdata(t, "teller_member_balances.json", nil)
	fake := func(t *testing.T) runtime.Driver { return runtimetest.NewDriver(fakeTeller(origin)) }
	in := func(member string) map[string]any {
		return map[string]any{"username": canaryUser, "password": canaryPassword, "member_id": member}
	}
	var completed []*runtime.Result
	for i := range 2 {
		_ = i
		completed = append(completed, runCanary(t, canaryRun{cap: c, driver: fake,
			inputs: in("100234"), state: receipt.TerminalCompleted}))
	}
	runCanary(t, canaryRun{cap: c, driver: fake, inputs: in(canaryMember), state: receipt.TerminalBusinessOutcome, outcome: "member_not_found"})
	res := runCanary(t, canaryRun{cap: c, inputs: in("100234"), state: receipt.TerminalFailed,
		driver: func(t *testing.T) runtime.Driver {
			return &leakyDriver{Driver: runtimetest.NewDriver(fakeTeller(origin)), failOn: canaryPassword}
		}})
	if res.Failure == nil || res.Failure.DetailHash == "" {
		t.Errorf("the driver failure has no detail hash: %+v", res.Failure)
	}

	// Simulated runs verify, but never finalize.
	_, err := receipt.Finalize(context.Background(), c, []string{completed[0].RunDir, completed[1].RunDir})
	var fe receipt.FinalizeErrors
	if !errors.As(err, &fe) || !fe.Has(completed[0].RunDir, receipt.CheckMode) {
		t.Errorf("simulated runs: %v", err)
	}
}

// launch starts a provider-owned Chromium, or skips without one unless
// VERA_REQUIRE_BROWSER=1.
func launch(t *testing.T) runtime.Driver {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d, err := browser.Launch(ctx)
	if err != nil {
		if errors.Is(err, runtime.ErrBrowserUnavailable) && os.Getenv("VERA_REQUIRE_BROWSER") != "1" {
			t.Skipf("no Chrome/Chromium found (%v); set VERA_REQUIRE_BROWSER=1 to make this a failure", err)
		}
		t.Fatalf("launch: %v", err)
	}
	return d
}

// TestSecretCanaryChromium runs the three test-site processes in a real
// Chromium with canary inputs and failures, checks every run's evidence,
// then finalizes two launched runs (only under the policy) and compares
// runs.
func TestSecretCanaryChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("real browser runs are skipped with -short")
	}
	probe := launch(t) // skip early when there is no browser
	probe.Close()

	sites, err := testsite.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer sites.Close()
	teller := loadTestdata(t, "teller_member_balances.json", map[string]string{"http://127.0.0.1:4010": sites.Teller.Origin()})
	mail := loadTestdata(t, "mail_search.json", map[string]string{"http://127.0.0.1:4020": sites.Mail.Origin()})
	invoice := loadTestdata(t, "invoice_export.json", map[string]string{
		"http://127.0.0.1:4030": sites.Invoicing.Origin(), "http://localhost:4031": sites.Invoicing.Workspace.Origin()})
	promote(mail, teller)
	promote(invoice, teller)
	for _, c := range []*capability.Capability{teller, mail, invoice} {
		if err := c.Validate().Err(); err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
	}
	tellerIn := func(member string) map[string]any {
		return map[string]any{"username": canaryUser, "password": canaryPassword, "member_id": member}
	}

	// Runs compared or finalized below outlive their subtests.
	keep := []runtime.Option{runtime.WithRunDir(t.TempDir())}
	var done []*runtime.Result
	t.Run("teller completed", func(t *testing.T) {
		for range 2 {
			done = append(done, runCanary(t, canaryRun{cap: teller, driver: launch, inputs: tellerIn("100234"), opts: keep, state: receipt.TerminalCompleted}))
		}
	})
	t.Run("teller member not found", func(t *testing.T) {
		runCanary(t, canaryRun{cap: teller, driver: launch, inputs: tellerIn(canaryMember),
			state: receipt.TerminalBusinessOutcome, outcome: "member_not_found"})
	})
	t.Run("teller driver failure holding the password", func(t *testing.T) {
		res := runCanary(t, canaryRun{cap: teller, inputs: tellerIn("100234"), state: receipt.TerminalFailed,
			driver: func(t *testing.T) runtime.Driver { return &leakyDriver{Driver: launch(t), failOn: canaryPassword} }})
		if res.Failure == nil || res.Failure.DetailHash == "" {
			t.Errorf("failure without detail hash: %+v", res.Failure)
		}
	})
	var renamed *runtime.Result
	t.Run("teller renamed search button", func(t *testing.T) {
		sites.Teller.RenameSearchButton("Find member")
		defer sites.Teller.RenameSearchButton("")
		renamed = runCanary(t, canaryRun{cap: teller, driver: launch, inputs: tellerIn("100234"), opts: keep, state: receipt.TerminalCompleted})
	})
	t.Run("mail search", func(t *testing.T) {
		res := runCanary(t, canaryRun{cap: mail, driver: launch, inputs: map[string]any{"query": canaryMailQuery}, state: receipt.TerminalCompleted})
		if n := res.ModelOutputs["messages"]; n == nil {
			t.Errorf("no messages output")
		}
	})
	t.Run("mail search for a token-shaped query", func(t *testing.T) {
		res := runCanary(t, canaryRun{cap: mail, driver: launch, inputs: map[string]any{"query": canaryQuery}})
		t.Logf("token-shaped query: %s %+v", res.State, res.Failure)
	})
	t.Run("invoice export with a failing approver", func(t *testing.T) {
		approver := runtime.ApproverFunc(func(ctx context.Context, req runtime.ApprovalRequest) (runtime.Approval, error) {
			return runtime.Approval{}, errors.New("approval service rejected token " + canaryApprover)
		})
		res := runCanary(t, canaryRun{cap: invoice, driver: launch, opts: []runtime.Option{runtime.WithApprover(approver)},
			state: receipt.TerminalStoppedAtGate})
		if res.Failure == nil || res.Failure.DetailHash == "" {
			t.Errorf("gate without detail hash: %+v", res.Failure)
		}
		if n := res.ArtifactOutputs["invoices_csv"]; n != 1 {
			t.Errorf("downloads = %d", n)
		}
	})

	if len(done) != 2 {
		t.Fatal("the completed runs did not finish")
	}
	t.Run("finalize launched runs", func(t *testing.T) {
		dirs := []string{done[0].RunDir, done[1].RunDir}
		_, err := receipt.Finalize(context.Background(), teller, dirs)
		var fe receipt.FinalizeErrors
		if !errors.As(err, &fe) || !fe.Has("", receipt.CheckMode) {
			t.Fatalf("launched runs without the policy: %v", err)
		}
		v, err := receipt.Finalize(context.Background(), teller, dirs, receipt.WithAllowLaunchedBrowser())
		if err != nil {
			t.Fatalf("launched runs with the policy: %v", err)
		}
		if v.State != capability.StateValidatedLocal || v.Validation.ExecutionMode != string(receipt.ModeLiveLaunched) {
			t.Errorf("validation %+v", v.Validation)
		}
		m := map[string][]byte{}
		for _, d := range dirs {
			raw := readFile(t, d, receipt.FileReceipt)
			m[sum(raw)] = raw
		}
		if err := receipt.CheckClaim(context.Background(), v, m, receipt.WithAllowLaunchedBrowser()); err != nil {
			t.Errorf("CheckClaim: %v", err)
		}
	})
	t.Run("compare", func(t *testing.T) {
		load := func(r *runtime.Result) *receipt.Receipt {
			rc, err := receipt.LoadReceipt(readFile(t, r.RunDir, receipt.FileReceipt))
			if err != nil {
				t.Fatal(err)
			}
			return rc
		}
		same, err := receipt.Compare(load(done[0]), load(done[1]))
		if err != nil || same.Verdict != receipt.StatusUnchanged {
			t.Errorf("two clean runs: %v %+v %+v", err, same.AlignmentFailures, same.Changes)
		}
		if renamed == nil {
			return
		}
		diff, err := receipt.Compare(load(done[0]), load(renamed))
		if err != nil || diff.Verdict != receipt.StatusChanged || !hasChange(diff, receipt.ArtifactAction, "", "submit-search", receipt.StatusChanged) {
			t.Errorf("renamed button: %v %+v", err, diff.Changes)
		}
	})
}
