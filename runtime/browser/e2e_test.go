package browser

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// The placeholder origins the valid capability fixtures name; fixture
// rewrites them to the test servers' origins.
const (
	tellerPlaceholder    = "http://127.0.0.1:4010"
	mailPlaceholder      = "http://127.0.0.1:4020"
	shellPlaceholder     = "http://127.0.0.1:4030"
	workspacePlaceholder = "http://localhost:4031"
)

// fixture loads capability/testdata/valid/<name> with each placeholder
// origin (old, new pairs) rewritten to a test server's origin.
func fixture(t testing.TB, name string, origins ...string) *capability.Capability {
	t.Helper()
	c, err := capability.ParseBytes(fixtureBytes(t, name, origins...))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return c
}

// fixtureBytes is fixture's JSON before parsing.
func fixtureBytes(t testing.TB, name string, origins ...string) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "capability", "testdata", "valid", name))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(origins); i += 2 {
		if !bytes.Contains(raw, []byte(origins[i])) {
			t.Fatalf("%s does not name %s", name, origins[i])
		}
		raw = bytes.ReplaceAll(raw, []byte(origins[i]), []byte(origins[i+1]))
	}
	return raw
}

func tellerCapability(t testing.TB, s *testsite.Sites) *capability.Capability {
	return fixture(t, "teller_member_balances.json", tellerPlaceholder, s.Teller.Origin())
}

func mailCapability(t testing.TB, s *testsite.Sites) *capability.Capability {
	return fixture(t, "mail_search.json", mailPlaceholder, s.Mail.Origin())
}

func invoiceCapability(t testing.TB, inv *testsite.Invoicing) *capability.Capability {
	return fixture(t, "invoice_export.json", shellPlaceholder, inv.Origin(), workspacePlaceholder, inv.WorkspaceOrigin())
}

// execute runs c through Execute with d, evidence under a fresh folder,
// and checks the evidence with receipt.VerifyRun.
func execute(t testing.TB, ctx context.Context, d runtime.Driver, c *capability.Capability, inputs map[string]any, opts ...runtime.Option) *runtime.Result {
	t.Helper()
	opts = append([]runtime.Option{runtime.WithDriver(d), runtime.WithRunDir(t.TempDir())}, opts...)
	res, err := runtime.Execute(ctx, c, inputs, opts...)
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	if res.RunDir == "" {
		t.Fatalf("no evidence written: %s", describeResult(res))
	}
	if _, err := receipt.VerifyRun(context.Background(), res.RunDir, c); err != nil {
		t.Fatalf("VerifyRun (%s): %v", describeResult(res), err)
	}
	return res
}

func describeResult(r *runtime.Result) string {
	s := string(r.State)
	if r.Outcome != "" {
		s += "/" + r.Outcome
	}
	if r.Failure != nil {
		s += " " + string(r.Failure.Category) + "/" + r.Failure.Reason
	}
	if r.StoppedAt != "" {
		s += " at " + r.StoppedAt
	}
	for _, a := range r.Actions {
		if a.Failure != nil {
			s += " [" + a.ID + ": " + a.Failure.Reason + "]"
		}
	}
	return s
}

func wantState(t testing.TB, r *runtime.Result, state runtime.TerminalState, outcome string) {
	t.Helper()
	if r.State != state || r.Outcome != outcome {
		t.Fatalf("run ended %s, want %s/%s", describeResult(r), state, outcome)
	}
}

func action(r *runtime.Result, id string) *runtime.ActionOutcome {
	for i := range r.Actions {
		if r.Actions[i].ID == id {
			return &r.Actions[i]
		}
	}
	return nil
}

func sha256Of(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// runFiles loads the run's evidence.
func runFiles(t testing.TB, r *runtime.Result) *receipt.RunFiles {
	t.Helper()
	rf, err := receipt.Load(context.Background(), r.RunDir)
	if err != nil {
		t.Fatal(err)
	}
	return rf
}

// downloadedFiles returns the files outputs.json lists for output name.
func downloadedFiles(t testing.TB, r *runtime.Result, name string) []receipt.DownloadFile {
	t.Helper()
	for _, o := range runFiles(t, r).Outputs.Outputs {
		if o.Name == name {
			return o.Files
		}
	}
	return nil
}

// asJSON re-decodes v through JSON so values of different Go types compare.
func asJSON(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// supervisor approves every consequential action it is asked about.
var supervisor = runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Approval, error) {
	return runtime.Approval{ActionID: req.ActionID, Approved: true, Approver: "supervisor@example"}, nil
})

