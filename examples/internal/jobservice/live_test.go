package jobservice_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/examples/internal/jobservice"
	"github.com/vera-run/vera/examples/internal/jobservicetest"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime/jobs"
)

func decode[T any](t *testing.T, raw []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%q: %v", raw, err)
	}
	return v
}

func code(d jobservice.RunDocument) jobs.Code {
	if d.Error == nil {
		return ""
	}
	return *d.Error
}

// sealBundle seals the teller capability (authored: no receipts needed)
// pointed at origin into dir/name and returns the folder.
func sealBundle(t *testing.T, origin, dir, name string) string {
	t.Helper()
	c, err := capability.ParseBytes(jobservicetest.CapabilityJSON(t, origin))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, name)
	if _, err := bundle.Seal(context.Background(), out, c, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestLiveProtocol drives one service over a real Chromium through every
// answer of the protocol except the ones that need their own limits
// (TestLiveQueueLimits) or a restart (examples/jobserver).
func TestLiveProtocol(t *testing.T) {
	bundles := t.TempDir()
	h := jobservicetest.Start(t, jobservice.WithBundles(bundles), jobservice.WithActiveBrowsers(1), jobservice.WithMaxQueued(1))
	origin := h.Teller.Origin()
	sealBundle(t, origin, bundles, "teller.bundle")
	tampered := filepath.Join(bundles, "tampered.bundle")
	if err := os.CopyFS(tampered, os.DirFS(filepath.Join(bundles, "teller.bundle"))); err != nil {
		t.Fatal(err)
	}
	capPath := filepath.Join(tampered, "capability.json")
	raw, _ := os.ReadFile(capPath)
	if err := os.WriteFile(capPath, bytes.Replace(raw, []byte("Member ID"), []byte("Member Id"), 1), 0o600); err != nil {
		t.Fatal(err)
	}

	t.Run("healthz and preflight 200", func(t *testing.T) {
		if c, _ := h.Do(http.MethodGet, "/healthz", "", nil, map[string]string{jobservice.ProtocolHeader: ""}); c != 200 {
			t.Errorf("healthz: %d", c)
		}
		c, raw := h.Do(http.MethodGet, "/v1/preflight", "", nil, nil)
		d := decode[jobservice.PreflightDoc](t, raw)
		if c != 200 || !d.Available || d.Report == nil || d.Report.Browser == "" || d.Limits.ActiveBrowsers != 1 || d.Limits.MaxQueued != 1 {
			t.Errorf("preflight: %d %s", c, raw)
		}
	})

	t.Run("409 protocol mismatch", func(t *testing.T) {
		body, _ := json.Marshal(h.Request("100234"))
		for _, hv := range []string{"", "2", "1.0"} {
			c, raw := h.Do(http.MethodPost, "/v1/runs", "", body, map[string]string{jobservice.ProtocolHeader: hv})
			if e := decode[jobservice.ErrorDoc](t, raw); c != http.StatusConflict || e.Error != jobservice.ErrorProtocolMismatch {
				t.Errorf("header %q: %d %s", hv, c, raw)
			}
		}
		req := h.Request("100234")
		req.APIVersion = "2"
		if c, _, e := h.Submit(req); c != http.StatusConflict || e.Error != jobservice.ErrorProtocolMismatch {
			t.Errorf("api_version 2: %d %+v", c, e)
		}
		req.APIVersion = ""
		if c, _, e := h.Submit(req); c != http.StatusConflict {
			t.Errorf("no api_version: %d %+v", c, e)
		}
		if c, _ := h.Do(http.MethodGet, "/v1/runs/job_x", "t", nil, map[string]string{jobservice.ProtocolHeader: ""}); c != http.StatusConflict {
			t.Errorf("status without header: %d", c)
		}
		if n := jobCount(t, h); n != 0 {
			t.Errorf("%d jobs after refused submissions", n)
		}
	})

	t.Run("413 oversized", func(t *testing.T) {
		req := h.Request("100234")
		req.Inputs["pad"] = strings.Repeat("x", jobservice.MaxBodyBytes)
		body, _ := json.Marshal(req)
		c, raw := h.Do(http.MethodPost, "/v1/runs", "", body, nil)
		if e := decode[jobservice.ErrorDoc](t, raw); c != http.StatusRequestEntityTooLarge || e.Error != jobservice.ErrorTooLarge {
			t.Errorf("oversized: %d %s", c, raw)
		}
		// Without a Content-Length (chunked), the limit is the reader's.
		hreq, _ := http.NewRequest(http.MethodPost, h.URL()+"/v1/runs", io.MultiReader(bytes.NewReader(body)))
		hreq.Header.Set(jobservice.ProtocolHeader, "1")
		resp, err := http.DefaultClient.Do(hreq)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge || hreq.ContentLength > 0 {
			t.Errorf("chunked oversized: %d (content length %d)", resp.StatusCode, hreq.ContentLength)
		}
		// Exactly at the limit is read, and refused for its content (an
		// unknown input), not its size.
		req.Inputs["pad"] = ""
		body, _ = json.Marshal(req)
		req.Inputs["pad"] = strings.Repeat("x", jobservice.MaxBodyBytes-len(body))
		body, _ = json.Marshal(req)
		if len(body) != jobservice.MaxBodyBytes {
			t.Fatalf("body of %d bytes", len(body))
		}
		if c, raw := h.Do(http.MethodPost, "/v1/runs", "", body, nil); c != http.StatusBadRequest && c != http.StatusRequestEntityTooLarge {
			t.Errorf("body at the limit: %d %s", c, raw)
		}
	})

	t.Run("400 invalid requests", func(t *testing.T) {
		good := h.Request("100234")
		both := good
		both.Bundle = "teller.bundle"
		neither := good
		neither.Capability = nil
		badCap := h.Request("100234", `"effect": "read_only"`, `"effect": "harmless"`)
		noMember := h.Request("100234")
		delete(noMember.Inputs, "member_id")
		longBudget := h.Request("100234")
		longBudget.TimeoutMS = 120001
		for name, req := range map[string]jobservice.SubmitRequest{"both": both, "neither": neither, "bad capability": badCap,
			"missing input": noMember, "budget": longBudget} {
			if c, _, e := h.Submit(req); c != http.StatusBadRequest || e.Error != jobservice.ErrorInvalidRequest {
				t.Errorf("%s: %d %+v", name, c, e)
			}
		}
		for name, body := range map[string]string{"not json": "{", "unknown member": `{"api_version":"1","bundle":"x","extra":1}`,
			"duplicate member": `{"api_version":"1","bundle":"a","bundle":"b"}`, "bad bundle name": `{"api_version":"1","bundle":"../x"}`} {
			if c, raw := h.Do(http.MethodPost, "/v1/runs", "", []byte(body), nil); c != http.StatusBadRequest {
				t.Errorf("%s: %d %s", name, c, raw)
			}
		}
	})

	t.Run("422 bundle that does not verify", func(t *testing.T) {
		for _, name := range []string{"tampered.bundle", "absent.bundle"} {
			req := jobservice.SubmitRequest{APIVersion: "1", Bundle: name, Inputs: jobservicetest.Inputs("100234")}
			c, _, e := h.Submit(req)
			if c != http.StatusUnprocessableEntity || e.Error != jobservice.ErrorBundleInvalid || len(e.Problems) == 0 {
				t.Errorf("%s: %d %+v", name, c, e)
			}
		}
		if n := jobCount(t, h); n != 0 {
			t.Errorf("%d jobs after refused bundles", n)
		}
	})

	var passed jobservice.Accepted
	t.Run("202 bundle run passes with its artifacts", func(t *testing.T) {
		m := testsite.TellerMembers[2]
		acc := h.MustSubmit(jobservice.SubmitRequest{APIVersion: "1", Bundle: "teller.bundle", Inputs: jobservicetest.Inputs(m.ID), Label: "bundle run"})
		if !strings.HasPrefix(acc.Token, jobservice.TokenPrefix) || acc.Status != jobs.StateQueued || !acc.ExpiresAt.Equal(acc.AcceptedAt.Add(jobs.Expiry)) {
			t.Errorf("accepted: %+v", acc)
		}
		d := h.Wait(acc.ID, acc.Token)
		if d.Status != jobs.StatePassed || d.Error != nil || fmt.Sprint(d.Outputs["balances"]) != jobservicetest.Answer(m) ||
			d.Bundle != "teller.bundle" || d.Label != "bundle run" || d.CompletedSteps != d.TotalSteps || len(d.Steps) != d.TotalSteps {
			t.Fatalf("bundle run: %+v", d)
		}
		passed = acc
		// The 202 names the run's route, and every /v1 answer carries
		// the protocol header and is not cached.
		body, _ := json.Marshal(h.Request(m.ID))
		req, _ := http.NewRequest(http.MethodPost, h.URL()+"/v1/runs", bytes.NewReader(body))
		req.Header.Set(jobservice.ProtocolHeader, jobservice.ProtocolVersion)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw202, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		acc2 := decode[jobservice.Accepted](t, raw202)
		if resp.StatusCode != http.StatusAccepted || resp.Header.Get("Location") != "/v1/runs/"+acc2.ID ||
			resp.Header.Get(jobservice.ProtocolHeader) != jobservice.ProtocolVersion || resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("202: %d Location %q, headers %v", resp.StatusCode, resp.Header.Get("Location"), resp.Header)
		}
		h.Wait(acc2.ID, acc2.Token)
		// The receipt is an artifact whose bytes hash to receipt_hash.
		name := d.RunID + "/run.receipt.json"
		c, raw := h.Do(http.MethodGet, "/v1/runs/"+acc.ID+"/artifacts/"+name, acc.Token, nil, nil)
		sum := sha256.Sum256(raw)
		if c != 200 || "sha256:"+hex.EncodeToString(sum[:]) != d.ReceiptHash {
			t.Errorf("receipt artifact: %d, hash %x, want %s", c, sum, d.ReceiptHash)
		}
		for _, bad := range []string{"nope.png", "../job.json", d.RunID + "/../../job.json", "%2e%2e/job.json"} {
			if c, _ := h.Do(http.MethodGet, "/v1/runs/"+acc.ID+"/artifacts/"+bad, acc.Token, nil, nil); c != http.StatusNotFound {
				t.Errorf("artifact %q: %d", bad, c)
			}
		}
		// Files 0600, folders 0700 in the state folder.
		_ = filepath.WalkDir(h.Dir, func(p string, e os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			fi, _ := e.Info()
			want := os.FileMode(0o600)
			if e.IsDir() {
				want = 0o700
			}
			if fi.Mode().Perm() != want {
				t.Errorf("%s: mode %v, want %v", p, fi.Mode().Perm(), want)
			}
			// Nothing kept holds an input value (the seed's receipts omit
			// fill values): not the record, not the evidence, not the tokens.
			if b, _ := os.ReadFile(p); !e.IsDir() && bytes.Contains(b, []byte(jobservicetest.Password)) {
				t.Errorf("%s holds the password input", p)
			}
			return nil
		})
		raw, _ = os.ReadFile(filepath.Join(h.Dir, "tokens.json"))
		if bytes.Contains(raw, []byte(acc.Token)) || !bytes.Contains(raw, []byte(hashHex(acc.Token))) {
			t.Errorf("tokens.json holds the token or lacks its hash: %s", raw)
		}
	})

	t.Run("failed ui_assertion_failed, target_unreachable, target_not_allowed, run_timeout", func(t *testing.T) {
		ui := h.MustSubmit(h.Request("100234", `"label": "Member ID"`, `"label": "Member Number"`))
		if d := h.Wait(ui.ID, ui.Token); d.Status != jobs.StateFailed || code(d) != jobs.CodeUIAssertionFailed || len(d.Outputs) != 0 {
			t.Errorf("ui failure: %+v", d)
		}
		req := h.Request("100234", origin, "http://127.0.0.1:9")
		un := h.MustSubmit(req)
		if d := h.Wait(un.ID, un.Token); d.Status != jobs.StateFailed || code(d) != jobs.CodeTargetUnreachable {
			t.Errorf("unreachable: %+v", d)
		}
		// The start page redirects to an origin the capability does not
		// allow: the browser's origin gate blocks it, target_not_allowed
		// (not target_unreachable: the outside port answers nothing).
		h.Teller.SetOutsideOrigin("http://127.0.0.1:9")
		out := h.MustSubmit(h.Request("100234", `"start": "/login"`, `"start": "`+testsite.EscapeRedirect+`"`))
		if d := h.Wait(out.ID, out.Token); d.Status != jobs.StateFailed || code(d) != jobs.CodeTargetNotAllowed || len(d.Outputs) != 0 {
			t.Errorf("redirect off the allowed origin: %+v", d)
		}
		// A run budget smaller than the slowed site needs: run_timeout.
		h.Teller.SetLatency(time.Second)
		defer h.Teller.SetLatency(0)
		req = h.Request("100239")
		req.TimeoutMS = 2500
		slow := h.MustSubmit(req)
		if d := h.Wait(slow.ID, slow.Token); d.Status != jobs.StateFailed || code(d) != jobs.CodeRunTimeout || len(d.Outputs) != 0 {
			t.Errorf("over budget: %+v", d)
		}
	})

	t.Run("queued running cancelled 429 and progress", func(t *testing.T) {
		h.Teller.SetLatency(300 * time.Millisecond)
		defer h.Teller.SetLatency(0)
		a := h.MustSubmit(h.Request("100235"))
		h.Events.Running(t, a.ID, 2)
		b := h.MustSubmit(h.Request("100236"))
		if b.QueuePosition != 1 || b.Status != jobs.StateQueued {
			t.Errorf("second submission: %+v", b)
		}
		if c, _, e := h.Submit(h.Request("100237")); c != http.StatusTooManyRequests || e.Error != string(jobs.CodeQueueFull) {
			t.Errorf("third submission: %d %+v", c, e)
		}
		c, da := h.Get(a.ID, a.Token, "")
		if c != 200 || da.Status != jobs.StateRunning || da.Progress == nil || da.Progress.Total != da.TotalSteps || da.StartedAt == nil {
			t.Errorf("running: %d %+v", c, da)
		}
		// A waiting status request answers at the next change.
		_, next := h.Get(a.ID, a.Token, fmt.Sprintf("wait_ms=20000&after=%d", da.Revision))
		if next.Revision <= da.Revision {
			t.Errorf("waited status: revision %d after %d", next.Revision, da.Revision)
		}
		if c, raw := h.Do(http.MethodGet, "/v1/runs/"+a.ID+"/artifacts/x", a.Token, nil, nil); c != http.StatusConflict ||
			decode[jobservice.ErrorDoc](t, raw).Error != jobservice.ErrorNotTerminal {
			t.Errorf("artifact of a running run: %d %s", c, raw)
		}
		if c, db := h.Get(b.ID, b.Token, ""); c != 200 || db.Status != jobs.StateQueued || db.QueuePosition != 1 {
			t.Errorf("queued: %d %+v", c, db)
		}
		for range 2 { // idempotent
			c, raw := h.Do(http.MethodDelete, "/v1/runs/"+b.ID, b.Token, nil, nil)
			if d := decode[jobservice.RunDocument](t, raw); c != 200 || d.Status != jobs.StateCancelled || code(d) != jobs.CodeCancelled {
				t.Errorf("cancel queued: %d %s", c, raw)
			}
		}
		c, raw := h.Do(http.MethodDelete, "/v1/runs/"+a.ID, a.Token, nil, nil)
		if d := decode[jobservice.RunDocument](t, raw); c != 200 || (d.Status == jobs.StateRunning && !d.CancelRequested) {
			t.Errorf("cancel running: %d %s", c, raw)
		}
		if d := h.Wait(a.ID, a.Token); d.Status != jobs.StateCancelled || code(d) != jobs.CodeCancelled || len(d.Outputs) != 0 {
			t.Errorf("cancelled running: %+v", d)
		}
		if c, raw := h.Do(http.MethodDelete, "/v1/runs/"+a.ID, a.Token, nil, nil); c != 200 || decode[jobservice.RunDocument](t, raw).Status != jobs.StateCancelled {
			t.Errorf("cancel again: %d %s", c, raw)
		}
	})

	t.Run("404 wrong missing unknown expired", func(t *testing.T) {
		if passed.ID == "" {
			t.Skip("no passed run")
		}
		other := h.MustSubmit(h.Request("100238"))
		h.Wait(other.ID, other.Token)
		cases := map[string][2]string{
			"wrong token":   {passed.ID, other.Token},
			"missing token": {passed.ID, ""},
			"forged token":  {passed.ID, jobservice.TokenPrefix + "AAAA"},
			"unknown id":    {"job_00000000000000000000000000000000", passed.Token},
		}
		var bodies [][]byte
		check := func(name, id, token string) {
			for _, m := range []string{http.MethodGet, http.MethodDelete} {
				c, raw := h.Do(m, "/v1/runs/"+id, token, nil, nil)
				if c != http.StatusNotFound {
					t.Errorf("%s %s: %d %s", name, m, c, raw)
				}
				bodies = append(bodies, raw)
			}
			c, raw := h.Do(http.MethodGet, "/v1/runs/"+id+"/artifacts/x", token, nil, nil)
			if c != http.StatusNotFound {
				t.Errorf("%s artifact: %d", name, c)
			}
			bodies = append(bodies, raw)
		}
		for name, c := range cases {
			check(name, c[0], c[1])
		}
		if c, d := h.Get(passed.ID, passed.Token, ""); c != 200 || d.Status != jobs.StatePassed {
			t.Fatalf("the right token: %d", c)
		}
		// No listing route, and no other route: the same 404, with the
		// protocol header like every /v1 answer.
		for _, p := range []string{"/v1/runs", "/v1/runs/", "/v1/jobs", "/v1/runs/" + passed.ID + "/receipt"} {
			req, _ := http.NewRequest(http.MethodGet, h.URL()+p, nil)
			req.Header.Set(jobservice.ProtocolHeader, jobservice.ProtocolVersion)
			req.Header.Set("Authorization", "Bearer "+passed.Token)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusNotFound || resp.Header.Get(jobservice.ProtocolHeader) != jobservice.ProtocolVersion {
				t.Errorf("GET %s: %d, %s %q", p, resp.StatusCode, jobservice.ProtocolHeader, resp.Header.Get(jobservice.ProtocolHeader))
			}
			bodies = append(bodies, raw)
		}
		h.Clock.Advance(jobs.Expiry + time.Second)
		check("expired", passed.ID, passed.Token)
		for i, b := range bodies {
			if !bytes.Equal(b, bodies[0]) {
				t.Errorf("404 body %d differs: %s vs %s", i, b, bodies[0])
			}
		}
	})

	t.Run("503 browser unavailable", func(t *testing.T) {
		if err := h.Browser.Close(); err != nil {
			t.Logf("browser close: %v", err)
		}
		<-h.Browser.Done()
		if c, _, e := h.Submit(h.Request("100234")); c != http.StatusServiceUnavailable || e.Error != string(jobs.CodeBrowserUnavailable) {
			t.Errorf("submission without a browser: %d %+v", c, e)
		}
		h.Clock.Advance(jobservice.PreflightInterval)
		c, raw := h.Do(http.MethodGet, "/v1/preflight", "", nil, nil)
		if d := decode[jobservice.PreflightDoc](t, raw); c != http.StatusServiceUnavailable || d.Available || d.Error != string(jobs.CodeBrowserUnavailable) {
			t.Errorf("preflight without a browser: %d %s", c, raw)
		}
	})
}

