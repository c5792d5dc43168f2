package mcpserver_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/vera-run/vera/internal/chromeproc"
	"github.com/vera-run/vera/internal/livetest"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
	"github.com/vera-run/vera/runtime/tool"
	"github.com/vera-run/vera/runtime/tool/mcpserver"
)

// tellerPassword is the teller capability's secret input.
const tellerPassword = "teller-pass-never-echoed"

// liveTeller is the teller console and an operator's Chromium, both real.
type liveTeller struct {
	site   *testsite.Teller
	chrome *chromeproc.Process
}

// startLive starts the teller site and a Chromium with a DevTools port,
// skipping without a browser unless VERA_REQUIRE_BROWSER=1.
func startLive(t *testing.T) *liveTeller {
	t.Helper()
	site, chrome := livetest.TellerAndChromium(t)
	return &liveTeller{site: site, chrome: chrome}
}

// driver opens a new browser context of the operator's Chromium per call.
func (l *liveTeller) driver(ctx context.Context) (runtime.Driver, error) {
	return browser.Connect(ctx, l.chrome.Endpoint())
}

// seal runs the quickstart's teller capability twice against the live
// site, finalizes it and seals it into dir/<id>-<version>.bundle, as the
// quickstart does.
func (l *liveTeller) seal(t *testing.T, dir string) string {
	t.Helper()
	return livetest.SealTeller(t, l.site, l.chrome, filepath.Join("..", "..", "..", "examples", "quickstart", "teller.capability.json"), tellerPassword, dir)
}

// tamperedCopy copies a bundle into dir/name and changes one byte of its
// capability, so that bundle.Verify rejects it.
func tamperedCopy(t *testing.T, src, dir, name string) {
	t.Helper()
	dst := filepath.Join(dir, name)
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dst, "capability.json")
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	raw = bytes.Replace(raw, []byte("Numeric ID"), []byte("Numeric Id"), 1)
	if err := os.WriteFile(p, raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestTellerBundleInChromium(t *testing.T) {
	live := startLive(t)
	dir := t.TempDir()
	sealed := live.seal(t, dir)
	tamperedCopy(t, sealed, dir, "tampered.bundle")

	s, err := mcpserver.Load(context.Background(), dir,
		mcpserver.WithToolOptions(tool.WithDriver(live.driver), tool.WithRunDir(t.TempDir())))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Tools(); !reflect.DeepEqual(got, []string{"teller.member-balances"}) {
		t.Fatalf("tools %v", got)
	}
	rej := s.Rejected()
	if len(rej) != 1 || filepath.Base(rej[0].Dir) != "tampered.bundle" {
		t.Fatalf("rejected %v", rej)
	}
	rec := &recorder{}
	cs := connect(t, s, rec.client(), "")
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "teller.member-balances" || !list.Tools[0].Annotations.ReadOnlyHint {
		t.Fatalf("listed %+v", list.Tools)
	}

	args := map[string]any{"username": "teller.demo", "password": tellerPassword, "member_id": "100234"}
	out := callTool(t, cs, rec, "teller.member-balances", args)
	want := map[string]any{"member_name": "Ada Lovelace", "savings": "$12,480.55", "checking": "$1,204.10"}
	if out.Status != runtime.StateCompleted || !reflect.DeepEqual(out.Outputs["balances"], want) || !out.Clean {
		t.Fatalf("completed call %+v", out)
	}
	args["member_id"] = "999999"
	out = callTool(t, cs, rec, "teller.member-balances", args)
	if out.Status != runtime.StateBusinessOutcome || out.Outcome == nil || out.Outcome.Code != "member_not_found" {
		t.Fatalf("business outcome call %+v", out)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.progress) < 4 {
		t.Errorf("progress %d notifications", len(rec.progress))
	}
}
