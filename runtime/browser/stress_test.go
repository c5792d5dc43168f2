package browser

// The stress tier: the live end-to-end cases repeated N times, meant to
// run while stress-ng saturates the CPU (.ci/run starts it). Timing is an
// input: a run that is misreported only on a loaded machine is a product
// bug. Every test here skips unless VERA_STRESS=1; VERA_STRESS_N sets the
// iterations per scenario (default defaultStressN).
//
// Each iteration is judged, never stopped at: a misreport is logged with
// the iteration, the terminal state, the reason and the blocked count, the
// scenario keeps going, and it fails at the end with the counts. Every
// scenario prints one line "stress: <scenario> runs=N misreports=M".
//
// Launch scenarios reuse one launched driver for all iterations (one
// page, as runs of a host reuse it); connect scenarios start one
// operator-style Chromium (internal/chromeproc) and Connect a new driver,
// so a new browser context and page, per iteration.

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// Environment of the stress tier.
const (
	envStress  = "VERA_STRESS"   // "1" runs the tier
	envStressN = "VERA_STRESS_N" // iterations per scenario
)

// defaultStressN is the runs per scenario: with stress-ng --cpu 2 on a
// 2-core machine the 58 scenarios of runtime/browser took 1110 s at N=8
// (about 139 s per iteration of every scenario), which keeps the gate
// (.ci/run) at about 35 minutes.
const defaultStressN = 8

// wantDispatched makes the approved consequential action's "dispatched"
// record mandatory: the field ActionOutcome.Dispatched and the receipt's
// "dispatched": true. It arrives with the barrier branch; until then the
// check runs only where the field exists. After that merge set it to true.
const wantDispatched = true

// stressIterations skips unless the tier is on and returns N.
func stressIterations(t *testing.T) int {
	t.Helper()
	if os.Getenv(envStress) != "1" {
		t.Skipf("stress tier: set %s=1 (and run stress-ng --cpu 2) to run it", envStress)
	}
	requireBrowser(t)
	n := defaultStressN
	if v := os.Getenv(envStressN); v != "" {
		i, err := strconv.Atoi(v)
		if err != nil || i < 1 {
			t.Fatalf("%s=%q: want a positive integer", envStressN, v)
		}
		n = i
	}
	return n
}

// tally counts one scenario's runs and misreports.
type tally struct {
	t          *testing.T
	name       string
	runs       int
	misreports int
}

// judge records iteration i: problems empty means the run was reported
// truthfully; otherwise it is one misreport, logged with what the run said.
func (y *tally) judge(i int, res *runtime.Result, problems []string) {
	y.t.Helper()
	y.runs++
	if len(problems) == 0 {
		return
	}
	y.misreports++
	y.t.Errorf("%s iteration %d: MISREPORT: %s; run: %s", y.name, i, strings.Join(problems, "; "), summarize(res))
}

// done prints the scenario's line and fails with the counts.
func (y *tally) done() {
	y.t.Helper()
	line := fmt.Sprintf("stress: %s runs=%d misreports=%d", y.name, y.runs, y.misreports)
	fmt.Println(line)
	y.t.Log(line)
	if y.misreports > 0 {
		y.t.Errorf("%s: %d of %d runs misreported", y.name, y.misreports, y.runs)
	}
}

// summarize is the diagnosable line of a run: terminal state, reason,
// clean flag and blocked count.
func summarize(res *runtime.Result) string {
	if res == nil {
		return "no result"
	}
	s := fmt.Sprintf("%s clean=%v blocked=%d", describeResult(res), res.Clean, res.BlockedRequests)
	if res.Cause != nil {
		s += "; cause: " + res.Cause.String()
	}
	return s
}

// stressRun executes c with evidence under a fresh folder and checks the
// evidence with receipt.VerifyRun; errors are problems, not fatal.
func stressRun(t *testing.T, ctx context.Context, d runtime.Driver, c *capability.Capability, inputs map[string]any, opts ...runtime.Option) (*runtime.Result, []string) {
	t.Helper()
	dir, err := os.MkdirTemp(t.TempDir(), "run-")
	if err != nil {
		t.Fatal(err)
	}
	opts = append([]runtime.Option{runtime.WithDriver(d), runtime.WithRunDir(dir)}, opts...)
	res, err := runtime.Execute(ctx, c, inputs, opts...)
	if err != nil {
		return nil, []string{"Execute: " + err.Error()}
	}
	var problems []string
	if res.RunDir == "" {
		problems = append(problems, "no evidence written")
	} else if _, err := receipt.VerifyRun(context.Background(), res.RunDir, c); err != nil {
		problems = append(problems, "VerifyRun: "+err.Error())
	}
	return res, problems
}

