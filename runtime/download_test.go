package runtime_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

const csvBody = "number,amount\nINV-1,10.50\n"

func exportSite() *runtimetest.Site {
	s := site(map[string]*runtimetest.Page{"/export": {
		Body:  []*runtimetest.Node{button("export", "Export CSV"), button("noop", "Do nothing")},
		Rules: []runtimetest.Rule{onClick("export", runtimetest.Effect{Download: "csv"})},
	}})
	s.Downloads = map[string]runtimetest.DownloadFixture{"csv": {Name: "invoices-march.csv", Text: csvBody}}
	return s
}

func exportCap(button string) *capability.Capability {
	a := capability.Action{ID: "export", Operation: capability.OpDownload, Intent: "Export the invoices",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, LocatorCandidates: cands(role("button", button)),
		Output: "files", Postcondition: &capability.Condition{Kind: capability.CondDownloadCompleted}}
	c := newCap("/export", milestone("export", a))
	c.Outputs = []capability.Output{{Name: "files", Kind: capability.OutputDownloadSet, Exposure: capability.ExposureArtifactOnly}}
	return c
}

// guidDriver saves browser-path downloads under their GUID, as a
// provider-owned Chrome does with download behavior "allowAndName".
type guidDriver struct{ *runtimetest.Driver }

func (g guidDriver) ArmDownload(ctx context.Context) (runtime.PendingDownload, error) {
	p, err := g.Driver.ArmDownload(ctx)
	if err != nil {
		return nil, err
	}
	return guidPending{p}, nil
}

type guidPending struct{ runtime.PendingDownload }

func (p guidPending) Wait(ctx context.Context) (runtime.DownloadEvent, error) {
	ev, err := p.PendingDownload.Wait(ctx)
	if err != nil || ev.Path == "" {
		return ev, err
	}
	to := filepath.Join(filepath.Dir(ev.Path), ev.GUID)
	if err := os.Rename(ev.Path, to); err != nil {
		return ev, err
	}
	ev.Path = to
	return ev, nil
}

func checkDownload(t *testing.T, res *runtime.Result, mechanism, evidence string) {
	t.Helper()
	if res.State != receipt.TerminalCompleted {
		t.Fatalf("%s", dump(res))
	}
	sum := sha256.Sum256([]byte(csvBody))
	wantHash := "sha256:" + hex.EncodeToString(sum[:])
	proof := res.Actions[0].Download
	if proof == nil || proof.Mechanism != mechanism || proof.Evidence != evidence || proof.Bytes != int64(len(csvBody)) || proof.SHA256 != wantHash {
		t.Fatalf("proof %+v", proof)
	}
	if _, ok := res.ModelOutputs["files"]; ok || res.ArtifactOutputs["files"] != 1 {
		t.Errorf("download exposed: model %v artifact %v", res.ModelOutputs, res.ArtifactOutputs)
	}
	var outs receipt.Outputs
	readJSON(t, filepath.Join(res.RunDir, receipt.FileOutputs), &outs)
	files := outs.Outputs[0].Files
	if len(files) != 1 || files[0].Bytes != int64(len(csvBody)) || files[0].SHA256 != wantHash {
		t.Fatalf("outputs %+v", outs)
	}
	if b, err := os.ReadFile(files[0].Path); err != nil || string(b) != csvBody {
		t.Errorf("file %q: %v", files[0].Path, err)
	}
	raw, _ := os.ReadFile(filepath.Join(res.RunDir, receipt.FileReceipt))
	if strings.Contains(string(raw), "invoices-march") || strings.Contains(string(raw), filepath.Base(files[0].Path)) || strings.Contains(string(raw), csvBody[:6]) {
		t.Error("receipt holds a file name or content")
	}
	var rc receipt.Receipt
	readJSON(t, filepath.Join(res.RunDir, receipt.FileReceipt), &rc)
	setHash, _ := download.SetHash([]download.File{{Size: int64(len(csvBody)), SHA256: wantHash}})
	if rc.Outputs[0].Hash != setHash || rc.Outputs[0].Count != 1 {
		t.Errorf("receipt output %+v want hash %s", rc.Outputs[0], setHash)
	}
}

func TestDownloadDirectoryRoute(t *testing.T) {
	c := exportCap("Export CSV")
	mustValid(t, c)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "old.csv"), []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	d := runtimetest.NewDriver(exportSite(), runtimetest.WithDownloadDirectory(dir))
	defer d.Close()
	res := exec(t, c, d, nil, runtime.WithDownloadDirectory(dir))
	checkDownload(t, res, download.MechanismDirectory, download.EvidenceDirectoryBytes)
}

func TestDownloadBrowserPathRoute(t *testing.T) {
	d := runtimetest.NewDriver(exportSite())
	defer d.Close()
	res := exec(t, exportCap("Export CSV"), guidDriver{d}, nil)
	checkDownload(t, res, download.MechanismBrowserPath, download.EvidenceBrowserPathBytes)
}

func TestDownloadEventMissing(t *testing.T) {
	c := exportCap("Do nothing")
	c.Milestones[0].Actions[0].TimeoutMS = 200
	dir := t.TempDir()
	for _, route := range []string{"directory", "browser_path"} {
		t.Run(route, func(t *testing.T) {
			var d *runtimetest.Driver
			var opts []runtime.Option
			if route == "directory" {
				d = runtimetest.NewDriver(exportSite(), runtimetest.WithDownloadDirectory(dir))
				opts = append(opts, runtime.WithDownloadDirectory(dir))
			} else {
				d = runtimetest.NewDriver(exportSite())
			}
			defer d.Close()
			res := exec(t, c, d, nil, opts...)
			if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryDownloadFailed || res.Failure.Reason != string(download.ReasonEventMissing) {
				t.Fatalf("%s", dump(res))
			}
		})
	}
}
