package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime"
)

// exportCapability is the invoice capability cut down to its export
// milestone: open the billing shell and download the ledger's CSV through
// the nested cross-origin frames. It completes once the file is verified.
func exportCapability(t testing.TB, inv *testsite.Invoicing) *capability.Capability {
	t.Helper()
	raw := fixtureBytes(t, "invoice_export.json", shellPlaceholder, inv.Origin(), workspacePlaceholder, inv.WorkspaceOrigin())
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	doc["id"] = "billing.invoice-csv-export"
	doc["state"] = "discovered"
	delete(doc, "validation")
	doc["authority"].(map[string]any)["max_effect"] = "read_only"
	var outputs []any
	for _, o := range doc["outputs"].([]any) {
		if o.(map[string]any)["name"] == "invoices_csv" {
			outputs = append(outputs, o)
		}
	}
	doc["outputs"] = outputs
	var milestones []any
	for _, m := range doc["milestones"].([]any) {
		if m.(map[string]any)["id"] == "export" {
			milestones = append(milestones, m)
		}
	}
	doc["milestones"] = milestones
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		t.Fatalf("export capability: %v", err)
	}
	if errs := c.ValidateForExecution(); len(errs) > 0 {
		t.Fatalf("export capability: %v", errs)
	}
	return c
}

// receiptBytes returns run.receipt.json as written.
func receiptBytes(t testing.TB, res *runtime.Result) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(res.RunDir, "run.receipt.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkDownload checks one verified CSV download: the action's proof, the
// receipt's record of it (evidence code, hash; no file name or folder),
// and the file outputs.json names, which must hash to the served bytes.
func checkDownload(t testing.TB, res *runtime.Result, evidence string, served []byte, dir string) string {
	t.Helper()
	want := sha256Of(served)
	a := action(res, "download-csv")
	if a == nil || a.Download == nil {
		t.Fatalf("download-csv: %+v (%s)", a, describeResult(res))
	}
	if a.Download.Evidence != evidence || a.Download.SHA256 != want || a.Download.Bytes != int64(len(served)) {
		t.Errorf("download proof = %+v, want %s %s %d bytes", a.Download, evidence, want, len(served))
	}
	rf := runFiles(t, res)
	var recorded bool
	for _, r := range rf.Receipt.Actions {
		if r.ID == "download-csv" && r.Download != nil {
			recorded = r.Download.Evidence == evidence && r.Download.SHA256 == want
		}
	}
	if !recorded {
		t.Errorf("the receipt does not record %s with %s", evidence, want)
	}
	files := downloadedFiles(t, res, "invoices_csv")
	if len(files) != 1 {
		t.Fatalf("outputs.json lists %d files", len(files))
	}
	path := files[0].Path
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, served) {
		t.Errorf("the downloaded file differs from the served bytes (%d vs %d bytes)", len(got), len(served))
	}
	if dir != "" && filepath.Dir(path) != dir {
		t.Errorf("downloaded to %s, want directly inside %s", path, dir)
	}
	rb := receiptBytes(t, res)
	for _, private := range []string{filepath.Base(path), filepath.Dir(path), "invoices.csv"} {
		if bytes.Contains(rb, []byte(private)) {
			t.Errorf("the receipt contains %q", private)
		}
	}
	return path
}

// TestDownloadBrowserPathRoute: a launched browser saves the export under
// its GUID and the runtime verifies it with download.VerifyPath.
func TestDownloadBrowserPathRoute(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := exportCapability(t, s.Invoicing)
	res := execute(t, tctx(t, 60*time.Second), d, c, nil)
	wantState(t, res, runtime.StateCompleted, "")
	path := checkDownload(t, res, download.EvidenceBrowserPathBytes, s.Invoicing.ExportCSV(), "")
	if a := action(res, "download-csv"); a.Download.Mechanism != download.MechanismBrowserPath {
		t.Errorf("mechanism = %s", a.Download.Mechanism)
	}
	if strings.HasSuffix(path, ".csv") {
		t.Errorf("browser-path download %s is not named by its GUID", path)
	}
}