// jobCount counts the runner's job folders.
func jobCount(t *testing.T, h *jobservicetest.Harness) int {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(h.Dir, "runs", "job_*"))
	if err != nil {
		t.Fatal(err)
	}
	return len(m)
}

func hashHex(token string) string {
	s := sha256.Sum256([]byte(token))
	return hex.EncodeToString(s[:])
}

// TestLiveQueueLimits: 50 concurrent submissions against 2 slots and a
// queue of 4 lose nothing: every one is either refused 429 queue_full or
// accepted and then passes with its own member's balances (or the
// member_not_found outcome for an unknown member); then the artifact
// budget refuses with 429 artifact_capacity.
func TestLiveQueueLimits(t *testing.T) {
	h := jobservicetest.Start(t, jobservice.WithActiveBrowsers(2), jobservice.WithMaxQueued(4))
	members := append([]testsite.Member{{ID: "999001"}}, testsite.TellerMembers...)
	type sub struct {
		acc jobservice.Accepted
		m   testsite.Member
	}
	var mu sync.Mutex
	var accepted []sub
	refused := 0
	var wg sync.WaitGroup
	start := make(chan struct{})
	reqs := make([][]byte, 50)
	for i := range reqs {
		reqs[i], _ = json.Marshal(h.Request(members[i%len(members)].ID))
	}
	for i := range 50 {
		wg.Go(func() {
			<-start
			req, _ := http.NewRequest(http.MethodPost, h.URL()+"/v1/runs", bytes.NewReader(reqs[i]))
			req.Header.Set(jobservice.ProtocolHeader, "1")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Errorf("submission %d: %v", i, err)
				return
			}
			defer resp.Body.Close()
			var raw bytes.Buffer
			_, _ = raw.ReadFrom(resp.Body)
			mu.Lock()
			defer mu.Unlock()
			switch resp.StatusCode {
			case http.StatusAccepted:
				var acc jobservice.Accepted
				_ = json.Unmarshal(raw.Bytes(), &acc)
				accepted = append(accepted, sub{acc, members[i%len(members)]})
			case http.StatusTooManyRequests:
				if e := (jobservice.ErrorDoc{}); json.Unmarshal(raw.Bytes(), &e) != nil || e.Error != string(jobs.CodeQueueFull) || resp.Header.Get("Retry-After") == "" {
					t.Errorf("submission %d: 429 %s", i, raw.Bytes())
				}
				refused++
			default:
				t.Errorf("submission %d: %d %s", i, resp.StatusCode, raw.Bytes())
			}
		})
	}
	close(start)
	wg.Wait()
	if len(accepted) < 6 || len(accepted)+refused != 50 {
		t.Fatalf("%d accepted, %d refused; want at least 6 accepted and 50 in all", len(accepted), refused)
	}
	t.Logf("%d accepted, %d refused queue_full", len(accepted), refused)
	for _, a := range accepted {
		d := h.Wait(a.acc.ID, a.acc.Token)
		ok := d.Status == jobs.StatePassed
		if a.m.Name == "" {
			ok = ok && d.Outcome == "member_not_found" && d.Outputs["balances"] == nil
		} else {
			ok = ok && fmt.Sprint(d.Outputs["balances"]) == jobservicetest.Answer(a.m)
		}
		if !ok {
			t.Errorf("member %s: WRONG: %s %v outcome %q outputs %v", a.m.ID, d.Status, code(d), d.Outcome, d.Outputs)
		}
	}
	if n := jobCount(t, h); n != len(accepted) {
		t.Errorf("%d jobs retained, %d accepted", n, len(accepted))
	}
	if n := h.Browser.Active(); n != 0 {
		t.Errorf("%d drivers open after every run ended", n)
	}

	// A service closed with runs in flight ends them interrupted with
	// service_stopped; the next service on the folder serves them.
	h.Teller.SetLatency(300 * time.Millisecond)
	run1 := h.MustSubmit(h.Request("100240"))
	run2 := h.MustSubmit(h.Request("100241"))
	h.Events.Running(t, run1.ID, 2)
	// A stopping service refuses submissions 503 service_stopped.
	sctx, scancel := context.WithTimeout(context.Background(), time.Minute)
	if err := h.Service.Close(sctx); err != nil {
		t.Fatal(err)
	}
	scancel()
	if c, _, e := h.Submit(h.Request("100242")); c != http.StatusServiceUnavailable || e.Error != string(jobs.CodeServiceStopped) {
		t.Errorf("submission to a stopped service: %d %+v", c, e)
	}
	h.Serve(jobservice.WithActiveBrowsers(2), jobservice.WithMaxQueued(4))
	h.Teller.SetLatency(0)
	for _, acc := range []jobservice.Accepted{run1, run2} {
		if c, d := h.Get(acc.ID, acc.Token, ""); c != 200 || d.Status != jobs.StateInterrupted || code(d) != jobs.CodeServiceStopped {
			t.Errorf("run after a stop: %d %+v", c, d)
		}
	}

	// A token hash that cannot be stored (tokens.json replaced by a
	// folder: the atomic replace fails, even for root) is 500 internal,
	// and the admitted run, which nobody could reach, is cancelled.
	tokensFile := filepath.Join(h.Dir, "tokens.json")
	if err := os.Remove(tokensFile); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(tokensFile, "blocker"), 0o700); err != nil {
		t.Fatal(err)
	}
	before := runStates(t, h)
	if c, raw := h.Do(http.MethodPost, "/v1/runs", "", mustMarshal(t, h.Request("100243")), nil); c != http.StatusInternalServerError ||
		decode[jobservice.ErrorDoc](t, raw).Error != jobservice.ErrorInternal || bytes.Contains(raw, []byte(jobservice.TokenPrefix)) {
		t.Errorf("token not stored: %d %s", c, raw)
	}
	after := runStates(t, h)
	if len(after) != len(before)+1 {
		t.Fatalf("runs before %v, after %v", before, after)
	}
	for id := range after {
		if _, ok := before[id]; ok {
			continue
		}
		wctx, wcancel := context.WithTimeout(context.Background(), 2*time.Minute)
		st, err := h.Service.Runner().Wait(wctx, id)
		wcancel()
		if err != nil || st.State != jobs.StateCancelled {
			t.Errorf("the run whose token was not stored: %s %v, want cancelled", st.State, err)
		}
	}
	if err := os.RemoveAll(tokensFile); err != nil {
		t.Fatal(err)
	}

	// The artifact budget: one run's 20 MiB reservation fills it.
	h.Dir = t.TempDir()
	h.Serve(jobservice.WithArtifactBudget(jobs.MaxRunArtifactBytes), jobservice.WithMaxQueued(4))
	h.Teller.SetLatency(200 * time.Millisecond)
	defer h.Teller.SetLatency(0)
	a := h.MustSubmit(h.Request("100234"))
	if c, _, e := h.Submit(h.Request("100235")); c != http.StatusTooManyRequests || e.Error != string(jobs.CodeArtifactCapacity) {
		t.Errorf("over the artifact budget: %d %+v", c, e)
	}
	h.Wait(a.ID, a.Token)
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// runStates reads every run record of the service's runner (the
// runner's state folder holds one job_* folder per run).
func runStates(t *testing.T, h *jobservicetest.Harness) map[string]jobs.State {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(h.Dir, "runs"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]jobs.State{}
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), "job_") {
			continue
		}
		st, err := h.Service.Runner().Status(e.Name())
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		out[e.Name()] = st.State
	}
	return out
}