// wantCompleted checks a completed, clean, unblocked run.
func wantCompleted(res *runtime.Result) []string {
	if res == nil {
		return nil
	}
	var p []string
	if res.State != runtime.StateCompleted {
		p = append(p, "not completed")
	}
	if !res.Clean || res.BlockedRequests != 0 {
		p = append(p, fmt.Sprintf("clean=%v blocked=%d, want a clean run with nothing blocked", res.Clean, res.BlockedRequests))
	}
	return p
}

// wantFailedAt returns the problems of a run that must have failed
// postcondition_failed at action id: the only right answer when the
// act's outcome cannot be known (every attempt of the page refused).
func wantFailedAt(res *runtime.Result, id string) []string {
	if res.State != runtime.StateFailed || res.Failure == nil || res.Failure.Reason != string(runtime.ReasonPostconditionFailed) || res.StoppedAt != id {
		return []string{fmt.Sprintf("ended %s, want failed postcondition_failed at %s", describeResult(res), id)}
	}
	return nil
}

// stressLaunch launches one driver for a whole scenario.
func stressLaunch(t *testing.T, opts ...Option) *Driver {
	t.Helper()
	d, err := Launch(tctx(t, 60*time.Second), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// stressConnect connects a new driver (a new browser context and page)
// to ext for one iteration; the caller closes it.
func stressConnect(t *testing.T, ext *external, opts ...Option) (*Driver, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return Connect(ctx, ext.endpoint, opts...)
}

// TestStressExamples runs the three example processes with the examples'
// own capability files: the teller lookup, the mail search and the
// invoice export with its approved consequential issue and browser-path
// CSV download. Each must complete clean with the right outputs and
// evidence that receipt.VerifyRun accepts.
func TestStressExamples(t *testing.T) {
	n := stressIterations(t)
	s := sites(t)

	t.Run("teller", func(t *testing.T) {
		d := stressLaunch(t)
		c := exampleTeller(t, s)
		m, _ := testsite.LookupMember("100234")
		want := map[string]any{"member_name": m.Name, "savings": m.Savings, "checking": m.Checking}
		y := &tally{t: t, name: "example-teller"}
		for i := 0; i < n; i++ {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			res, p := stressRun(t, ctx, d, c, map[string]any{"username": "teller.demo", "password": "demo-password-not-real", "member_id": "100234"})
			cancel()
			p = append(p, wantCompleted(res)...)
			if res != nil && !reflect.DeepEqual(asJSON(t, res.ModelOutputs["balances"]), want) {
				p = append(p, fmt.Sprintf("balances = %v, want %v", res.ModelOutputs["balances"], want))
			}
			y.judge(i, res, p)
		}
		y.done()
	})

	t.Run("mail", func(t *testing.T) {
		d := stressLaunch(t)
		c := exampleMail(t, s)
		const query = "fattura marzo"
		want := asJSON(t, testsite.SearchMail(query))
		y := &tally{t: t, name: "example-mail"}
		for i := 0; i < n; i++ {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			res, p := stressRun(t, ctx, d, c, map[string]any{"query": query})
			cancel()
			p = append(p, wantCompleted(res)...)
			if res != nil && !reflect.DeepEqual(asJSON(t, res.ModelOutputs["messages"]), want) {
				p = append(p, "messages differ from testsite.SearchMail")
			}
			y.judge(i, res, p)
		}
		y.done()
	})

	t.Run("invoices", func(t *testing.T) {
		inv := s.Invoicing
		dl := t.TempDir()
		d := stressLaunch(t, WithDownloadDirectory(dl))
		c := exampleInvoices(t, inv)
		served := sha256Of(inv.ExportCSV())
		y := &tally{t: t, name: "example-invoices"}
		for i := 0; i < n; i++ {
			before := inv.IssuedCount()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			res, p := stressRun(t, ctx, d, c, nil, runtime.WithRequester("clerk@example"), runtime.WithApprover(supervisor))
			cancel()
			p = append(p, wantCompleted(res)...)
			if res != nil {
				if sum, ok := res.ModelOutputs["invoices"].(runtime.OutputSummary); !ok || sum.Count != len(testsite.Invoices) {
					p = append(p, fmt.Sprintf("invoices = %#v, want %d records", res.ModelOutputs["invoices"], len(testsite.Invoices)))
				}
				p = append(p, wantDownload(res, download.EvidenceBrowserPathBytes, served)...)
				p = append(p, wantIssued(res, "confirm-issue", inv.IssuedCount()-before)...)
			}
			y.judge(i, res, p)
		}
		y.done()
	})
}

// TestStressGate runs the approved consequential actions alone: the
// invoice issue (a click behind a confirmation dialog), the same issue
// with the server's answer late by up to 360 ms (3N runs), and the transfer
// (a form submission behind a confirmation dialog that stays visible
// while the submission is in flight). Each must end completed, its
// action passed and recorded as dispatched, and the server must count
// the effect exactly once.
func TestStressGate(t *testing.T) {
	n := stressIterations(t)
	d := stressLaunch(t)
	t.Run("issue", func(t *testing.T) {
		inv := startInvoicing(t)
		c := issueCapability(t, inv)
		y := &tally{t: t, name: "gate-approved"}
		for i := 0; i < n; i++ {
			before := inv.IssuedCount()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			res, p := stressRun(t, ctx, d, c, nil, runtime.WithRequester("clerk@example"), runtime.WithApprover(supervisor))
			cancel()
			p = append(p, wantCompleted(res)...)
			if res != nil {
				p = append(p, wantIssued(res, "confirm-issue", inv.IssuedCount()-before)...)
			}
			y.judge(i, res, p)
		}
		y.done()
	})
	t.Run("issue_slow_answer", func(t *testing.T) {
		// The ledger keeps its "Confirm issue" dialog open until the
		// issue request answers, here 0 to 360 ms late: the answer
		// then lands while the runtime checks the dialog after the
		// click. It used to end effect_unconfirmed / unknown_modal
		// after the invoice was issued, about once in 30 runs at load
		// 40-50.
		inv := startInvoicing(t)
		c := issueCapability(t, inv)
		y := &tally{t: t, name: "gate-issue-slow-answer"}
		for i := 0; i < 3*n; i++ {
			inv.SetIssueDelay(time.Duration(i%10) * 40 * time.Millisecond)
			before := inv.IssuedCount()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			res, p := stressRun(t, ctx, d, c, nil, runtime.WithRequester("clerk@example"), runtime.WithApprover(supervisor))
			cancel()
			p = append(p, wantCompleted(res)...)
			if res != nil {
				p = append(p, wantIssued(res, "confirm-issue", inv.IssuedCount()-before)...)
			}
			y.judge(i, res, p)
		}
		y.done()
	})
	t.Run("transfer_form", func(t *testing.T) {
		s := sites(t)
		c := transferCap(s.Teller.Origin())
		y := &tally{t: t, name: "gate-form-submit"}
		for i := 0; i < n; i++ {
			before := s.Teller.Transfers()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			res, p := stressRun(t, ctx, d, c, nil, approveAll())
			cancel()
			p = append(p, wantCompleted(res)...)
			if res != nil {
				if got := s.Teller.Transfers() - before; got != 1 {
					p = append(p, fmt.Sprintf("the server counted %d transfers, want exactly 1", got))
				}
				if !res.EffectDispatched || res.Unconfirmed {
					p = append(p, fmt.Sprintf("effect dispatched %v, unconfirmed %v", res.EffectDispatched, res.Unconfirmed))
				}
				if a := action(res, "send"); a == nil {
					p = append(p, "send not recorded")
				} else {
					p = append(p, wantDispatchedRecord(res, a)...)
				}
			}
			y.judge(i, res, p)
		}
		y.done()
	})
}

// wantIssued checks the approved consequential action id: passed, approved
// by someone else, dispatched (see wantDispatched) and counted once by
// the server (issued is the server's count for this run).
func wantIssued(res *runtime.Result, id string, issued int) []string {
	var p []string
	if issued != 1 {
		p = append(p, fmt.Sprintf("the server counted %d issues, want exactly 1", issued))
	}
	a := action(res, id)
	if a == nil {
		return append(p, id+" not recorded")
	}
	if a.Status != receipt.ActionPassed {
		p = append(p, fmt.Sprintf("%s status %s, want passed", id, a.Status))
	}
	if a.Approval == nil || !a.Approval.Approved || a.Approval.SelfApproved {
		p = append(p, fmt.Sprintf("%s approval %+v", id, a.Approval))
	}
	return append(p, wantDispatchedRecord(res, a)...)
}

// wantDispatchedRecord checks that the approved consequential action is
// recorded as dispatched, in the Result (ActionOutcome.Dispatched) and in
// run.receipt.json ("dispatched": true). The field is looked up by name so
// this compiles before the barrier branch adds it; with wantDispatched
// false a missing field is not a problem.
func wantDispatchedRecord(res *runtime.Result, a *runtime.ActionOutcome) []string {
	f := reflect.ValueOf(a).Elem().FieldByName("Dispatched")
	if !f.IsValid() {
		if wantDispatched {
			return []string{"runtime.ActionOutcome has no Dispatched field"}
		}
		return nil
	}
	var p []string
	if f.Kind() != reflect.Bool || !f.Bool() {
		p = append(p, fmt.Sprintf("%s: ActionOutcome.Dispatched = %v, want true", a.ID, f))
	}
	raw, err := os.ReadFile(filepath.Join(res.RunDir, receipt.FileReceipt))
	if err != nil {
		return append(p, err.Error())
	}
	var doc struct {
		Actions []map[string]any `json:"actions"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return append(p, "receipt: "+err.Error())
	}
	found := false
	for _, r := range doc.Actions {
		if r["id"] == a.ID {
			found = true
			if r["dispatched"] != true {
				p = append(p, fmt.Sprintf("the receipt records %s with dispatched=%v, want true", a.ID, r["dispatched"]))
			}
		}
	}
	if !found {
		p = append(p, "the receipt has no record of "+a.ID)
	}
	return p
}

// wantDownload checks a verified CSV download: the action's proof, the
// receipt's record and the file outputs.json names, which must hash to
// the served bytes.
func wantDownload(res *runtime.Result, evidence, served string) []string {
	var p []string
	a := action(res, "download-csv")
	if a == nil || a.Download == nil {
		return []string{"download-csv has no download proof"}
	}
	if a.Download.Evidence != evidence || a.Download.SHA256 != served {
		p = append(p, fmt.Sprintf("download proof %s %s, want %s %s", a.Download.Evidence, a.Download.SHA256, evidence, served))
	}
	rf, err := receipt.Load(context.Background(), res.RunDir)
	if err != nil {
		return append(p, "receipt.Load: "+err.Error())
	}
	recorded := false
	for _, r := range rf.Receipt.Actions {
		if r.ID == "download-csv" && r.Download != nil && r.Download.SHA256 == served && r.Download.Evidence == evidence {
			recorded = true
		}
	}
	if !recorded {
		p = append(p, "the receipt does not record the download with the served hash")
	}
	var files []receipt.DownloadFile
	for _, o := range rf.Outputs.Outputs {
		if o.Name == "invoices_csv" {
			files = o.Files
		}
	}
	if len(files) != 1 {
		return append(p, fmt.Sprintf("outputs.json lists %d files, want 1", len(files)))
	}
	got, err := os.ReadFile(files[0].Path)
	if err != nil {
		return append(p, err.Error())
	}
	if sha256Of(got) != served {
		p = append(p, fmt.Sprintf("the attributed file hashes to %s, want the served %s", sha256Of(got), served))
	}
	return p
}

// escapeCase is one origin escape: the capability, and the violation
// reason the run must end with.
type escapeCase struct {
	name   string
	cap    func(t testing.TB, s *testsite.Sites) *capability.Capability
	reason runtime.Reason
}

var escapeCases = []escapeCase{
	{"popup", func(t testing.TB, s *testsite.Sites) *capability.Capability {
		return stressEscapeCapability(t, s, testsite.EscapePopup, roleCand("button", "Open popup"), roleCand("button", "Open popup"))
	}, runtime.ReasonPopupBlocked},
	{"link", func(t testing.TB, s *testsite.Sites) *capability.Capability {
		return stressEscapeCapability(t, s, testsite.EscapeLink, roleCand("link", "Leave"), roleCand("heading", "Link escape"))
	}, runtime.ReasonNavigationBlocked},
	{"redirect", func(t testing.TB, s *testsite.Sites) *capability.Capability {
		return stressEscapeCapability(t, s, testsite.EscapeRedirect, nil, roleCand("heading", "Outside page"))
	}, runtime.ReasonNavigationBlocked},
}

// wantEscapeReported checks a run whose page tried to reach Outside: not
// clean, at least one blocked request, ended by the violation's reason,
// and Outside saw no connection and no request.
func wantEscapeReported(res *runtime.Result, reason runtime.Reason, out *testsite.Outside) []string {
	var p []string
	if n, c := out.TotalHits(), out.Connections(); n != 0 || c != 0 {
		p = append(p, fmt.Sprintf("the forbidden origin saw %d requests and %d connections", n, c))
	}
	if res == nil {
		return p
	}
	if res.Clean || res.State == runtime.StateCompleted {
		p = append(p, "the escape was recorded as a clean run")
	}
	if res.BlockedRequests < 1 {
		p = append(p, "no blocked request recorded")
	}
	if res.State != runtime.StateFailed || res.Failure == nil || res.Failure.Category != receipt.CategoryOriginNotAllowed || res.Failure.Reason != string(reason) {
		p = append(p, fmt.Sprintf("want failed origin_not_allowed/%s", reason))
	}
	return p
}

// TestStressEscapes: popup, link and redirect escapes to the forbidden
// Outside origin, on a launched browser and on a connected one; every run
// must report the violation.
func TestStressEscapes(t *testing.T) {
	n := stressIterations(t)
	s := sites(t)
	t.Run("launch", func(t *testing.T) {
		d := stressLaunch(t)
		for _, ec := range escapeCases {
			c := ec.cap(t, s)
			y := &tally{t: t, name: "escape-" + ec.name + "-launch"}
			for i := 0; i < n; i++ {
				s.Outside.ResetHits()
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				res, p := stressRun(t, ctx, d, c, nil)
				cancel()
				y.judge(i, res, append(p, wantEscapeReported(res, ec.reason, s.Outside)...))
			}
			y.done()
		}
	})
	t.Run("connect", func(t *testing.T) {
		ext := startExternal(t)
		for _, ec := range escapeCases {
			c := ec.cap(t, s)
			y := &tally{t: t, name: "escape-" + ec.name + "-connect"}
			for i := 0; i < n; i++ {
				s.Outside.ResetHits()
				d, err := stressConnect(t, ext)
				if err != nil {
					t.Fatalf("Connect: %v", err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				res, p := stressRun(t, ctx, d, c, nil)
				cancel()
				if err := d.Close(); err != nil {
					p = append(p, "Close: "+err.Error())
				}
				y.judge(i, res, append(p, wantEscapeReported(res, ec.reason, s.Outside)...))
			}
			y.done()
		}
	})
}

// TestStressDownloads: the CSV export by both routes. Browser path: one
// launched driver, the GUID-named file verified by download.VerifyPath.
// Directory: a connected driver per iteration saving into a fresh folder
// (WithDownloadDirectory) watched by the runtime (WithDownloadDirectory), with
// the served name alternating between a plain one and "../invoices.csv".
// Every download must be attributed to the file with the served bytes.
func TestStressDownloads(t *testing.T) {
	n := stressIterations(t)
	t.Run("browser_path", func(t *testing.T) {
		inv := startInvoicing(t)
		c := exportCapability(t, inv)
		served := sha256Of(inv.ExportCSV())
		d := stressLaunch(t)
		y := &tally{t: t, name: "download-browser-path"}
		for i := 0; i < n; i++ {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			res, p := stressRun(t, ctx, d, c, nil)
			cancel()
			p = append(p, wantCompleted(res)...)
			if res != nil {
				p = append(p, wantDownload(res, download.EvidenceBrowserPathBytes, served)...)
			}
			y.judge(i, res, p)
		}
		y.done()
	})
	t.Run("directory", func(t *testing.T) {
		ext := startExternal(t)
		inv := startInvoicing(t)
		c := exportCapability(t, inv)
		y := &tally{t: t, name: "download-directory"}
		for i := 0; i < n; i++ {
			name := ""
			if i%2 == 1 {
				name = "../invoices.csv"
			}
			inv.SetExportFilename(name)
			served := sha256Of(inv.ExportCSV())
			dir := filepath.Join(t.TempDir(), "Downloads")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			d, err := stressConnect(t, ext, WithDownloadDirectory(dir))
			if err != nil {
				t.Fatalf("Connect: %v", err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			res, p := stressRun(t, ctx, d, c, nil, runtime.WithDownloadDirectory(dir))
			cancel()
			if err := d.Close(); err != nil {
				p = append(p, "Close: "+err.Error())
			}
			p = append(p, wantCompleted(res)...)
			if res != nil {
				p = append(p, wantDownload(res, download.EvidenceDirectoryBytes, served)...)
			}
			if ents, _ := os.ReadDir(filepath.Dir(dir)); len(ents) != 1 {
				p = append(p, fmt.Sprintf("%d entries next to the download folder, want only the folder", len(ents)-1))
			}
			y.judge(i, res, p)
		}
		inv.SetExportFilename("")
		y.done()
	})
}

// TestStressNativeDialog: "Issue invoice" asks with window.confirm. Every
// run must end blocked_by_unknown_modal / native_dialog without answering
// it, and nothing may be issued. The dialog stays open, so each iteration
// connects a new driver (its own browser context) and closes it.
func TestStressNativeDialog(t *testing.T) {
	n := stressIterations(t)
	ext := startExternal(t)
	inv := startInvoicing(t)
	inv.ShowNativeDialog(true)
	c := issueCapability(t, inv)
	y := &tally{t: t, name: "native-dialog-connect"}
	for i := 0; i < n; i++ {
		d, err := stressConnect(t, ext)
		if err != nil {
			t.Fatalf("Connect: %v", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		res, p := stressRun(t, ctx, d, c, nil, runtime.WithApprover(supervisor))
		cancel()
		if err := d.Close(); err != nil {
			p = append(p, "Close: "+err.Error())
		}
		if res != nil {
			if res.State != runtime.StateBlockedByUnknownModal || res.Failure == nil || res.Failure.Reason != string(runtime.ReasonNativeDialog) {
				p = append(p, "want blocked_by_unknown_modal/native_dialog")
			}
			if res.Clean {
				p = append(p, "recorded clean")
			}
		}
		if k := inv.IssuedCount(); k != 0 {
			p = append(p, fmt.Sprintf("the dialog was accepted: %d issued", k))
		}
		y.judge(i, res, p)
	}
	y.done()
}

// TestStressUnseenWorkers is the workers' part of the stress tier
// (skipped unless VERA_STRESS=1): the worker dashboard fed by a dedicated
// worker (with and without its 200 ms aggregation, and a capability that
// reads only the total) and by a service worker, each iteration of the
// service worker case on new servers (a new origin) so the worker
// installs every time; then the barrier's own page (TestSettleFollowsWorkers)
// for a dedicated, a shared and a service worker. Each answer must be
// the data's, never the skeleton's. A misreport logs the iteration's
// driver log.
func TestStressUnseenWorkers(t *testing.T) {
	n := stressIterations(t)
	logs := &iterLog{}
	d := stressLaunch(t, WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	s := sites(t)
	total, rows := unseenOrdersWant()
	for _, tc := range unseenWorkerCases {
		t.Run(tc.name, func(t *testing.T) {
			y := &tally{t: t, name: "unseen-" + tc.name}
			for i := 0; i < n; i++ {
				origin := s.Stress.Origin()
				if tc.name == "sw" {
					origin = sites(t).Stress.Origin()
				}
				body := unseenWorker
				if tc.name == "worker-total" {
					body = unseenWorkerTotal
				}
				c := wcCapabilityQuery(t, origin, "unseen-worker", "/unseen/worker", tc.query, body)
				logs.reset()
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				res, p := stressRun(t, ctx, d, c, nil)
				cancel()
				p = append(p, wantCompleted(res)...)
				if res != nil {
					if got := res.ModelOutputs["open_total"]; got != total {
						p = append(p, fmt.Sprintf("open_total = %q", got))
					}
					if body == unseenWorker && res.State == runtime.StateCompleted {
						if got := asJSON(t, res.ModelOutputs["orders"]); !reflect.DeepEqual(got, rows) {
							p = append(p, fmt.Sprintf("orders = %v", got))
						}
					}
				}
				if len(p) > 0 {
					t.Logf("%s iteration %d driver log:\n%s", tc.name, i, logs.String())
				}
				y.judge(i, res, p)
			}
			y.done()
		})
	}
	for _, kind := range []string{"dedicated", "shared", "service"} {
		t.Run("settle-"+kind, func(t *testing.T) {
			y := &tally{t: t, name: "settle-worker-" + kind}
			for i := 0; i < n; i++ {
				logs.reset()
				p := workerSettleRun(t, d, kind)
				if len(p) > 0 {
					t.Logf("settle-%s iteration %d driver log:\n%s", kind, i, logs.String())
				}
				y.judge(i, nil, p)
			}
			y.done()
		})
	}
}

// TestStressUnseen2 is the unseen2 pages' part of the stress tier: the
// cases of unseen2_test.go that pass, each judged on its answer and on
// what the server received. Timing matters in each: the combobox's
// options are replaced by the debounced search's answer under the click,
// "Load more" is replaced by "Loading…" until the next page arrives (a
// transition read early ends the loop with a partial list), "Record
// payment" shows "Paid" before the server refuses it (a postcondition
// read before the 409 is handled reports a payment that did not happen),
// the grid shows skeleton rows until its data arrives, and the iframe
// navigates on every submission; a framed list's filter answers after
// Settle's cap. A misreport logs the iteration's driver log.
func TestStressUnseen2(t *testing.T) {
	n := stressIterations(t)
	s := sites(t)
	logs := &iterLog{}
	d := stressLaunch(t, WithLogger(slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	origin := s.Stress.Origin()
	st := s.Stress
	expense := map[string]any{"desc1": "Taxi to client", "amount1": "42.50", "desc2": "Hotel Milano", "amount2": "180.00"}
	frameCheck := func(res *runtime.Result, before int) []string {
		got := st.Unseen2Expenses()[before:]
		if len(got) != 2 || got[0].Description != "Taxi to client" || got[1].Description != "Hotel Milano" ||
			res.ModelOutputs["ref1"] != got[0].Ref || res.ModelOutputs["ref2"] != got[1].Ref {
			return []string{fmt.Sprintf("server received %+v, refs %v %v", got, res.ModelOutputs["ref1"], res.ModelOutputs["ref2"])}
		}
		return nil
	}
	invoiceRefused := func(res *runtime.Result, before int) []string {
		var p []string
		if res.Failure == nil || res.StoppedAt != "mark-paid" {
			p = append(p, "want a failure at mark-paid")
		}
		if got := res.ModelOutputs["status"]; got != nil {
			p = append(p, fmt.Sprintf("status %q reported", got))
		}
		if got := len(st.Unseen2PayAttempts()) - before; got != 1 {
			p = append(p, fmt.Sprintf("%d pay requests, want 1", got))
		}
		return p
	}
	for _, sc := range []struct {
		name     string
		c        *capability.Capability
		inputs   map[string]any
		refused  bool // the run must not complete
		check    func(res *runtime.Result, before int) []string
		recorded func() int // how many records the server holds
	}{
		{"unseen2-notes-model", wcCapabilityQuery(t, origin, "unseen2-notes", "/unseen2/notes", `[{"name": "mode", "value": "model"}]`, unseen2Notes),
			map[string]any{"summary": unseen2Summary}, false,
			func(res *runtime.Result, before int) []string {
				var p []string
				if got := res.ModelOutputs["saved"]; got != unseen2Summary {
					p = append(p, fmt.Sprintf("saved = %q", got))
				}
				if got := st.Unseen2Notes()[before:]; !reflect.DeepEqual(got, []string{unseen2Summary}) {
					p = append(p, fmt.Sprintf("server saved %q", got))
				}
				return p
			}, func() int { return len(st.Unseen2Notes()) }},
		{"unseen2-assign", wcCapability(t, origin, "unseen2-assign", "/unseen2/assign", unseen2Assign),
			map[string]any{"who": "Ada Rossi", "search": "Ada"}, false,
			func(res *runtime.Result, before int) []string {
				want := []testsite.Unseen2Assignment{{Ticket: "T-3107", Assignee: "u11"}}
				if got := st.Unseen2Assignments()[before:]; !reflect.DeepEqual(got, want) {
					return []string{fmt.Sprintf("server received %+v", got)}
				}
				return nil
			}, func() int { return len(st.Unseen2Assignments()) }},
		{"unseen2-payments", wcCapabilityQuery(t, origin, "unseen2-payments", "/unseen2/payments", `[{"name": "declare", "value": "0"}]`, unseen2PaymentsAll),
			nil, false,
			func(res *runtime.Result, _ int) []string {
				if got := asJSON(t, res.ModelOutputs["payments"]); !reflect.DeepEqual(got, unseen2PaymentsWant(27)) {
					return []string{fmt.Sprintf("%d payments, want 27", lenAny(got))}
				}
				return nil
			}, func() int { return 0 }},
		{"unseen2-payments-slow-guarded", wcCapabilityQuery(t, origin, "unseen2-payments", "/unseen2/payments",
			`[{"name": "declare", "value": "0"}, {"name": "delay", "value": "3500"}]`, unseen2PaymentsAllGuarded),
			nil, false,
			func(res *runtime.Result, _ int) []string {
				if got := asJSON(t, res.ModelOutputs["payments"]); !reflect.DeepEqual(got, unseen2PaymentsWant(27)) {
					return []string{fmt.Sprintf("%d payments, want 27", lenAny(got))}
				}
				return nil
			}, func() int { return 0 }},
		{"unseen2-payments-slow", wcCapabilityQuery(t, origin, "unseen2-payments", "/unseen2/payments",
			`[{"name": "declare", "value": "0"}, {"name": "delay", "value": "3500"}]`, unseen2PaymentsAll),
			nil, false,
			func(res *runtime.Result, _ int) []string {
				if got := asJSON(t, res.ModelOutputs["payments"]); !reflect.DeepEqual(got, unseen2PaymentsWant(27)) {
					return []string{fmt.Sprintf("%d payments, want 27", lenAny(got))}
				}
				return nil
			}, func() int { return 0 }},
		// The framed list's filtered page answers after 4.5 s, past
		// Settle's cap: the count read off the unfiltered list ("12
		// orders") is the misreport.
		{"unseen2-orders-framed-slow", wcCapabilityQuery(t, origin, "unseen2-orders", "/unseen2/orders/desk",
			`[{"name": "delay", "value": "4500"}]`, unseen2Orders(true)),
			nil, false,
			func(res *runtime.Result, _ int) []string {
				if got := res.ModelOutputs["count"]; got != "4 orders" {
					return []string{fmt.Sprintf("count = %q, want 4 orders", got)}
				}
				return nil
			}, func() int { return 0 }},
		{"unseen2-invoice-conflict", wcCapabilityQuery(t, origin, "unseen2-invoice", "/unseen2/invoice",
			`[{"name": "outcome", "value": "conflict"}, {"name": "delay", "value": "400"}]`, unseen2Invoice("Paid")),
			nil, true, invoiceRefused, func() int { return len(st.Unseen2PayAttempts()) }},
		// The 409 after 1.5 s: misreported 1 of 15 under load before
		// the click's request held its barrier past the cap.
		{"unseen2-invoice-conflict-slow", wcCapabilityQuery(t, origin, "unseen2-invoice", "/unseen2/invoice",
			`[{"name": "outcome", "value": "conflict"}, {"name": "delay", "value": "1500"}]`, unseen2Invoice("Paid")),
			nil, true, invoiceRefused, func() int { return len(st.Unseen2PayAttempts()) }},
		{"unseen2-invoice-accepted", wcCapabilityQuery(t, origin, "unseen2-invoice", "/unseen2/invoice",
			`[{"name": "outcome", "value": "ok"}, {"name": "delay", "value": "400"}]`, unseen2Invoice("Paid")),
			nil, false,
			func(res *runtime.Result, before int) []string {
				var p []string
				if got := res.ModelOutputs["status"]; got != "Paid" {
					p = append(p, fmt.Sprintf("status = %q", got))
				}
				if got := len(st.Unseen2Paid()) - before; got != 1 {
					p = append(p, fmt.Sprintf("server marked %d paid, want 1", got))
				}
				return p
			}, func() int { return len(st.Unseen2Paid()) }},
		{"unseen2-team", wcCapability(t, origin, "unseen2-team", "/unseen2/team", unseen2Team), nil, false,
			func(res *runtime.Result, _ int) []string {
				if got := asJSON(t, res.ModelOutputs["members"]); !reflect.DeepEqual(got, unseen2TeamWant()) {
					return []string{fmt.Sprintf("members = %v", got)}
				}
				return nil
			}, func() int { return 0 }},
		{"unseen2-frame", wcCapability(t, origin, "unseen2-frame", "/unseen2/frame", unseen2Expense()), expense, false,
			frameCheck, func() int { return len(st.Unseen2Expenses()) }},
	} {
		t.Run(sc.name, func(t *testing.T) {
			y := &tally{t: t, name: sc.name}
			for i := 0; i < n; i++ {
				logs.reset()
				before := sc.recorded()
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				res, p := stressRun(t, ctx, d, sc.c, sc.inputs)
				cancel()
				switch {
				case res == nil:
				case sc.refused && res.State == runtime.StateCompleted:
					p = append(p, fmt.Sprintf("a refused payment completed with status %v", res.ModelOutputs["status"]))
				case sc.refused:
					p = append(p, sc.check(res, before)...)
				default:
					p = append(p, wantCompleted(res)...)
					if res.State == runtime.StateCompleted {
						p = append(p, sc.check(res, before)...)
					}
				}
				if len(p) > 0 {
					t.Logf("%s iteration %d driver log:\n%s", sc.name, i, logs.String())
				}
				y.judge(i, res, p)
			}
			y.done()
		})
	}
}
