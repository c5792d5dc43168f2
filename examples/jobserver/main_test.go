package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vera-run/vera/examples/internal/exampletest"
	"github.com/vera-run/vera/examples/internal/jobservice"
	"github.com/vera-run/vera/examples/internal/jobservicetest"
	"github.com/vera-run/vera/internal/livetest"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime/jobs"
)

// envChild makes the test binary the server: it runs run with the
// arguments in envArgs (JSON) and serves until it is killed.
const (
	envChild = "VERA_JOBSERVER_TEST_CHILD"
	envArgs  = "VERA_JOBSERVER_TEST_ARGS"
)

func TestMain(m *testing.M) {
	if os.Getenv(envChild) == "1" {
		var args []string
		if err := json.Unmarshal([]byte(os.Getenv(envArgs)), &args); err != nil {
			os.Exit(2)
		}
		if err := run(context.Background(), args, os.Stderr, nil); err != nil {
			os.Stderr.WriteString("jobserver: " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	exampletest.Main(m)
}

func TestUsageAndLoopback(t *testing.T) {
	for _, args := range [][]string{nil, {"-state"}, {"-state", "x", "extra"}, {"-state", "x", "-connect", "ws://x", "-browser", "y"}} {
		if err := run(context.Background(), args, io.Discard, nil); !errors.Is(err, errUsage) {
			t.Errorf("%q: %v", args, err)
		}
	}
	// Refused before anything starts: no browser, no state folder.
	state := filepath.Join(t.TempDir(), "state")
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:80", "[::]:0", "example.com:80"} {
		if err := run(context.Background(), []string{"-state", state, "-listen", addr}, io.Discard, nil); !errors.Is(err, errNotLoopback) {
			t.Errorf("%s: %v", addr, err)
		}
	}
	if _, err := os.Stat(state); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused start made the state folder: %v", err)
	}
	for _, addr := range []string{"127.0.0.1:0", "127.0.0.2:8080", "[::1]:0", "localhost:0"} {
		if err := checkLoopback(addr); err != nil {
			t.Errorf("%s: %v", addr, err)
		}
	}
}

// api is a minimal protocol client for the test.
type api struct {
	t    *testing.T
	base string
}

func (a api) do(method, p, token string, body []byte) (int, []byte) {
	a.t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, _ := http.NewRequest(method, a.base+p, rd)
	req.Header.Set(jobservice.ProtocolHeader, jobservice.ProtocolVersion)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, raw
}

func (a api) submit(req jobservice.SubmitRequest) jobservice.Accepted {
	a.t.Helper()
	body, _ := json.Marshal(req)
	c, raw := a.do(http.MethodPost, "/v1/runs", "", body)
	var acc jobservice.Accepted
	if c != http.StatusAccepted || json.Unmarshal(raw, &acc) != nil {
		a.t.Fatalf("submission: %d %s", c, raw)
	}
	return acc
}

// follow reads a run's documents (waiting for each change) until until
// accepts one; bounded by 3 minutes.
func (a api) follow(acc jobservice.Accepted, until func(jobservice.RunDocument) bool) jobservice.RunDocument {
	a.t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	var rev uint64
	for time.Now().Before(deadline) {
		c, raw := a.do(http.MethodGet, fmt.Sprintf("/v1/runs/%s?wait_ms=20000&after=%d", acc.ID, rev), acc.Token, nil)
		var d jobservice.RunDocument
		if c != http.StatusOK || json.Unmarshal(raw, &d) != nil {
			a.t.Fatalf("status %s: %d %s", acc.ID, c, raw)
		}
		if until(d) {
			return d
		}
		if d.Status.Terminal() {
			a.t.Fatalf("run %s ended %s before the awaited state", acc.ID, d.Status)
		}
		rev = d.Revision
	}
	a.t.Fatalf("run %s: no awaited state within 3 minutes", acc.ID)
	return jobservice.RunDocument{}
}

// serve runs the server in this process with args until the test ends
// (stopping it then, and failing the test if it ended with an error) and
// returns a client of it; a server that ends before it serves fails the
// test. what names it in failures.
func serve(t *testing.T, what string, args []string) api {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan struct{})
	var err error
	go func() {
		defer close(done)
		err = run(ctx, args, io.Discard, ready)
	}()
	select {
	case a := <-ready:
		t.Cleanup(func() {
			stop()
			<-done
			if err != nil {
				t.Errorf("%s: %v", what, err)
			}
		})
		return api{t, "http://" + a}
	case <-done:
		stop()
		t.Fatalf("%s: %v", what, err)
		return api{}
	}
}

