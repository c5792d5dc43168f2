package runtime_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// skeletonReads answers the first n text reads with blank, the skeleton
// text a page shows before its data arrives, then reads the page.
type skeletonReads struct {
	*runtimetest.Driver
	blank string
	mu    sync.Mutex
	n     int
	reads int
}

func (d *skeletonReads) Read(ctx context.Context, el runtime.Element, r runtime.Read) (string, error) {
	d.mu.Lock()
	d.reads++
	skeleton := r.Kind == runtime.ReadText && d.reads <= d.n
	d.mu.Unlock()
	if skeleton {
		return d.blank, nil
	}
	return d.Driver.Read(ctx, el, r)
}

// totalCap reads the text of the test id "total" into the output total.
func totalCap(required bool) *capability.Capability {
	read := capability.Action{ID: "read-total", Operation: capability.OpExtract, Intent: "Read the total",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, LocatorCandidates: cands(testID("total")),
		Output: "total", Extract: &capability.Extraction{Mode: capability.ExtractText}, Postcondition: produced("total")}
	c := newCap("/account", milestone("read", read))
	c.Outputs = []capability.Output{{Name: "total", Kind: capability.OutputText, Exposure: capability.ExposureModelAndArtifact, Required: required}}
	return c
}

func totalPage(text string) map[string]*runtimetest.Page {
	return map[string]*runtimetest.Page{"/account": page(heading("h", "Account"), &runtimetest.Node{ID: "total", Tag: "p", TestID: "total", Text: text})}
}

// debugLog returns a logger writing debug records to the returned buffer.
func debugLog() (*bytes.Buffer, runtime.Option) {
	var logs bytes.Buffer
	return &logs, runtime.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
}

// A required text output whose text is blank is no answer: the run fails
// extraction_failed / required_field_empty at the extraction (its detail
// names the action and the output), never completes with "". Blank is
// FORMAT.md's blank: white space and zero-width characters count.
func TestRequiredTextBlankFails(t *testing.T) {
	for _, text := range []string{"", "   ", "\u200b", " \u200c\u2060\ufeff\u200d "} {
		c := totalCap(true)
		mustValid(t, c)
		d := runtimetest.NewDriver(site(totalPage(text)))
		t.Cleanup(func() { d.Close() })
		logs, logOpt := debugLog()
		res := exec(t, c, d, nil, logOpt)
		if res.State != receipt.TerminalFailed || res.Failure == nil ||
			res.Failure.Category != receipt.CategoryExtractionFailed || res.Failure.Reason != "required_field_empty" {
			t.Fatalf("text %q: %s", text, dump(res))
		}
		if res.StoppedAt != "read-total" {
			t.Errorf("text %q: stopped at %q", text, res.StoppedAt)
		}
		if _, ok := res.ModelOutputs["total"]; ok {
			t.Errorf("text %q: a blank required text was produced", text)
		}
		if !strings.Contains(logs.String(), "action read-total: the text of required output total is blank") {
			t.Errorf("text %q: the failure detail does not name the action and output:\n%s", text, logs.String())
		}
	}
}

// A skeleton filled a moment later is the common case: the extraction
// waits (within the action timeout) and completes with the filled text.
func TestRequiredTextBlankThenFilled(t *testing.T) {
	for _, blank := range []string{"", "\u200b"} {
		c := totalCap(true)
		c.Runtime.ActionTimeoutMS = 5000
		mustValid(t, c)
		d := &skeletonReads{Driver: runtimetest.NewDriver(site(totalPage("1 234,50 EUR"))), blank: blank, n: 3}
		t.Cleanup(func() { d.Close() })
		var waits []runtime.WaitDoneInfo
		res := exec(t, c, d, nil, runtime.WithHooks(&runtime.Hooks{WaitDone: func(w runtime.WaitDoneInfo) { waits = append(waits, w) }}))
		if res.State != receipt.TerminalCompleted {
			t.Fatalf("blank %q: %s", blank, dump(res))
		}
		if got := res.ModelOutputs["total"]; got != "1 234,50 EUR" {
			t.Errorf("blank %q: total = %#v", blank, got)
		}
		if d.reads != 4 {
			t.Errorf("blank %q: %d text reads, want 3 blank and 1 filled", blank, d.reads)
		}
		waited := false
		for _, w := range waits {
			if w.ActionID == "read-total" && w.Kind == runtime.WaitLocator && w.Satisfied {
				waited = true
			}
		}
		if !waited {
			t.Errorf("blank %q: the text was not awaited through the runtime's wait: %+v", blank, waits)
		}
	}
}

