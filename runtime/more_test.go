package runtime_test

import (
	"context"
	"slices"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// subresourceDriver reports one blocked subresource after every Navigate
// and Act, however often the runtime drains.
type subresourceDriver struct {
	*runtimetest.Driver
	pending *int
}

func (d subresourceDriver) Navigate(ctx context.Context, u string) error {
	*d.pending++
	return d.Driver.Navigate(ctx, u)
}

func (d subresourceDriver) Act(ctx context.Context, el runtime.Element, a runtime.Act) error {
	*d.pending++
	return d.Driver.Act(ctx, el, a)
}

func (d subresourceDriver) Violations(context.Context) ([]runtime.Violation, error) {
	var vs []runtime.Violation
	for ; *d.pending > 0; *d.pending-- {
		vs = append(vs, runtime.Violation{Kind: runtime.ViolationSubresource, Origin: "https://tracker.example"})
	}
	return vs, nil
}

func TestSubresourceViolationsCounted(t *testing.T) {
	c := newCap("/", milestone("m", click("more", textVisible("ready"), role("button", "More"))))
	d := runtimetest.NewDriver(loopSite())
	defer d.Close()
	res := exec(t, c, subresourceDriver{d, new(int)}, nil)
	// Blocked subresources do not fail the run, but a run with any blocked
	// request is never clean (changed with the causal barrier: before, a
	// completed run with blocked subresources was clean).
	if res.State != receipt.TerminalCompleted || res.BlockedRequests != 2 || res.Clean {
		t.Fatalf("%s", dump(res))
	}
	if slices.Contains(res.Origins, "https://tracker.example") {
		t.Error("a blocked origin counts as reached")
	}
}

// canceledDownloads reports every download canceled.
type canceledDownloads struct{ *runtimetest.Driver }

func (c canceledDownloads) ArmDownload(ctx context.Context) (runtime.PendingDownload, error) {
	p, err := c.Driver.ArmDownload(ctx)
	return canceledPending{p}, err
}

type canceledPending struct{ runtime.PendingDownload }

func (p canceledPending) Wait(ctx context.Context) (runtime.DownloadEvent, error) {
	ev, err := p.PendingDownload.Wait(ctx)
	ev.State = runtime.DownloadCanceled
	return ev, err
}

func TestDownloadCanceled(t *testing.T) {
	d := runtimetest.NewDriver(exportSite())
	defer d.Close()
	res := exec(t, exportCap("Export CSV"), canceledDownloads{d}, nil)
	if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryDownloadFailed || res.Failure.Reason != string(download.ReasonCanceled) {
		t.Fatalf("%s", dump(res))
	}
}

func TestFormOperations(t *testing.T) {
	s := site(map[string]*runtimetest.Page{"/form": {Body: []*runtimetest.Node{
		{ID: "country", Tag: "select", Label: "Country", Children: []*runtimetest.Node{
			{Tag: "option", Text: "Italy", Value: "it"}, {Tag: "option", Text: "France", Value: "fr"}}},
		{ID: "news", Tag: "input", Label: "Newsletter", Attributes: map[string]string{"type": "checkbox", "checked": ""}},
		{ID: "note", Tag: "input", Label: "Note"},
		para("st", "editing"),
	}, Rules: []runtimetest.Rule{{On: runtimetest.Trigger{Node: "note", Act: runtime.ActPress, Key: "Enter"},
		Effects: []runtimetest.Effect{{SetText: map[string]string{"st": "saved"}}}}}}})
	sel := capability.Action{ID: "country", Operation: capability.OpSelect, Intent: "Choose the country", Input: "country",
		Effect: capability.EffectReversible, Confirmation: capability.ConfirmNone, LocatorCandidates: cands(label("Country")),
		Postcondition: visible(label("Country"))}
	chk := capability.Action{ID: "news", Operation: capability.OpUncheck, Intent: "Opt out of the newsletter",
		Effect: capability.EffectReversible, Confirmation: capability.ConfirmNone, LocatorCandidates: cands(label("Newsletter")),
		Postcondition: visible(label("Newsletter"))}
	note := fill("note", "", visible(label("Note")), label("Note"))
	note.Input, note.Value = "", "Order {{country}}"
	press := capability.Action{ID: "save", Operation: capability.OpPress, Intent: "Save", Key: "Enter",
		Effect: capability.EffectReversible, Confirmation: capability.ConfirmNone, LocatorCandidates: cands(label("Note")),
		Postcondition: textVisible("saved")}
	c := newCap("/form", milestone("form", sel, chk, note, press))
	c.Inputs = []capability.Input{
		{Name: "country", Type: capability.InputEnum, Required: true, Values: []string{"it", "fr"}},
	}
	mustValid(t, c)
	d := runtimetest.NewDriver(s)
	defer d.Close()
	res := exec(t, c, d, map[string]any{"country": "fr"})
	if res.State != receipt.TerminalCompleted {
		t.Fatalf("%s", dump(res))
	}
	var acts []runtime.Act
	for _, call := range d.Calls() {
		if call.Method == runtimetest.MethodAct {
			acts = append(acts, call.Act)
		}
	}
	want := []runtime.Act{{Kind: runtime.ActSelect, Value: "fr"}, {Kind: runtime.ActUncheck}, {Kind: runtime.ActFill, Value: "Order fr"}, {Kind: runtime.ActPress, Value: "Enter"}}
	if !slices.Equal(acts, want) {
		t.Errorf("acts %v, want %v", acts, want)
	}
}