// TestRestartWithRunsInFlight runs the server as a child process over a
// Chromium the test owns, kills it (SIGKILL) with one run in flight and
// one queued, and starts a new server on the same state folder: the
// terminal run is still readable with its token (artifacts too), the two
// in flight are interrupted with service_restarted and their uncommitted
// evidence is gone. The one in flight has two viewports and is killed in
// its second: its first viewport's result (seen in its status before the
// kill) stays recorded with its screenshot and run, served after the
// restart, and no other file of it is left.
func TestRestartWithRunsInFlight(t *testing.T) {
	site, chrome := livetest.TellerAndChromium(t)
	state := filepath.Join(t.TempDir(), "state")
	args := []string{"-state", state, "-listen", "127.0.0.1:0", "-connect", chrome.Endpoint(), "-active", "1", "-queued", "2"}

	raw, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envChild+"=1", envArgs+"="+string(raw))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}()
	addr := make(chan string, 1)
	logDone := make(chan struct{})
	go func() {
		defer close(logDone)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "listening http://"); ok {
				addr <- a
			}
		}
	}()
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case <-time.After(90 * time.Second):
		t.Fatal("the server did not start")
	}
	c := api{t, base}
	req := func(member string) jobservice.SubmitRequest {
		return jobservice.SubmitRequest{APIVersion: "1", Capability: jobservicetest.CapabilityJSON(t, site.Origin()),
			Inputs: jobservicetest.Inputs(member), TimeoutMS: 120000}
	}
	m := testsite.TellerMembers[4]
	done := c.submit(req(m.ID))
	passed := c.follow(done, func(d jobservice.RunDocument) bool { return d.Status.Terminal() })
	if passed.Status != jobs.StatePassed {
		t.Fatalf("first run: %+v", passed)
	}
	site.SetLatency(time.Second)
	vps := []jobs.Viewport{{Name: "desktop", Width: 1280, Height: 800}, {Name: "narrow", Width: 390, Height: 844}}
	xreq := req("100234")
	xreq.Viewports = vps
	x := c.submit(xreq)
	y := c.submit(req("100235"))
	// x's first viewport ends and is recorded while the run goes on; the
	// second is then held (every teller answer an hour away) and the
	// server killed with it in flight.
	before := c.follow(x, func(d jobservice.RunDocument) bool {
		return d.Status == jobs.StateRunning && len(d.Viewports) == 2 && d.Viewports[0].State != ""
	})
	site.SetLatency(time.Hour)
	if v := before.Viewports[0]; v.State != jobs.StatePassed || v.Screenshot != "screenshots/desktop.png" || v.RunID == "" ||
		fmt.Sprint(v.Outputs["balances"]) != jobservicetest.Answer(testsite.TellerMembers[0]) || before.Viewports[1].State != "" || len(before.Artifacts) == 0 {
		t.Fatalf("first viewport while the run goes on: %+v", before)
	}
	if code, _ := c.do(http.MethodGet, "/v1/runs/"+x.ID+"/artifacts/screenshots/desktop.png", x.Token, nil); code != http.StatusConflict {
		t.Errorf("artifact of a running run: %d, want 409", code)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	<-logDone
	killed = true
	site.SetLatency(0)

	c = serve(t, "second server", args)
	var d jobservice.RunDocument
	code, body := c.do(http.MethodGet, "/v1/runs/"+done.ID, done.Token, nil)
	if code != 200 || json.Unmarshal(body, &d) != nil || d.Status != jobs.StatePassed || fmt.Sprint(d.Outputs["balances"]) != jobservicetest.Answer(m) ||
		d.Endpoint != "default" || d.Environment == nil || *d.Environment != *passed.Environment || d.Environment.Browser == "" {
		t.Errorf("terminal run after the restart: %d %s", code, body)
	}
	// A connected browser may not reach the service's loopback: no trial.
	if code, body := c.do(http.MethodGet, "/v1/trial", "", nil); code != http.StatusNotFound || !strings.Contains(string(body), jobservice.ErrorTrialUnavailable) {
		t.Errorf("trial with -connect: %d %s", code, body)
	}
	if code, _ := c.do(http.MethodGet, "/v1/runs/"+done.ID+"/artifacts/"+d.RunID+"/run.receipt.json", done.Token, nil); code != 200 {
		t.Errorf("receipt after the restart: %d", code)
	}
	for _, acc := range []jobservice.Accepted{x, y} {
		var d jobservice.RunDocument
		code, body := c.do(http.MethodGet, "/v1/runs/"+acc.ID, acc.Token, nil)
		if code != 200 || json.Unmarshal(body, &d) != nil || d.Status != jobs.StateInterrupted || d.Error == nil ||
			*d.Error != jobs.CodeServiceRestarted || len(d.Outputs) != 0 || d.RunID != "" {
			t.Errorf("in-flight run %s after the restart: %d %s", acc.ID, code, body)
		}
		runDir := filepath.Join(state, "runs", acc.ID, "run")
		if acc.ID == y.ID {
			if len(d.Artifacts) != 0 {
				t.Errorf("queued run %s has artifacts after the restart: %s", acc.ID, body)
			}
			if _, err := os.Stat(runDir); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("run folder of %s after the restart: %v", acc.ID, err)
			}
			continue
		}
		// x keeps its first viewport, recorded before the kill, with its
		// files and nothing else; the second is back to name and size.
		if len(d.Viewports) != 2 || fmt.Sprint(d.Viewports[0]) != fmt.Sprint(before.Viewports[0]) ||
			fmt.Sprint(d.Viewports[1]) != fmt.Sprint(jobservice.ViewportResult{Name: "narrow", Width: 390, Height: 844}) ||
			fmt.Sprint(d.Artifacts) != fmt.Sprint(before.Artifacts) || d.ArtifactBytes != before.ArtifactBytes || d.CompletedSteps != len(d.Steps) {
			t.Errorf("interrupted run's viewports after the restart: %s\nbefore the kill: %+v", body, before)
		}
		for _, st := range d.Steps {
			if st.Viewport != "desktop" {
				t.Errorf("a step of viewport %q survived the restart", st.Viewport)
			}
		}
		onDisk := map[string]int64{}
		_ = filepath.WalkDir(runDir, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				fi, _ := e.Info()
				rel, _ := filepath.Rel(runDir, p)
				onDisk[filepath.ToSlash(rel)] = fi.Size()
			}
			return nil
		})
		listed := map[string]int64{}
		for _, a := range d.Artifacts {
			listed[a.Name] = a.Size
		}
		if fmt.Sprint(onDisk) != fmt.Sprint(listed) {
			t.Errorf("files of %s after the restart: %v, listed %v", acc.ID, onDisk, listed)
		}
		code, png := c.do(http.MethodGet, "/v1/runs/"+acc.ID+"/artifacts/screenshots/desktop.png", acc.Token, nil)
		if code != 200 || len(png) < 24 || string(png[1:4]) != "PNG" || int64(len(png)) != d.Viewports[0].ScreenshotBytes ||
			binary.BigEndian.Uint32(png[16:20]) != 1280 || binary.BigEndian.Uint32(png[20:24]) != 800 {
			t.Errorf("first viewport's screenshot after the restart: %d, %d bytes", code, len(png))
		}
		if code, _ := c.do(http.MethodGet, "/v1/runs/"+acc.ID+"/artifacts/"+d.Viewports[0].RunID+"/run.receipt.json", acc.Token, nil); code != 200 {
			t.Errorf("first viewport's receipt after the restart: %d", code)
		}
	}
	if code, _ := c.do(http.MethodGet, "/v1/runs/"+x.ID, y.Token, nil); code != http.StatusNotFound {
		t.Errorf("another run's token after the restart: %d", code)
	}
	// The restarted service runs new work, in viewports of the
	// connected browser too.
	nreq := req("100236")
	nreq.Viewports = []jobs.Viewport{{Name: "desktop", Width: 1280, Height: 800}, {Name: "narrow", Width: 390, Height: 844}}
	n := c.submit(nreq)
	if d := c.follow(n, func(d jobservice.RunDocument) bool { return d.Status.Terminal() }); d.Status != jobs.StatePassed || len(d.Viewports) != 2 ||
		d.Viewports[1].State != jobs.StatePassed || d.Viewports[1].Screenshot == "" {
		t.Errorf("run after the restart: %+v", d)
	}
}