// A text output that is not required may be blank: an empty note is an
// answer, produced as "" (white space and zero-width characters alike).
func TestOptionalTextBlankProduced(t *testing.T) {
	for _, text := range []string{"", "\u200b "} {
		c := totalCap(false)
		mustValid(t, c)
		d := runtimetest.NewDriver(site(totalPage(text)))
		t.Cleanup(func() { d.Close() })
		res := exec(t, c, d, nil)
		if res.State != receipt.TerminalCompleted {
			t.Fatalf("text %q: %s", text, dump(res))
		}
		if got, ok := res.ModelOutputs["total"]; !ok || got != "" {
			t.Errorf("text %q: total = %#v, %v", text, got, ok)
		}
	}
}

// memberCap reads a single record whose name is required.
func memberCap() *capability.Capability {
	read := capability.Action{ID: "read-member", Operation: capability.OpExtract, Intent: "Read the member",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, LocatorCandidates: cands(testID("member")),
		Output: "member", Postcondition: produced("member"),
		Extract: &capability.Extraction{Mode: capability.ExtractSingle, RequiredFields: []string{"name"}, Fields: []capability.Field{
			{Name: "name", Type: capability.FieldString, LocatorCandidates: cands(testID("member-name"))},
		}}}
	c := newCap("/member", milestone("read", read))
	c.Runtime.ActionTimeoutMS = 5000
	c.Outputs = []capability.Output{{Name: "member", Kind: capability.OutputRecord, Exposure: capability.ExposureModelAndArtifact, Required: true,
		Fields: []capability.OutputField{{Name: "name", Type: capability.FieldString}}}}
	return c
}

func memberPage(name string) map[string]*runtimetest.Page {
	return map[string]*runtimetest.Page{"/member": page(&runtimetest.Node{ID: "m", Tag: "section", TestID: "member", Children: []*runtimetest.Node{
		{ID: "n", Tag: "span", TestID: "member-name", Text: name},
	}})}
}

// A record's required field follows the same rules: zero-width-only is
// empty, and a single record waits for its required fields to fill.
func TestRequiredFieldBlankWaitsAndFails(t *testing.T) {
	c := memberCap()
	c.Runtime.ActionTimeoutMS = 300
	mustValid(t, c)
	d := runtimetest.NewDriver(site(memberPage("\u200b")))
	t.Cleanup(func() { d.Close() })
	res := exec(t, c, d, nil)
	if res.State != receipt.TerminalFailed || res.Failure == nil || res.Failure.Reason != "required_field_empty" {
		t.Fatalf("zero-width name: %s", dump(res))
	}

	c = memberCap()
	mustValid(t, c)
	sd := &skeletonReads{Driver: runtimetest.NewDriver(site(memberPage("Ada Lovelace"))), n: 2}
	t.Cleanup(func() { sd.Close() })
	res = exec(t, c, sd, nil)
	if res.State != receipt.TerminalCompleted {
		t.Fatalf("skeleton then filled: %s", dump(res))
	}
	if got := res.ModelOutputs["member"]; got == nil || got.(map[string]any)["name"] != "Ada Lovelace" {
		t.Errorf("member = %#v", got)
	}
}
