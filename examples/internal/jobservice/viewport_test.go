package jobservice_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vera-run/vera/examples/internal/jobservice"
	"github.com/vera-run/vera/examples/internal/jobservicetest"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/jobs"
)

// pngSize decodes a PNG's width and height from its IHDR chunk.
func pngSize(t *testing.T, b []byte) (int, int) {
	t.Helper()
	if len(b) < 24 || !bytes.Equal(b[:8], []byte("\x89PNG\r\n\x1a\n")) || string(b[12:16]) != "IHDR" {
		t.Fatalf("not a PNG (%d bytes)", len(b))
	}
	return int(binary.BigEndian.Uint32(b[16:20])), int(binary.BigEndian.Uint32(b[20:24]))
}

// TestLiveViewports: a two-viewport submission over HTTP runs the teller
// flow once per viewport in real Chromium; the run document names the
// endpoint, the receipt's environment and each viewport's answer,
// evidence and screenshot, and each screenshot is served with the token
// (404 without) as a PNG of exactly its viewport's size. Bad viewports
// are 422 with the runner's code before admission, and a service
// without a viewport source refuses them.
func TestLiveViewports(t *testing.T) {
	h := jobservicetest.Start(t, jobservice.WithActiveBrowsers(1), jobservice.WithMaxQueued(2))
	m := testsite.TellerMembers[3]
	vps := []jobs.Viewport{{Name: "desktop", Width: 1280, Height: 800}, {Name: "narrow", Width: 390, Height: 844}}

	c, raw := h.Do(http.MethodGet, "/v1/preflight", "", nil, nil)
	pre := decode[jobservice.PreflightDoc](t, raw)
	if c != 200 || !pre.Limits.Viewports || pre.Limits.MaxViewports != jobs.MaxViewports ||
		pre.Limits.MaxViewportWidth != jobs.MaxViewportWidth || pre.Limits.MaxViewportHeight != jobs.MaxViewportHeight {
		t.Errorf("preflight limits: %d %+v", c, pre.Limits)
	}

	t.Run("422 bad viewports before admission", func(t *testing.T) {
		five := []jobs.Viewport{vp("a", 10, 10), vp("b", 10, 10), vp("c", 10, 10), vp("d", 10, 10), vp("e", 10, 10)}
		cases := map[string]struct {
			vps  []jobs.Viewport
			want jobs.ViewportProblem
		}{
			"five":        {five, jobs.ViewportTooMany},
			"upper case":  {[]jobs.Viewport{vp("Desktop", 1280, 800)}, jobs.ViewportBadName},
			"space":       {[]jobs.Viewport{vp("desk top", 1280, 800)}, jobs.ViewportBadName},
			"empty name":  {[]jobs.Viewport{vp("", 1280, 800)}, jobs.ViewportBadName},
			"long name":   {[]jobs.Viewport{vp(strings.Repeat("a", jobs.MaxViewportName+1), 1280, 800)}, jobs.ViewportBadName},
			"duplicate":   {[]jobs.Viewport{vp("x", 1280, 800), vp("x", 390, 844)}, jobs.ViewportDuplicateName},
			"wide":        {[]jobs.Viewport{vp("x", jobs.MaxViewportWidth+1, 800)}, jobs.ViewportBadWidth},
			"zero width":  {[]jobs.Viewport{vp("x", 0, 800)}, jobs.ViewportBadWidth},
			"tall":        {[]jobs.Viewport{vp("x", 1280, jobs.MaxViewportHeight+1)}, jobs.ViewportBadHeight},
			"negative h":  {[]jobs.Viewport{vp("x", 1280, -1)}, jobs.ViewportBadHeight},
			"second only": {[]jobs.Viewport{vp("ok", 1280, 800), vp("bad", 1280, 1601)}, jobs.ViewportBadHeight},
		}
		for name, tc := range cases {
			req := h.Request(m.ID)
			req.Viewports = tc.vps
			if c, _, e := h.Submit(req); c != http.StatusUnprocessableEntity || e.Error != string(tc.want) || e.Message == "" {
				t.Errorf("%s: %d %+v, want 422 %s", name, c, e, tc.want)
			}
		}
		// At the limits is accepted by the rules (and cancelled here).
		req := h.Request(m.ID)
		req.Viewports = []jobs.Viewport{vp("max", jobs.MaxViewportWidth, jobs.MaxViewportHeight), vp("min", 1, 1), vp("a-b_9", 320, 480), vp("0x", 10, 10)}
		acc := h.MustSubmit(req)
		if c, raw := h.Do(http.MethodDelete, "/v1/runs/"+acc.ID, acc.Token, nil, nil); c != 200 {
			t.Errorf("cancel: %d %s", c, raw)
		}
		h.Wait(acc.ID, acc.Token)
		if n := jobCount(t, h); n != 1 {
			t.Errorf("%d jobs after refused viewports and one accepted", n)
		}
		// A viewport is matched strictly, like the rest of the body.
		body, _ := json.Marshal(h.Request(m.ID))
		body = bytes.Replace(body, []byte(`"api_version":"1",`), []byte(`"api_version":"1","viewports":[{"name":"x","width":10,"height":10,"scale":2}],`), 1)
		if c, raw := h.Do(http.MethodPost, "/v1/runs", "", body, nil); c != http.StatusBadRequest {
			t.Errorf("unknown viewport member: %d %s", c, raw)
		}
	})

	var acc jobservice.Accepted
	var d jobservice.RunDocument
	t.Run("two viewports pass with their screenshots", func(t *testing.T) {
		h.Teller.SetLatency(150 * time.Millisecond)
		defer h.Teller.SetLatency(0)
		req := h.Request(m.ID)
		req.Viewports = vps
		req.Label = "two viewports"
		acc = h.MustSubmit(req)
		_, d0 := h.Get(acc.ID, acc.Token, "")
		if len(d0.Viewports) != 2 || d0.Viewports[0].State != "" || d0.Viewports[0].Error != nil || d0.TotalSteps%2 != 0 {
			t.Fatalf("accepted document: %+v", d0)
		}
		// While the second viewport runs, the progress names it.
		per := d0.TotalSteps / 2
		h.Events.Running(t, acc.ID, per+1)
		_, dr := h.Get(acc.ID, acc.Token, "")
		if dr.Status != jobs.StateRunning || dr.Progress == nil || dr.Progress.Viewport != "narrow" || dr.Endpoint != "default" {
			t.Errorf("running in the second viewport: %+v progress %+v", dr, dr.Progress)
		}

		d = h.Wait(acc.ID, acc.Token)
		if d.Status != jobs.StatePassed || d.Error != nil || d.Endpoint != "default" || d.ExecutionMode != runtime.ModeLiveLaunched ||
			fmt.Sprint(d.Outputs["balances"]) != jobservicetest.Answer(m) || d.Label != "two viewports" ||
			d.CompletedSteps != d.TotalSteps || len(d.Steps) != d.TotalSteps || len(d.Viewports) != 2 {
			t.Fatalf("two-viewport run: %+v", d)
		}
		if e := d.Environment; e == nil || e.Browser == "" || e.Browser != pre.Report.Browser || e.Library != "vera/"+runtime.Version ||
			e.ProtocolVersion == "" || e.OS == "" {
			t.Errorf("environment: %+v (preflight browser %q)", d.Environment, pre.Report.Browser)
		}
		if d.RunID != d.Viewports[1].RunID || d.ReceiptHash != d.Viewports[1].ReceiptHash || d.Viewports[0].RunID == d.Viewports[1].RunID {
			t.Errorf("run ids: top %s, viewports %s %s", d.RunID, d.Viewports[0].RunID, d.Viewports[1].RunID)
		}
		perVP := map[string]int{}
		for _, s := range d.Steps {
			perVP[s.Viewport]++
		}
		if perVP["desktop"] != per || perVP["narrow"] != per || len(perVP) != 2 {
			t.Errorf("steps per viewport: %v, want %d each", perVP, per)
		}
		listed := map[string]int64{}
		for _, a := range d.Artifacts {
			listed[a.Name] = a.Size
		}
		for i, v := range d.Viewports {
			if v.Name != vps[i].Name || v.Width != vps[i].Width || v.Height != vps[i].Height || v.State != jobs.StatePassed || v.Error != nil ||
				fmt.Sprint(v.Outputs["balances"]) != jobservicetest.Answer(m) || v.RunID == "" || !strings.HasPrefix(v.ReceiptHash, "sha256:") ||
				v.Screenshot != "screenshots/"+v.Name+".png" || v.ScreenshotBytes <= 0 || listed[v.Screenshot] != v.ScreenshotBytes {
				t.Errorf("viewport %d: %+v (listed %d)", i, v, listed[v.Screenshot])
				continue
			}
			// The receipt of each viewport's run is served too.
			if c, _ := h.Do(http.MethodGet, "/v1/runs/"+acc.ID+"/artifacts/"+v.RunID+"/run.receipt.json", acc.Token, nil, nil); c != 200 {
				t.Errorf("viewport %s receipt: %d", v.Name, c)
			}
			resp := artifact(t, h, acc.ID, v.Screenshot, acc.Token)
			if resp.code != 200 || resp.ctype != "image/png" || int64(len(resp.body)) != v.ScreenshotBytes {
				t.Errorf("screenshot %s: %d %q, %d bytes (listed %d)", v.Name, resp.code, resp.ctype, len(resp.body), v.ScreenshotBytes)
				continue
			}
			if w, ht := pngSize(t, resp.body); w != v.Width || ht != v.Height {
				t.Errorf("screenshot %s is %dx%d, want %dx%d", v.Name, w, ht, v.Width, v.Height)
			}
			// Without the token, or with another, the one 404.
			for _, tok := range []string{"", jobservice.TokenPrefix + "AAAA"} {
				if r := artifact(t, h, acc.ID, v.Screenshot, tok); r.code != http.StatusNotFound ||
					!bytes.Equal(r.body, []byte(`{"api_version":"1","error":"not_found"}`+"\n")) {
					t.Errorf("screenshot %s with token %q: %d %s", v.Name, tok, r.code, r.body)
				}
			}
		}
	})

	t.Run("a service without a viewport source refuses them", func(t *testing.T) {
		h.Serve(jobservice.WithViewportSource(nil))
		c, raw := h.Do(http.MethodGet, "/v1/preflight", "", nil, nil)
		if p := decode[jobservice.PreflightDoc](t, raw); c != 200 || p.Limits.Viewports {
			t.Errorf("preflight without viewports: %d %+v", c, p.Limits)
		}
		req := h.Request(m.ID)
		req.Viewports = vps
		if c, _, e := h.Submit(req); c != http.StatusUnprocessableEntity || e.Error != string(jobs.ViewportUnsupported) ||
			!strings.Contains(e.Message, "viewport") {
			t.Errorf("viewports without a source: %d %+v", c, e)
		}
		// Without viewports it runs; the restarted service still serves
		// the earlier run's viewports and reads its receipt again.
		plain := h.MustSubmit(h.Request(m.ID))
		if dp := h.Wait(plain.ID, plain.Token); dp.Status != jobs.StatePassed || len(dp.Viewports) != 0 || dp.Endpoint != "default" ||
			dp.Environment == nil {
			t.Errorf("plain run: %+v", dp)
		}
		if acc.ID == "" {
			return
		}
		c, again := h.Get(acc.ID, acc.Token, "")
		if c != 200 || len(again.Viewports) != 2 || again.Viewports[1].Screenshot != d.Viewports[1].Screenshot ||
			again.Environment == nil || *again.Environment != *d.Environment {
			t.Errorf("after a restart: %d %+v", c, again)
		}
	})
}