// TestBrowserKilledMidRun runs the server over a Chromium the test owns
// (-connect) and kills that Chromium (SIGKILL) while a run is in flight:
// over HTTP the run ends failed browser_crashed with no answer, the
// preflight probe then answers 503 browser_unavailable, and a later
// submission is answered (refused, or admitted and failed) rather than
// left hanging or given an answer.
func TestBrowserKilledMidRun(t *testing.T) {
	site, chrome := livetest.TellerAndChromium(t)
	state := filepath.Join(t.TempDir(), "state")
	c := serve(t, "server", []string{"-state", state, "-listen", "127.0.0.1:0", "-connect", chrome.Endpoint()})
	req := func(member string) jobservice.SubmitRequest {
		return jobservice.SubmitRequest{APIVersion: "1", Capability: jobservicetest.CapabilityJSON(t, site.Origin()),
			Inputs: jobservicetest.Inputs(member), TimeoutMS: 120000}
	}
	// Every teller answer an hour away once the run is in flight: the
	// kill lands mid-run.
	site.SetLatency(time.Second)
	x := c.submit(req("100234"))
	c.follow(x, func(d jobservice.RunDocument) bool { return d.Status == jobs.StateRunning && d.CompletedSteps >= 1 })
	site.SetLatency(time.Hour)
	if err := livetest.Kill(chrome); err != nil {
		t.Fatal(err)
	}
	site.SetLatency(0)
	d := c.follow(x, func(d jobservice.RunDocument) bool { return d.Status.Terminal() })
	if d.Status != jobs.StateFailed || d.Error == nil || *d.Error != jobs.CodeBrowserCrashed || len(d.Outputs) != 0 {
		t.Errorf("run in flight when its browser was killed: %+v", d)
	}
	if code, body := c.do(http.MethodGet, "/v1/preflight", "", nil); code != http.StatusServiceUnavailable ||
		!strings.Contains(string(body), `"error":"browser_unavailable"`) {
		t.Errorf("preflight after the kill: %d %s", code, body)
	}
	body, _ := json.Marshal(req("100235"))
	code, raw := c.do(http.MethodPost, "/v1/runs", "", body)
	switch code {
	case http.StatusServiceUnavailable:
	case http.StatusAccepted:
		var acc jobservice.Accepted
		if err := json.Unmarshal(raw, &acc); err != nil {
			t.Fatal(err)
		}
		d := c.follow(acc, func(d jobservice.RunDocument) bool { return d.Status.Terminal() })
		if d.Status != jobs.StateFailed || d.Error == nil || (*d.Error != jobs.CodeBrowserCrashed && *d.Error != jobs.CodeBrowserUnavailable) {
			t.Errorf("run submitted after the kill: %+v", d)
		}
	default:
		t.Errorf("submission after the kill: %d %s", code, raw)
	}
}

