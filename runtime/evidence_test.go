package runtime_test

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

func TestEvidenceFiles(t *testing.T) {
	c := loadCap(t, "teller.json")
	s := tellerSite()
	s.Pages[origin+"/members/M-8842X"] = s.Pages[origin+"/members/42"]
	d := runtimetest.NewDriver(s)
	defer d.Close()
	in := map[string]any{"username": "teller-ZZ91", "password": "pw-QQ77-secret", "member_id": "M-8842X"}
	var logs bytes.Buffer
	res := exec(t, c, d, in, runtime.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	if res.State != receipt.TerminalCompleted {
		t.Fatalf("%s", dump(res))
	}
	entries, err := os.ReadDir(res.RunDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		raw, err := os.ReadFile(filepath.Join(res.RunDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range in {
			if strings.Contains(string(raw), v.(string)) {
				t.Errorf("%s contains the input value %q", e.Name(), v)
			}
		}
		if _, err := canonjson.Transform(raw); err != nil {
			t.Errorf("%s is not canonical JSON: %v", e.Name(), err)
		}
	}
	if strings.Join(names, ",") != "outputs.json,run.lock.json,run.receipt.json" {
		t.Errorf("files %v", names)
	}
	for _, v := range in {
		if strings.Contains(logs.String(), v.(string)) {
			t.Errorf("logs contain the input value %q", v)
		}
	}

	var rc receipt.Receipt
	readJSON(t, filepath.Join(res.RunDir, receipt.FileReceipt), &rc)
	execHash, _ := c.ExecutionHash()
	if rc.Schema != receipt.SchemaReceipt || rc.RunID != res.RunID || rc.Capability.ID != c.ID || rc.Capability.Version != c.Version ||
		rc.Capability.ExecutionHash != execHash || rc.Capability.DiscoveryHash != c.Provenance.DiscoveryHash {
		t.Errorf("receipt header %+v", rc)
	}
	if rc.ExecutionMode != receipt.ModeSimulated || rc.Terminal.State != receipt.TerminalCompleted || !rc.Clean || rc.Recovered || rc.HandedOff || rc.LocatorChangesDuringRun {
		t.Errorf("receipt flags %+v", rc)
	}
	wantUser, _ := receipt.HashInput(execHash, "username", "teller-ZZ91")
	for _, ir := range rc.Inputs {
		switch ir.Name {
		case "username":
			if !ir.Present || ir.Hash != wantUser {
				t.Errorf("username record %+v", ir)
			}
		case "password":
			if !ir.Present || !ir.Secret || ir.Hash != "" {
				t.Errorf("secret input record %+v", ir)
			}
		}
	}
	env := rc.Environment
	if env.Library != "vera/"+runtime.Version || env.GoVersion != goruntime.Version() || env.OS != goruntime.GOOS || env.Arch != goruntime.GOARCH || env.Browser != runtimetest.FakeBrowser {
		t.Errorf("environment %+v", env)
	}
	if len(rc.Origins) != 1 || rc.Origins[0] != origin || len(rc.Actions) != 6 || len(rc.Milestones) != 3 {
		t.Errorf("origins %v actions %d milestones %d", rc.Origins, len(rc.Actions), len(rc.Milestones))
	}
	if li := rc.Actions[0].LocatorIndex; li == nil || *li != 0 {
		t.Errorf("locator index %v", li)
	}
	var outs receipt.Outputs
	readJSON(t, filepath.Join(res.RunDir, receipt.FileOutputs), &outs)
	h, _ := receipt.OutputHash(&outs.Outputs[0])
	if rc.Outputs[0].Hash != h || rc.Outputs[0].Count != 1 || outs.RunID != res.RunID {
		t.Errorf("output record %+v vs %s", rc.Outputs[0], h)
	}
	raw, _ := os.ReadFile(filepath.Join(res.RunDir, receipt.FileReceipt))
	if got := canonjson.SumBytes(raw); got != res.ReceiptHash {
		t.Errorf("receipt hash %s, result %s", got, res.ReceiptHash)
	}
	var lock receipt.Lock
	readJSON(t, filepath.Join(res.RunDir, receipt.FileLock), &lock)
	if lock.Schema != receipt.SchemaLockV1 || lock.Receipt != res.ReceiptHash {
		t.Errorf("lock %+v", lock)
	}
	if strings.Contains(string(raw), "Mario") {
		t.Error("receipt holds an output value")
	}
}

func TestEvidenceOfAFailureHoldsNoRawError(t *testing.T) {
	c := loadCap(t, "teller.json")
	s := tellerSite()
	delete(s.Pages, origin+"/login")
	d := runtimetest.NewDriver(s)
	defer d.Close()
	var logs bytes.Buffer
	in := map[string]any{"username": "teller-ZZ91", "password": "pw-QQ77-secret", "member_id": "777"}
	res := exec(t, c, d, in, runtime.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryTargetUnreachable {
		t.Fatalf("%s", dump(res))
	}
	raw, _ := os.ReadFile(filepath.Join(res.RunDir, receipt.FileReceipt))
	if strings.Contains(string(raw), "HTTP 404") || strings.Contains(string(raw), "/login") {
		t.Error("receipt holds raw error text")
	}
	if !strings.Contains(logs.String(), "HTTP 404") {
		t.Error("raw detail not logged at debug level")
	}
}
