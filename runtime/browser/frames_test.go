package browser

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

var ledgerPath = []string{"iframe#workspace", "iframe#ledger"}

func TestInvoicingNestedCrossOriginFrames(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 30*time.Second)
	a, b := s.Invoicing.Origin(), s.Invoicing.WorkspaceOrigin()
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{a, b}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, a+"/billing"); err != nil {
		t.Fatal(err)
	}
	sc, infos, err := d.Frame(ctx, ledgerPath)
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{infos[0].Origin, infos[1].Origin}; !slices.Equal(got, []string{b, b}) {
		t.Fatalf("frame origins = %v, want [%s %s]", got, b, b)
	}
	// The workspace is cross-site to the shell: an out-of-process frame.
	if sc.(*scope).sid == d.pageSID {
		t.Errorf("ledger resolved in the page's own session; expected an out-of-process frame")
	}
	rows, err := d.Find(ctx, sc, nil, locator.Candidate{Strategy: locator.CSS, CSS: "tr.invoice-row"})
	if err != nil || len(rows) != 10 {
		t.Fatalf("rows: %d, %v", len(rows), err)
	}
	cells, err := d.Find(ctx, sc, rows[0], locator.Candidate{Strategy: locator.CSS, CSS: "td.number"})
	if err != nil || len(cells) != 1 {
		t.Fatalf("cell: %d, %v", len(cells), err)
	}
	if v, err := d.Read(ctx, cells[0], runtime.Read{Kind: runtime.ReadText}); err != nil || v != "INV-2041" {
		t.Fatalf("first invoice = %q, %v", v, err)
	}
	// Same node, same handle.
	again, err := d.Find(ctx, sc, nil, locator.Candidate{Strategy: locator.CSS, CSS: "tr.invoice-row"})
	if err != nil || again[0] != rows[0] {
		t.Fatalf("handles of the same node differ: %v", err)
	}
	next := findOne(t, ctx, d, sc, role("button", "Next page"))
	if err := d.Act(ctx, next, runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	status := findOne(t, ctx, d, sc, locator.Candidate{Strategy: locator.Text, Text: "Page 2 of 3", Exact: true})
	if v, _ := d.Read(ctx, status, runtime.Read{Kind: runtime.ReadText}); v != "Page 2 of 3" {
		t.Fatalf("status = %q", v)
	}
	// The top document is not the ledger.
	top, _, _ := d.Frame(ctx, nil)
	if els, err := d.Find(ctx, top, nil, role("button", "Next page")); err != nil || len(els) != 0 {
		t.Fatalf("top-level find leaked into frames: %d, %v", len(els), err)
	}
	// Errors for bad frame paths.
	if _, _, err := d.Frame(ctx, []string{"iframe#nope"}); !errors.Is(err, runtime.ErrFrameNotFound) {
		t.Errorf("missing frame: %v", err)
	}
	if _, _, err := d.Frame(ctx, []string{"iframe#workspace", "h2"}); !errors.Is(err, runtime.ErrFrameNotFound) {
		t.Errorf("not an iframe: %v", err)
	}
	if _, _, err := d.Frame(ctx, []string{"iframe, iframe#workspace"}); err != nil {
		t.Errorf("deduplicated selector: %v", err)
	}
}

func TestDownloadBrowserPath(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 30*time.Second)
	a, b := s.Invoicing.Origin(), s.Invoicing.WorkspaceOrigin()
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{a, b}}); err != nil {
		t.Fatal(err)
	}
	if err := d.Navigate(ctx, a+"/billing"); err != nil {
		t.Fatal(err)
	}
	sc, _, err := d.Frame(ctx, ledgerPath)
	if err != nil {
		t.Fatal(err)
	}
	// Nothing armed and nothing clicked: the event is missing.
	p0, err := d.ArmDownload(ctx)
	if err != nil {
		t.Fatal(err)
	}
	short := tctx(t, 300*time.Millisecond)
	if _, err := p0.Wait(short); !errors.Is(err, runtime.ErrDownloadEventMissing) {
		t.Fatalf("Wait without a download = %v", err)
	}
	p0.Close()

	p, err := d.ArmDownload(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := d.Act(ctx, findOne(t, ctx, d, sc, role("button", "Export CSV")), runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	ev, err := p.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if ev.State != runtime.DownloadCompleted || ev.GUID == "" || ev.Path == "" || ev.SuggestedName != "invoices.csv" {
		t.Fatalf("event = %+v", ev)
	}
	got, err := os.ReadFile(ev.Path)
	if err != nil || !bytes.Equal(got, s.Invoicing.ExportCSV()) {
		t.Fatalf("downloaded %d bytes (%v), want the export", len(got), err)
	}
}