// TestPoolFlags runs the server over a pool of a remote endpoint (a
// Chromium the test owns, -endpoint remote-a=...,slots=2) and a
// launched one (-browsers 1): the preflight lists both with their
// slots, the limits are the pool's, the trial is not offered (a remote
// browser may not reach the service's loopback), and runs submitted at
// once all pass with their members' balances on the pool's endpoints;
// stopping the server closes the launched browser (TestMain checks).
func TestPoolFlags(t *testing.T) {
	site, chrome := livetest.TellerAndChromium(t)
	state := filepath.Join(t.TempDir(), "state")
	c := serve(t, "server", []string{"-state", state, "-listen", "127.0.0.1:0", "-browser", chrome.Path(), "-browsers", "1",
		"-endpoint", "remote-a=" + chrome.HTTPEndpoint() + ",slots=2"})
	code, body := c.do(http.MethodGet, "/v1/preflight", "", nil)
	var pf jobservice.PreflightDoc
	if code != http.StatusOK || json.Unmarshal(body, &pf) != nil || !pf.Available || pf.Limits.ActiveBrowsers != 3 || !pf.Limits.Viewports ||
		len(pf.Endpoints) != 2 || pf.Endpoints[0].Name != "remote-a" || pf.Endpoints[0].Slots != 2 || !pf.Endpoints[0].Available ||
		pf.Endpoints[1].Name != "local-0" || pf.Endpoints[1].Slots != 1 || !pf.Endpoints[1].Available {
		t.Fatalf("preflight of the pool: %d %s", code, body)
	}
	if strings.Contains(string(body), chrome.HTTPEndpoint()) || strings.Contains(string(body), "127.0.0.1:") {
		t.Errorf("the preflight names an endpoint's address: %s", body)
	}
	if code, body := c.do(http.MethodGet, "/v1/trial", "", nil); code != http.StatusNotFound || !strings.Contains(string(body), jobservice.ErrorTrialUnavailable) {
		t.Errorf("trial with a remote endpoint: %d %s", code, body)
	}
	var accs []jobservice.Accepted
	members := testsite.TellerMembers[:3]
	for _, m := range members {
		accs = append(accs, c.submit(jobservice.SubmitRequest{APIVersion: "1", Capability: jobservicetest.CapabilityJSON(t, site.Origin()),
			Inputs: jobservicetest.Inputs(m.ID), TimeoutMS: jobs.MaxRunBudget.Milliseconds()}))
	}
	for i, acc := range accs {
		d := c.follow(acc, func(d jobservice.RunDocument) bool { return d.Status.Terminal() })
		if d.Status != jobs.StatePassed || fmt.Sprint(d.Outputs["balances"]) != jobservicetest.Answer(members[i]) ||
			(d.Endpoint != "remote-a" && d.Endpoint != "local-0") {
			t.Errorf("run %d: %+v", i, d)
		}
	}
}