// startInvoicing starts an invoicing app of the test's own, for tests
// that break it or leave it in a state others must not see.
func startInvoicing(t testing.TB) *testsite.Invoicing {
	t.Helper()
	inv, err := testsite.StartInvoicing()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(inv.Close)
	return inv
}

// TestE2ETeller runs the teller capability end to end on the launched
// browser: a completed lookup, the member_not_found business outcome and
// a session that expires in the middle of the run.
func TestE2ETeller(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := tellerCapability(t, s)
	const password = "correct horse battery"
	inputs := func(id string) map[string]any {
		return map[string]any{"username": "teller1", "password": password, "member_id": id}
	}

	t.Run("completed", func(t *testing.T) {
		ctx := tctx(t, 60*time.Second)
		res := execute(t, ctx, d, c, inputs("100234"))
		wantState(t, res, runtime.StateCompleted, "")
		m, _ := testsite.LookupMember("100234")
		want := map[string]any{"member_name": m.Name, "savings": m.Savings, "checking": m.Checking}
		if got := asJSON(t, res.ModelOutputs["balances"]); !reflect.DeepEqual(got, want) {
			t.Errorf("balances = %v, want %v", got, want)
		}
		if !res.Clean || res.Mode != runtime.ModeLiveLaunched || res.BlockedRequests != 0 {
			t.Errorf("clean %v, mode %s, blocked %d", res.Clean, res.Mode, res.BlockedRequests)
		}
		if !reflect.DeepEqual(res.Origins, []string{s.Teller.Origin()}) {
			t.Errorf("origins = %v", res.Origins)
		}
		raw, err := os.ReadFile(filepath.Join(res.RunDir, "run.receipt.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, private := range []string{password, "teller1", m.Name, m.Savings} {
			if bytes.Contains(raw, []byte(private)) {
				t.Errorf("the receipt contains %q", private)
			}
		}
	})

	t.Run("member_not_found", func(t *testing.T) {
		ctx := tctx(t, 60*time.Second)
		res := execute(t, ctx, d, c, inputs("999999"))
		wantState(t, res, runtime.StateBusinessOutcome, "member_not_found")
		if _, ok := res.ModelOutputs["balances"]; ok {
			t.Error("balances produced for an unknown member")
		}
	})

	t.Run("session_expired", func(t *testing.T) {
		ctx := tctx(t, 60*time.Second)
		expired := false
		hooks := &runtime.Hooks{ActionDone: func(i runtime.ActionDoneInfo) {
			if i.Outcome.ID == "sign-in" {
				s.Teller.ExpireSessions()
				expired = true
			}
		}}
		res := execute(t, ctx, d, c, inputs("100234"), runtime.WithHooks(hooks))
		if !expired {
			t.Fatal("the run never signed in")
		}
		wantState(t, res, runtime.StateBusinessOutcome, "session_expired")
		if a := action(res, "extract-balances"); a != nil {
			t.Errorf("balances read after the session expired")
		}
	})
}

// TestE2EMailSearch runs the mail search capability: the hash route
// #search/{{query}} is reached (encoded as encodeURIComponent does) and
// the records equal testsite.SearchMail, for a query with a space and one
// with a non-ASCII letter.
func TestE2EMailSearch(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := mailCapability(t, s)
	for _, query := range []string{"fattura marzo", "café"} {
		t.Run(query, func(t *testing.T) {
			ctx := tctx(t, 60*time.Second)
			res := execute(t, ctx, d, c, map[string]any{"query": query})
			wantState(t, res, runtime.StateCompleted, "")
			if a := action(res, "submit-query"); a == nil || a.Postcondition != "verified" {
				t.Fatalf("submit-query: %+v", a)
			}
			u, err := d.URL(ctx)
			if err != nil {
				t.Fatal(err)
			}
			route := "#search/" + strings.ReplaceAll(url.QueryEscape(query), "+", "%20")
			if !strings.HasSuffix(u, route) {
				t.Errorf("URL %s does not end in %s", u, route)
			}
			want := testsite.SearchMail(query)
			if len(want) == 0 {
				t.Fatalf("SearchMail(%q) is empty", query)
			}
			if got, w := asJSON(t, res.ModelOutputs["messages"]), asJSON(t, want); !reflect.DeepEqual(got, w) {
				t.Errorf("messages = %v, want %v", got, w)
			}
		})
	}
}

// TestE2EInvoices runs the invoice export capability through nested
// cross-origin frames: every invoice over three pages, the CSV export
// verified against the served bytes, and the consequential issue gated
// at action time. Unknown modals end runs without clicking through.
func TestE2EInvoices(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	inv := s.Invoicing
	c := invoiceCapability(t, inv)
	served := sha256Of(inv.ExportCSV())
	checkReadAndExport := func(t *testing.T, res *runtime.Result) {
		t.Helper()
		if sum, ok := res.ModelOutputs["invoices"].(runtime.OutputSummary); !ok || sum.Count != len(testsite.Invoices) || len(testsite.Invoices) != 23 {
			t.Errorf("invoices summary = %#v, want 23 records", res.ModelOutputs["invoices"])
		}
		pages := 0
		for _, m := range res.Milestones {
			if m.ID == "read_page" {
				pages++
			}
		}
		if pages != 3 {
			t.Errorf("read %d pages, want 3", pages)
		}
		a := action(res, "download-csv")
		if a == nil || a.Download == nil {
			t.Fatalf("download-csv: %+v", a)
		}
		if a.Download.SHA256 != served || a.Download.Evidence != "download-browser-path-bytes-verified" {
			t.Errorf("download proof = %+v, want %s", a.Download, served)
		}
		files := downloadedFiles(t, res, "invoices_csv")
		if len(files) != 1 {
			t.Fatalf("outputs.json lists %d files", len(files))
		}
		got, err := os.ReadFile(files[0].Path)
		if err != nil {
			t.Fatal(err)
		}
		if sha256Of(got) != served {
			t.Errorf("the file at the recorded path hashes to %s, want %s", sha256Of(got), served)
		}
	}

	t.Run("gate_without_approver", func(t *testing.T) {
		ctx := tctx(t, 90*time.Second)
		res := execute(t, ctx, d, c, nil, runtime.WithRequester("clerk@example"))
		wantState(t, res, runtime.StateStoppedAtGate, "")
		if res.StoppedAt != "confirm-issue" || res.Failure == nil || res.Failure.Reason != "no_approver" {
			t.Errorf("stopped at %q (%+v)", res.StoppedAt, res.Failure)
		}
		if n := inv.IssuedCount(); n != 0 {
			t.Fatalf("issued %d invoices without approval", n)
		}
		checkReadAndExport(t, res)
	})

	t.Run("approved", func(t *testing.T) {
		ctx := tctx(t, 90*time.Second)
		res := execute(t, ctx, d, c, nil, runtime.WithRequester("clerk@example"), runtime.WithApprover(supervisor))
		wantState(t, res, runtime.StateCompleted, "")
		if n := inv.IssuedCount(); n != 1 {
			t.Fatalf("issued %d invoices, want 1", n)
		}
		if a := action(res, "confirm-issue"); a == nil || a.Approval == nil || !a.Approval.Approved || a.Approval.SelfApproved {
			t.Errorf("confirm-issue approval: %+v", a)
		}
		checkReadAndExport(t, res)
	})

	t.Run("survey_modal", func(t *testing.T) {
		inv.ShowSurvey(true)
		defer inv.ShowSurvey(false)
		before := inv.IssuedCount()
		ctx := tctx(t, 60*time.Second)
		wantBlocked(t, execute(t, ctx, d, c, nil, runtime.WithApprover(supervisor)), inv, "unknown_modal", before)
	})
}

// TestE2EInvoicesNativeDialog: "Issue invoice" asks with window.confirm.
// The run ends blocked_by_unknown_modal without accepting it and nothing
// is issued. The dialog stays open, so the test launches its own browser.
func TestE2EInvoicesNativeDialog(t *testing.T) {
	d := launchOwn(t)
	inv := startInvoicing(t)
	inv.ShowNativeDialog(true)
	c := invoiceCapability(t, inv)
	ctx := tctx(t, 90*time.Second)
	wantBlocked(t, execute(t, ctx, d, c, nil, runtime.WithApprover(supervisor)), inv, "native_dialog", 0)
}

// wantBlocked checks a run an unexpected modal ended: blocked with reason,
// nothing issued since issued and no survey answered.
func wantBlocked(t *testing.T, res *runtime.Result, inv *testsite.Invoicing, reason string, issued int) {
	t.Helper()
	wantState(t, res, runtime.StateBlockedByUnknownModal, "")
	if res.Failure == nil || res.Failure.Reason != reason {
		t.Errorf("failure = %+v, want reason %s", res.Failure, reason)
	}
	if n := inv.SurveyAnswers(); n != 0 {
		t.Errorf("the survey was answered %d times", n)
	}
	if n := inv.IssuedCount(); n != issued {
		t.Errorf("issued %d invoices behind a modal", n-issued)
	}
}
