package convert

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/internal/livetest"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
)

// placeholderOrigin is the origin the checked-in sources name; the served
// sites listen on random loopback ports instead.
const placeholderOrigin = "http://127.0.0.1:4010"

// review is the reviewer's edit of an imported draft (the decisions the
// report's Review list asks for: data classes, output exposure), accepted
// with Accept: an authored capability with a hand_authored provenance and
// no invented discovery record. The review lists exactly the edit.
func review(t *testing.T, draft *capability.Capability, source string, dataClasses []string) *capability.Capability {
	t.Helper()
	edited, err := draft.Clone()
	if err != nil {
		t.Fatal(err)
	}
	edited.Privacy.DataClasses = dataClasses
	for i := range edited.Outputs {
		edited.Outputs[i].Exposure = capability.ExposureModelAndArtifact
	}
	c, rv, err := Accept(draft, edited, Acceptance{Reviewer: "teller operations lead", ReviewedAt: "2026-03-28T10:15:00Z",
		Reason: "imported from " + source + "; reviewed against the live site"})
	if err != nil {
		t.Fatalf("Accept: %v", err)
	}
	if c.State != capability.StateAuthored || !c.Provenance.HandAuthored() || c.Provenance.DiscoveryHash != "" {
		t.Fatalf("accepted: state %s provenance %+v", c.State, c.Provenance)
	}
	if want := len(dataClasses) + len(edited.Outputs); len(rv.Changes) < 1 || len(rv.Changes) > want {
		t.Errorf("review lists %d changes for an edit of %d values:\n%s", len(rv.Changes), want, rv)
	}
	for _, ch := range rv.Changes {
		if !strings.Contains(ch.Path, "DataClasses") && !strings.Contains(ch.Path, "Exposure") {
			t.Errorf("review lists a change the edit did not make: %s", ch)
		}
	}
	return c
}

// runTwiceAndFinalize runs c twice, each in its own browser context of one
// operator browser (connected runs, the default finalize policy), and
// promotes it.
func runTwiceAndFinalize(t *testing.T, c *capability.Capability, inputs map[string]any, check func(*runtime.Result)) *capability.Capability {
	t.Helper()
	bin := livetest.RequireBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	chrome, err := chromeproc.Start(ctx, chromeproc.WithPath(bin))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := chrome.Close(); err != nil {
			t.Errorf("close browser: %v", err)
		}
	}()
	runs := t.TempDir()
	var dirs []string
	for i := 1; i <= 2; i++ {
		d, err := browser.Connect(ctx, chrome.Endpoint())
		if err != nil {
			t.Fatal(err)
		}
		res, err := runtime.Execute(ctx, c, inputs, runtime.WithDriver(d), runtime.WithRunDir(runs))
		d.Close()
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		if res.State != runtime.StateCompleted || !res.Clean {
			t.Fatalf("run %d ended %s (clean %v, outcome %q, failure %+v, stopped at %s); evidence in %s", i, res.State, res.Clean, res.Outcome, res.Failure, res.StoppedAt, res.RunDir)
		}
		check(res)
		dirs = append(dirs, res.RunDir)
	}
	promoted, err := receipt.Finalize(context.Background(), c, dirs)
	if err != nil {
		t.Fatalf("Finalize: %v", err)
	}
	if promoted.State != capability.StateValidatedLocal || promoted.Validation == nil {
		t.Fatalf("promoted to %s", promoted.State)
	}
	return promoted
}

// TestSeed004RoundTrip: the seed's get_member_balances artifact (completed
// for the teller site) imports as a scaffold, is reviewed, runs completed
// twice in Chromium and is finalized to validated_local.
func TestSeed004RoundTrip(t *testing.T) {
	livetest.RequireBrowser(t)
	teller, err := testsite.StartTeller()
	if err != nil {
		t.Fatal(err)
	}
	defer teller.Close()
	raw := bytes.ReplaceAll(readFile(t, "get_member_balances.artifact.json"), []byte(placeholderOrigin), []byte(teller.Origin()))
	draft, rep, err := FromSeed004(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(draft.ValidateForExecution()) == 0 {
		t.Fatal("the imported draft runs before review")
	}
	kept := func(src string) string {
		es := rep.Find(src)
		if len(es) != 1 || es[0].Value == "" {
			t.Fatalf("the report does not keep %s: %+v", src, es)
		}
		return es[0].Value
	}
	reviewed := review(t, draft, "seed 004 artifact "+kept("discoveryRunId"), []string{"member_identity", "member_balances"})
	rv, err := Diff(draft, reviewed)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("review changes:\n%s", rv)
	for _, want := range []string{`.State: "scaffold" -> "authored"`, `.Provenance: null -> {`, `.Outputs[2].Exposure: "artifact_only" -> "model_and_artifact"`} {
		if !strings.Contains(rv.String(), want) {
			t.Errorf("review lacks %q", want)
		}
	}
	inputs := map[string]any{"teller_username": "teller.demo", "teller_password": "demo-password-not-real", "member_id": "100234"}
	promoted := runTwiceAndFinalize(t, reviewed, inputs, func(res *runtime.Result) {
		want := map[string]string{"member_name": "Ada Lovelace", "savings_balance": "$12,480.55", "checking_balance": "$1,204.10"}
		for k, v := range want {
			if got, _ := res.ModelOutputs[k].(string); got != v {
				t.Errorf("%s = %v, want %q", k, res.ModelOutputs[k], v)
			}
		}
	})
	h1, _ := reviewed.ExecutionHash()
	h2, _ := promoted.ExecutionHash()
	if h1 != h2 {
		t.Error("finalize changed the execution hash")
	}
}

// TestRecorderRoundTrip: a Recorder recording of the mail search imports,
// is reviewed, runs completed twice in Chromium and is finalized.
func TestRecorderRoundTrip(t *testing.T) {
	livetest.RequireBrowser(t)
	mail, err := testsite.StartMail()
	if err != nil {
		t.Fatal(err)
	}
	defer mail.Close()
	raw := bytes.ReplaceAll(readFile(t, "mail_search.recording.json"), []byte(placeholderOrigin), []byte(mail.Origin()))
	draft, _, err := FromRecorder(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(draft.ValidateForExecution()) == 0 {
		t.Fatal("the imported draft runs before review")
	}
	// The recording has no discovery record: the reviewer accepts it as
	// hand-authored (Accept), never naming a discovery that did not happen.
	reviewed := review(t, draft, "a DevTools Recorder recording of the mail search", []string{"mail_metadata"})
	rv, err := Diff(draft, reviewed)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rv.String(), `.State: "scaffold" -> "authored"`) {
		t.Errorf("review:\n%s", rv)
	}
	runTwiceAndFinalize(t, reviewed, map[string]any{"search_mail": "invoice"}, func(res *runtime.Result) {
		if len(res.Actions) == 0 {
			t.Error("no actions ran")
		}
	})
}