// TestDownloadCanceled: the server drops the connection half way through
// the body; the browser reports the download canceled and the run fails
// with download_failed / download_canceled.
func TestDownloadCanceled(t *testing.T) {
	t.Parallel()
	d := shared(t)
	inv := startInvoicing(t)
	inv.SetExportSize(64 << 10)
	inv.SetExportStall(time.Minute)
	c := exportCapability(t, inv)
	ctx := tctx(t, 60*time.Second)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ctx.Err() == nil && inv.Workspace.Hits("/export/invoices.csv") == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond) // the first half is in the browser
		inv.Workspace.Close()
	}()
	res := execute(t, ctx, d, c, nil)
	wg.Wait()
	wantState(t, res, runtime.StateFailed, "")
	if res.Failure.Category != "download_failed" || res.Failure.Reason != "download_canceled" {
		t.Errorf("failure = %+v, want download_failed/download_canceled", res.Failure)
	}
}

// TestDownloadDirectoryRoute: a connected browser whose driver context
// saves into a folder (WithDownloadDirectory) and the runtime's folder route
// (WithDownloadDirectory): the one new file is attributed by directory
// correlation, verified, and only outputs.json names it.
func TestDownloadDirectoryRoute(t *testing.T) {
	ext := startExternal(t)
	s := sites(t)
	inv := s.Invoicing
	connect := func(t *testing.T, dir string) *Driver {
		t.Helper()
		d, err := Connect(tctx(t, 30*time.Second), ext.endpoint, WithDownloadDirectory(dir))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		if d.Info().DownloadRoute != runtime.DownloadDirectory {
			t.Fatalf("route = %s", d.Info().DownloadRoute)
		}
		return d
	}
	newDir := func(t *testing.T) string {
		dir := filepath.Join(t.TempDir(), "Downloads")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	run := func(t *testing.T, dir string) *runtime.Result {
		t.Helper()
		d := connect(t, dir)
		res := execute(t, tctx(t, 60*time.Second), d, exportCapability(t, inv), nil, runtime.WithDownloadDirectory(dir))
		wantState(t, res, runtime.StateCompleted, "")
		return res
	}
	// untouched records files that must survive a run unchanged.
	type snapshot struct {
		data  []byte
		mtime time.Time
	}
	keep := func(t *testing.T, path string, data []byte) func() {
		t.Helper()
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Hour).Truncate(time.Second)
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
		before := snapshot{data, old}
		return func() {
			t.Helper()
			b, err := os.ReadFile(path)
			st, serr := os.Stat(path)
			if err != nil || serr != nil || !bytes.Equal(b, before.data) || !st.ModTime().Equal(before.mtime) {
				t.Errorf("%s changed (%v %v)", filepath.Base(path), err, serr)
			}
		}
	}

	t.Run("verified", func(t *testing.T) {
		dir := newDir(t)
		res := run(t, dir)
		path := checkDownload(t, res, download.EvidenceDirectoryBytes, inv.ExportCSV(), dir)
		if filepath.Base(path) != "invoices.csv" {
			t.Errorf("saved as %s", filepath.Base(path))
		}
		if a := action(res, "download-csv"); a.Download.Mechanism != download.MechanismDirectory {
			t.Errorf("mechanism = %s", a.Download.Mechanism)
		}
		if res.Mode != runtime.ModeLiveConnected {
			t.Errorf("mode = %s", res.Mode)
		}
	})

	// The folder named once: WithDownloadDirectory alone, the driver reports it
	// (DriverInfo.DownloadFolder) and the runtime watches it.
	t.Run("folder_named_once", func(t *testing.T) {
		dir := newDir(t)
		d := connect(t, dir)
		if d.Info().DownloadFolder != dir {
			t.Fatalf("DownloadFolder = %q, want %q", d.Info().DownloadFolder, dir)
		}
		res := execute(t, tctx(t, 60*time.Second), d, exportCapability(t, inv), nil)
		wantState(t, res, runtime.StateCompleted, "")
		checkDownload(t, res, download.EvidenceDirectoryBytes, inv.ExportCSV(), dir)
	})

	t.Run("partial_left_untouched", func(t *testing.T) {
		dir := newDir(t)
		check := keep(t, filepath.Join(dir, "report.pdf.crdownload"), []byte("half a report"))
		res := run(t, dir)
		checkDownload(t, res, download.EvidenceDirectoryBytes, inv.ExportCSV(), dir)
		check()
	})

	t.Run("dotdot_filename", func(t *testing.T) {
		inv.SetExportFilename("../invoices.csv")
		defer inv.SetExportFilename("")
		dir := newDir(t)
		res := run(t, dir)
		path := checkDownload(t, res, download.EvidenceDirectoryBytes, inv.ExportCSV(), dir)
		t.Logf("../invoices.csv saved as %q", filepath.Base(path))
		ents, err := os.ReadDir(filepath.Dir(dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.Name() != filepath.Base(dir) {
				t.Errorf("a file landed next to the folder: %s", e.Name())
			}
		}
	})

	t.Run("uniquified_name", func(t *testing.T) {
		dir := newDir(t)
		check := keep(t, filepath.Join(dir, "invoices.csv"), []byte("an older export\n"))
		res := run(t, dir)
		path := checkDownload(t, res, download.EvidenceDirectoryBytes, inv.ExportCSV(), dir)
		if filepath.Base(path) != "invoices (1).csv" {
			t.Errorf("saved as %q, want %q", filepath.Base(path), "invoices (1).csv")
		}
		check()
	})
}

// timingDriver records when the browser reported each download complete.
type timingDriver struct {
	*Driver
	mu        sync.Mutex
	completed time.Time
}

func (d *timingDriver) ArmDownload(ctx context.Context) (runtime.PendingDownload, error) {
	p, err := d.Driver.ArmDownload(ctx)
	if err != nil {
		return nil, err
	}
	return &timedPending{PendingDownload: p, d: d}, nil
}

type timedPending struct {
	runtime.PendingDownload
	d *timingDriver
}

func (p *timedPending) Wait(ctx context.Context) (runtime.DownloadEvent, error) {
	ev, err := p.PendingDownload.Wait(ctx)
	p.d.mu.Lock()
	p.d.completed = time.Now()
	p.d.mu.Unlock()
	return ev, err
}

// BenchmarkDownloadDirectory1MB measures the directory route for a 1 MiB
// CSV in a connected browser: ms/verify is the time from the browser's
// "completed" event to verified evidence (settle, poll, hash); ms/download
// from the click to verified evidence.
func BenchmarkDownloadDirectory1MB(b *testing.B) {
	requireBrowser(b)
	p, err := chromeproc.Start(tctx(b, 30*time.Second))
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	s := sites(b)
	s.Invoicing.SetExportSize(1 << 20)
	served := s.Invoicing.ExportCSV()
	c := exportCapability(b, s.Invoicing)
	var verify, total time.Duration
	var start time.Time
	n := 0
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		d, err := Connect(tctx(b, 30*time.Second), p.HTTPEndpoint(), WithDownloadDirectory(dir))
		if err != nil {
			b.Fatal(err)
		}
		td := &timingDriver{Driver: d}
		var done time.Time
		hooks := &runtime.Hooks{
			WaitStart: func(i runtime.WaitStartInfo) {
				if i.Kind == runtime.WaitDownload {
					start = time.Now()
				}
			},
			WaitDone: func(i runtime.WaitDoneInfo) {
				if i.Kind == runtime.WaitDownload {
					done = time.Now()
				}
			},
		}
		b.StartTimer()
		res, err := runtime.Execute(tctx(b, time.Minute), c, nil, runtime.WithDriver(td),
			runtime.WithRunDir(b.TempDir()), runtime.WithDownloadDirectory(dir), runtime.WithHooks(hooks))
		b.StopTimer()
		if err != nil || res.State != runtime.StateCompleted {
			b.Fatalf("Execute: %v %s", err, describeResult(res))
		}
		if a := action(res, "download-csv"); a.Download.Bytes != int64(len(served)) || a.Download.SHA256 != sha256Of(served) {
			b.Fatalf("download proof %+v", a.Download)
		}
		verify += done.Sub(td.completed)
		total += done.Sub(start)
		n++
		d.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(verify.Microseconds())/1000/float64(n), "ms/verify")
	b.ReportMetric(float64(total.Microseconds())/1000/float64(n), "ms/download")
}