// vp is a viewport.
func vp(name string, width, height int) jobs.Viewport {
	return jobs.Viewport{Name: name, Width: width, Height: height}
}

type artifactAnswer struct {
	code  int
	ctype string
	body  []byte
}

// artifact fetches one artifact (token "" sends none).
func artifact(t *testing.T, h *jobservicetest.Harness, id, name, token string) artifactAnswer {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, h.URL()+"/v1/runs/"+id+"/artifacts/"+name, nil)
	req.Header.Set(jobservice.ProtocolHeader, jobservice.ProtocolVersion)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(resp.Body); err != nil {
		t.Fatal(err)
	}
	return artifactAnswer{resp.StatusCode, resp.Header.Get("Content-Type"), b.Bytes()}
}

// TestLiveTrial: GET /v1/trial is a submission a client sends as is; it
// runs against the service's own loopback fixture (rendered late,
// re-rendered after every press, below the fold of the narrow viewport)
// and passes in both viewports with the count the two presses make.
func TestLiveTrial(t *testing.T) {
	h := jobservicetest.Start(t, jobservice.WithTrial())
	c, raw := h.Do(http.MethodGet, "/v1/trial", "", nil, nil)
	if c != 200 {
		t.Fatalf("trial: %d %s", c, raw)
	}
	if c, _ := h.Do(http.MethodGet, "/v1/trial", "", nil, map[string]string{jobservice.ProtocolHeader: ""}); c != http.StatusConflict {
		t.Errorf("trial without the protocol header: %d", c)
	}
	req := decode[jobservice.SubmitRequest](t, raw)
	if req.APIVersion != jobservice.APIVersion || req.Label != jobservice.TrialLabel || len(req.Viewports) != 2 || req.Bundle != "" {
		t.Errorf("trial submission: %s", raw)
	}
	c, raw = h.Do(http.MethodPost, "/v1/runs", "", raw, nil)
	if c != http.StatusAccepted {
		t.Fatalf("trial submitted as is: %d %s", c, raw)
	}
	acc := decode[jobservice.Accepted](t, raw)
	d := h.Wait(acc.ID, acc.Token)
	if d.Status != jobs.StatePassed || d.Label != jobservice.TrialLabel || len(d.Viewports) != 2 {
		t.Fatalf("trial run: %+v", d)
	}
	for i, v := range d.Viewports {
		want := jobservice.TrialViewports()[i]
		if v.State != jobs.StatePassed || fmt.Sprint(v.Outputs["counter"]) != fmt.Sprint(map[string]any{"count": jobservice.TrialCount}) {
			t.Errorf("trial viewport %s: %+v", v.Name, v)
			continue
		}
		r := artifact(t, h, acc.ID, v.Screenshot, acc.Token)
		if w, ht := pngSize(t, r.body); r.code != 200 || w != want.Width || ht != want.Height {
			t.Errorf("trial screenshot %s: %d, %dx%d", v.Name, r.code, w, ht)
		}
	}

	h.Serve()
	if c, raw := h.Do(http.MethodGet, "/v1/trial", "", nil, nil); c != http.StatusNotFound ||
		decode[jobservice.ErrorDoc](t, raw).Error != jobservice.ErrorTrialUnavailable {
		t.Errorf("trial of a service without one: %d %s", c, raw)
	}
}