func TestSafeDownloadName(t *testing.T) {
	cases := []struct{ in, want string }{
		{"invoices.csv", "invoices.csv"},
		{"../invoices.csv", "invoices.csv"},
		{`..\..\invoices.csv`, "invoices.csv"},
		{"/etc/passwd", "passwd"},
		{".bashrc", "bashrc"},
		{" . .hidden", "hidden"},
		{"..", ""},
		{".", ""},
		{"", ""},
		{"dir/", ""},
		{"report.pdf.crdownload", ""},
		{"x.tmp", ""},
		{".com.google.Chrome.abc", "com.google.Chrome.abc"},
		{"Thumbs.db", ""},
		{"a:Zone.Identifier", ""},
		{"nul\x00byte", ""},
		{"\xff\xfe.csv", ""},
		{strings.Repeat("a", 201), ""},
		{"fattura marzo (1).csv", "fattura marzo (1).csv"},
		{"café.csv", "café.csv"},
	}
	for _, c := range cases {
		if got := safeDownloadName(c.in); got != c.want {
			t.Errorf("safeDownloadName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzSafeDownloadName(f *testing.F) {
	for _, s := range []string{"invoices.csv", "../x", `a\b`, ".x", "x.crdownload", "a:b", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := safeDownloadName(s)
		if n == "" {
			return
		}
		if strings.ContainsAny(n, "/\\\x00:") || strings.HasPrefix(n, ".") || n == ".." || download.IsPartial(n) || len(n) > 200 {
			t.Fatalf("safeDownloadName(%q) = %q", s, n)
		}
		if filepath.Base(n) != n || filepath.Join("dir", n) != "dir/"+n {
			t.Fatalf("safeDownloadName(%q) = %q is not one plain path element", s, n)
		}
	})
}

// TestNameDownload: the GUID-named file gets the suggested name or the
// first free "stem (n).ext"; nothing is ever replaced; unsafe names and a
// bad GUID keep the GUID name.
func TestNameDownload(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return string(b)
	}
	cases := []struct{ guid, suggested, want string }{
		{"g1", "invoices.csv", "invoices.csv"},
		{"g2", "invoices.csv", "invoices (1).csv"},
		{"g3", "invoices.csv", "invoices (2).csv"},
		{"g4", "README", "README"},
		{"g5", "README", "README (1)"},
		{"g6", "../escape.csv", "escape.csv"},
		{"g7", "x.crdownload", "g7"},
		{"g8", "..", "g8"},
	}
	for _, c := range cases {
		write(c.guid, c.guid)
		got := nameDownload(dir, c.guid, c.suggested)
		if got != filepath.Join(dir, c.want) || read(c.want) != c.guid {
			t.Errorf("nameDownload(%s, %q) = %s (holds %q), want %s", c.guid, c.suggested, got, read(c.want), c.want)
		}
		if c.want != c.guid {
			if _, err := os.Lstat(filepath.Join(dir, c.guid)); !os.IsNotExist(err) {
				t.Errorf("%s: the GUID name is still there (%v)", c.guid, err)
			}
		}
	}
	if got := nameDownload(dir, "../g1", "x.csv"); got != filepath.Join(dir, "../g1") {
		t.Errorf("a bad GUID was renamed: %s", got)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), "escape.csv")); !os.IsNotExist(err) {
		t.Error("a file escaped the folder")
	}
}