// TestLiveViewportsAsTheyEnd: a client polling a four-viewport run over
// HTTP sees each viewport's result as soon as that viewport ends, while
// the run goes on. Each later viewport's first step is held (its Step
// hook) until the test has read, with waiting status requests, a running
// document in which every viewport before it is recorded: passed, with
// its answer, its run, its steps and its screenshot listed among the
// artifacts, and the viewports after it not run yet. Without the
// per-viewport record no such document comes and the held run ends on
// its budget.
func TestLiveViewportsAsTheyEnd(t *testing.T) {
	vps := []jobs.Viewport{{Name: "desktop", Width: 1280, Height: 800}, {Name: "tablet", Width: 820, Height: 1180},
		{Name: "narrow", Width: 390, Height: 844}, {Name: "tiny", Width: 320, Height: 480}}
	release := map[string]chan struct{}{}
	for _, v := range vps[1:] {
		release[v.Name] = make(chan struct{})
	}
	var mu sync.Mutex
	held := map[string]bool{}
	hold := &jobs.Hooks{Step: func(id string, p jobs.StepProgress) {
		ch := release[p.Viewport]
		mu.Lock()
		first := ch != nil && !p.Done && !held[p.Viewport]
		held[p.Viewport] = true
		mu.Unlock()
		if !first {
			return
		}
		select {
		case <-ch:
		case <-time.After(2 * time.Minute):
		}
	}}
	h := jobservicetest.Start(t, jobservice.WithHooks(hold))
	m := testsite.TellerMembers[2]
	req := h.Request(m.ID)
	req.Viewports = vps
	acc := h.MustSubmit(req)
	per := 0 // actions of one viewport's run
	var rev uint64
	for k := 1; k < len(vps); k++ {
		var d jobservice.RunDocument
		deadline := time.Now().Add(3 * time.Minute)
		for {
			if time.Now().After(deadline) {
				t.Fatalf("no running document with viewport %s recorded: %+v", vps[k-1].Name, d)
			}
			var c int
			c, d = h.Get(acc.ID, acc.Token, fmt.Sprintf("wait_ms=20000&after=%d", rev))
			if c != 200 || d.Status.Terminal() {
				t.Fatalf("run ended before viewport %s: %d %+v", vps[k].Name, c, d)
			}
			rev = d.Revision
			if d.Viewports[k-1].State != "" {
				break
			}
		}
		listed := map[string]bool{}
		for _, a := range d.Artifacts {
			listed[a.Name] = true
		}
		for i, v := range d.Viewports {
			if i < k {
				if v.State != jobs.StatePassed || v.Error != nil || v.RunID == "" || fmt.Sprint(v.Outputs["balances"]) != jobservicetest.Answer(m) ||
					v.Screenshot != "screenshots/"+v.Name+".png" || !listed[v.Screenshot] || !listed[v.RunID+"/run.receipt.json"] {
					t.Errorf("before viewport %s: viewport %s %+v", vps[k].Name, v.Name, v)
				}
				continue
			}
			if v.State != "" || v.Screenshot != "" || listed["screenshots/"+v.Name+".png"] {
				t.Errorf("before viewport %s: viewport %s already recorded: %+v", vps[k].Name, v.Name, v)
			}
		}
		if d.Status != jobs.StateRunning || len(d.Steps) == 0 || len(d.Steps)%k != 0 {
			t.Fatalf("before viewport %s: %s with %d steps", vps[k].Name, d.Status, len(d.Steps))
		}
		if per == 0 {
			per = len(d.Steps)
		}
		for i, s := range d.Steps {
			if s.Viewport != vps[i/per].Name || len(d.Steps) != k*per {
				t.Errorf("before viewport %s: step %d of %q (%d steps, %d per viewport)", vps[k].Name, i, s.Viewport, len(d.Steps), per)
				break
			}
		}
		close(release[vps[k].Name])
	}
	d := h.Wait(acc.ID, acc.Token)
	if d.Status != jobs.StatePassed || len(d.Viewports) != 4 || len(d.Steps) != 4*per {
		t.Fatalf("four viewports: %+v", d)
	}
	for i, v := range d.Viewports {
		c, raw := h.Do(http.MethodGet, "/v1/runs/"+acc.ID+"/artifacts/"+v.Screenshot, acc.Token, nil, nil)
		if c != 200 {
			t.Errorf("screenshot %s: %d", v.Name, c)
			continue
		}
		if w, ht := pngSize(t, raw); w != vps[i].Width || ht != vps[i].Height {
			t.Errorf("screenshot %s: %dx%d", v.Name, w, ht)
		}
	}
}
