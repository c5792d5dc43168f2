package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vera-run/vera/examples/internal/exampletest"
	"github.com/vera-run/vera/examples/internal/jobservice"
	"github.com/vera-run/vera/examples/internal/jobservicetest"
	"github.com/vera-run/vera/runtime/jobs"
)

func TestMain(m *testing.M) { exampletest.Main(m) }

// invoke runs the client with args against h and returns the exit code
// and its output; no output may hold a token.
func invoke(t *testing.T, ctx context.Context, h *jobservicetest.Harness, tty bool, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(ctx, append([]string{"-url", h.URL()}, args...), &out, &errb, tty)
	for _, s := range []string{out.String(), errb.String()} {
		if strings.Contains(s, jobservice.TokenPrefix) || strings.Contains(s, jobservicetest.Password) {
			t.Errorf("output of %q holds a token or the password:\n%s", args, s)
		}
	}
	return code, out.String(), errb.String()
}

// spec writes a run spec for member without the password (it comes from
// the environment through -input-env).
func spec(t *testing.T, h *jobservicetest.Harness, member string, replace ...string) string {
	t.Helper()
	req := h.Request(member, replace...)
	delete(req.Inputs, "password")
	req.APIVersion = ""
	raw, _ := json.Marshal(req)
	p := filepath.Join(t.TempDir(), "spec.json")
	if err := os.WriteFile(p, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func readHandleFile(t *testing.T, dir string) handle {
	t.Helper()
	h, err := readHandle(filepath.Join(dir, handleName))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestClientLive(t *testing.T) {
	h := jobservicetest.Start(t, jobservice.WithActiveBrowsers(1))
	t.Setenv("TELLER_PASSWORD", jobservicetest.Password)
	ctx := context.Background()

	if code, out, errs := invoke(t, ctx, h, false, "preflight"); code != exitPassed || !strings.Contains(out, `"available": true`) {
		t.Errorf("preflight: %d\n%s\n%s", code, out, errs)
	}

	outDir := filepath.Join(t.TempDir(), "run-01")
	code, out, errs := invoke(t, ctx, h, false, "run", "-spec", spec(t, h, "100234"), "-input-env", "password=TELLER_PASSWORD", "-out", outDir)
	if code != exitPassed {
		t.Fatalf("run: exit %d\n%s\n%s", code, out, errs)
	}
	if strings.Contains(out, "\r") || !strings.Contains(out, "running: ") || !strings.Contains(out, " passed") {
		t.Errorf("plain progress lines expected:\n%q", out)
	}
	var receipt jobservice.RunDocument
	raw, _ := os.ReadFile(filepath.Join(outDir, receiptName))
	if json.Unmarshal(raw, &receipt) != nil || receipt.Status != jobs.StatePassed || len(receipt.Artifacts) == 0 {
		t.Errorf("receipt.json: %s", raw)
	}
	var list []downloaded
	raw, _ = os.ReadFile(filepath.Join(outDir, artifactsName))
	if json.Unmarshal(raw, &list) != nil || len(list) != len(receipt.Artifacts) {
		t.Fatalf("artifacts.json: %s", raw)
	}
	for _, a := range list {
		b, err := os.ReadFile(filepath.Join(outDir, artifactsDir, filepath.FromSlash(a.Name)))
		sum := sha256.Sum256(b)
		if err != nil || "sha256:"+hex.EncodeToString(sum[:]) != a.SHA256 || int64(len(b)) != a.Size {
			t.Errorf("artifact %s: %v", a.Name, err)
		}
	}
	_ = filepath.WalkDir(outDir, func(p string, e os.DirEntry, err error) error {
		fi, _ := e.Info()
		want := os.FileMode(0o600)
		if e.IsDir() {
			want = 0o700
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v", p, fi.Mode().Perm())
		}
		if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(jobservicetest.Password)) {
			t.Errorf("%s holds the password", p)
		}
		return nil
	})
	hd := readHandleFile(t, outDir)

	t.Run("status cancel download exit 0", func(t *testing.T) {
		hp := filepath.Join(outDir, handleName)
		for _, cmd := range []string{"status", "cancel"} {
			if code, out, errs := invoke(t, ctx, h, false, cmd, "-handle", hp); code != exitPassed || !strings.Contains(out, `"status": "passed"`) {
				t.Errorf("%s: %d\n%s\n%s", cmd, code, out, errs)
			}
		}
		if code, out, errs := invoke(t, ctx, h, false, "download", "-handle", hp, "-out", filepath.Join(outDir, "again")); code != exitPassed || !strings.Contains(out, "sha256:") {
			t.Errorf("download: %d\n%s\n%s", code, out, errs)
		}
		t.Setenv(envToken, hd.Token)
		if code, _, errs := invoke(t, ctx, h, false, "status", "-id", hd.ID); code != exitPassed {
			t.Errorf("status -id: %d %s", code, errs)
		}
		t.Setenv(envToken, jobservice.TokenPrefix+"wrong")
		if code, _, errs := invoke(t, ctx, h, false, "status", "-id", hd.ID); code != exitOther || !strings.Contains(errs, "404") {
			t.Errorf("status with a wrong token: %d %s", code, errs)
		}
		loose := filepath.Join(t.TempDir(), "run.json")
		b, _ := os.ReadFile(hp)
		_ = os.WriteFile(loose, b, 0o644)
		_ = os.Chmod(loose, 0o644)
		if code, _, errs := invoke(t, ctx, h, false, "status", "-handle", loose); code != exitOther || !strings.Contains(errs, "readable by others") {
			t.Errorf("world-readable handle: %d %s", code, errs)
		}
	})

	t.Run("exit 2 ui assertion, 3 other", func(t *testing.T) {
		uiDir := filepath.Join(t.TempDir(), "ui")
		code, out, errs := invoke(t, ctx, h, false, "run", "-spec", spec(t, h, "100234", `"label": "Member ID"`, `"label": "Member Number"`),
			"-input-env", "password=TELLER_PASSWORD", "-out", uiDir)
		if code != exitUIAssertion || !strings.Contains(out, "ui_assertion_failed") {
			t.Errorf("ui failure: %d\n%s\n%s", code, out, errs)
		}
		// status, cancel and download succeed (exit 0) whatever the
		// run's outcome.
		for _, cmd := range [][]string{{"status"}, {"cancel"}, {"download", "-out", filepath.Join(t.TempDir(), "ui-again")}} {
			args := append([]string{cmd[0], "-handle", filepath.Join(uiDir, handleName)}, cmd[1:]...)
			if code, out, errs := invoke(t, ctx, h, false, args...); code != exitPassed || (cmd[0] != "download" && !strings.Contains(out, `"status": "failed"`)) {
				t.Errorf("%s of a failed run: %d\n%s\n%s", cmd[0], code, out, errs)
			}
		}
		// The service URL from the environment, without -url.
		t.Setenv(envURL, h.URL())
		var po, pe bytes.Buffer
		if code := run(ctx, []string{"preflight"}, &po, &pe, false); code != exitPassed || !strings.Contains(po.String(), `"available": true`) {
			t.Errorf("preflight with $%s: %d %s", envURL, code, pe.String())
		}
		code, out, errs = invoke(t, ctx, h, false, "run", "-spec", spec(t, h, "100234", h.Teller.Origin(), "http://127.0.0.1:9"),
			"-input-env", "password=TELLER_PASSWORD", "-out", filepath.Join(t.TempDir(), "unreachable"))
		if code != exitOther || !strings.Contains(out, "target_unreachable") {
			t.Errorf("unreachable target: %d\n%s\n%s", code, out, errs)
		}
		if code, _, errs := invoke(t, ctx, h, false, "run", "-spec", spec(t, h, "100234"), "-out", outDir); code != exitOther || !strings.Contains(errs, "new output folder") {
			t.Errorf("existing output folder: %d %s", code, errs)
		}
		if code, _, _ := invoke(t, ctx, h, false, "run", "-spec", spec(t, h, "100234"), "-input-env", "password=NOT_SET_ANYWHERE", "-out", filepath.Join(t.TempDir(), "x")); code != exitOther {
			t.Errorf("unset input variable: %d", code)
		}
		var o, e bytes.Buffer
		if code := run(ctx, []string{"-url", "http://127.0.0.1:9", "preflight"}, &o, &e, false); code != exitOther || !strings.Contains(e.String(), "service_unreachable") {
			t.Errorf("no service: %d %s", code, e.String())
		}
		if code := run(ctx, []string{"frobnicate"}, &o, &e, false); code != exitOther {
			t.Errorf("unknown command: %d", code)
		}
	})

	t.Run("exit 4 keyboard interrupt cancels the remote run, progress redrawn on a terminal", func(t *testing.T) {
		h.Teller.SetLatency(300 * time.Millisecond)
		defer h.Teller.SetLatency(0)
		ictx, interrupt := context.WithCancel(ctx)
		defer interrupt()
		dir := filepath.Join(t.TempDir(), "interrupted")
		type result struct {
			code     int
			out, err string
		}
		res := make(chan result, 1)
		// A run ahead holds the only slot: the client's run is queued first.
		ahead := h.MustSubmit(h.Request("100238"))
		h.Events.Running(t, ahead.ID, 1)
		mark := h.Events.Mark()
		go func() {
			c, o, e := invoke(t, ictx, h, true, "run", "-spec", spec(t, h, "100237"), "-input-env", "password=TELLER_PASSWORD", "-out", dir)
			res <- result{c, o, e}
		}()
		// The run's second step starts: the keyboard interrupts.
		ev := h.Events.WaitAfter(t, mark, 2*time.Minute, func(e jobservicetest.Event) bool {
			return e.Step != nil && e.Step.Index >= 2 && !e.Step.Done && e.ID != ahead.ID
		})
		interrupt()
		r := <-res
		if r.code != exitInterrupted || !strings.Contains(r.out, "\r\x1b[K") || !strings.Contains(r.out, "cancelled") ||
			!strings.Contains(r.out, "queued: position 1") || !strings.Contains(r.out, "steps done, step ") {
			t.Errorf("interrupted run: %d\n%q\n%s", r.code, r.out, r.err)
		}
		st, err := h.Service.Runner().Status(ev.ID)
		if err != nil || st.State != jobs.StateCancelled {
			t.Errorf("the remote run after the interrupt: %+v %v", st, err)
		}
		if got := readHandleFile(t, dir); got.ID != ev.ID {
			t.Errorf("handle names %s, the run was %s", got.ID, ev.ID)
		}
	})
}

// pngSize decodes a PNG's width and height from its IHDR chunk.
func pngSize(t *testing.T, b []byte) (int, int) {
	t.Helper()
	if len(b) < 24 || !bytes.Equal(b[:8], []byte("\x89PNG\r\n\x1a\n")) || string(b[12:16]) != "IHDR" {
		t.Fatalf("not a PNG (%d bytes)", len(b))
	}
	return int(binary.BigEndian.Uint32(b[16:20])), int(binary.BigEndian.Uint32(b[20:24]))
}

// TestClientTrialViewports: trial fetches the service's own scenario and
// runs it; the two viewports' screenshots are saved with the other
// artifacts, at their viewports' sizes, by trial and by download; a
// service without a trial is exit 3.
func TestClientTrialViewports(t *testing.T) {
	h := jobservicetest.Start(t, jobservice.WithTrial())
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "trial-01")
	code, out, errs := invoke(t, ctx, h, false, "trial", "-out", dir)
	if code != exitPassed || !strings.Contains(out, "viewport desktop 1280x800: passed, screenshot screenshots/desktop.png") ||
		!strings.Contains(out, "viewport narrow 390x844: passed, screenshot screenshots/narrow.png") || !strings.Contains(out, "endpoint default") {
		t.Fatalf("trial: exit %d\n%s\n%s", code, out, errs)
	}
	var d jobservice.RunDocument
	raw, _ := os.ReadFile(filepath.Join(dir, receiptName))
	if json.Unmarshal(raw, &d) != nil || d.Status != jobs.StatePassed || d.Label != jobservice.TrialLabel || len(d.Viewports) != 2 {
		t.Fatalf("receipt.json: %s", raw)
	}
	var inv struct {
		ServiceURL string   `json:"service_url"`
		Command    []string `json:"command"`
	}
	raw, _ = os.ReadFile(filepath.Join(dir, invocationName))
	if json.Unmarshal(raw, &inv) != nil || !strings.Contains(strings.Join(inv.Command, " "), "trial -out "+dir) || inv.ServiceURL != h.URL() {
		t.Errorf("invocation.json: %s", raw)
	}
	check := func(folder string, list []downloaded) {
		t.Helper()
		sums := map[string]string{}
		for _, a := range list {
			sums[a.Name] = a.SHA256
		}
		for _, v := range d.Viewports {
			b, err := os.ReadFile(filepath.Join(folder, filepath.FromSlash(v.Screenshot)))
			if err != nil {
				t.Errorf("screenshot %s: %v", v.Name, err)
				continue
			}
			sum := sha256.Sum256(b)
			if w, ht := pngSize(t, b); w != v.Width || ht != v.Height || int64(len(b)) != v.ScreenshotBytes ||
				sums[v.Screenshot] != "sha256:"+hex.EncodeToString(sum[:]) {
				t.Errorf("screenshot %s: %dx%d, %d bytes, listed %q", v.Name, w, ht, len(b), sums[v.Screenshot])
			}
		}
	}
	var list []downloaded
	raw, _ = os.ReadFile(filepath.Join(dir, artifactsName))
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	check(filepath.Join(dir, artifactsDir), list)
	again := filepath.Join(t.TempDir(), "again")
	if code, _, errs := invoke(t, ctx, h, false, "download", "-handle", filepath.Join(dir, handleName), "-out", again); code != exitPassed {
		t.Fatalf("download: %d %s", code, errs)
	}
	list = nil
	raw, _ = os.ReadFile(filepath.Join(again, artifactsName))
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	check(again, list)

	h.Serve()
	if code, _, errs := invoke(t, ctx, h, false, "trial", "-out", filepath.Join(t.TempDir(), "none")); code != exitOther ||
		!strings.Contains(errs, jobservice.ErrorTrialUnavailable) {
		t.Errorf("trial without one: %d %s", code, errs)
	}
}

// watchWriter is an output that tells when it has held want.
type watchWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *watchWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, _ := w.buf.Write(p)
	if strings.Contains(w.buf.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return n, nil
}

func (w *watchWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// TestClientProgressViewports: a run of two viewports in real Chromium
// shows the first viewport's result in the progress line while the
// second runs. The second viewport's first step is held (its Step hook)
// until the client has printed a running line with the first viewport
// passed, so the line is seen while the run is in flight; without the
// per-viewport record it never comes and the test fails on its bound.
func TestClientProgressViewports(t *testing.T) {
	const want = "viewport desktop passed"
	out := &watchWriter{want: want, seen: make(chan struct{})}
	var held atomic.Bool
	hold := &jobs.Hooks{Step: func(id string, p jobs.StepProgress) {
		if p.Viewport != "narrow" || p.Done || !held.CompareAndSwap(false, true) {
			return
		}
		select {
		case <-out.seen:
		case <-time.After(2 * time.Minute):
		}
	}}
	h := jobservicetest.Start(t, jobservice.WithHooks(hold))
	t.Setenv("TELLER_PASSWORD", jobservicetest.Password)
	req := h.Request("100234")
	delete(req.Inputs, "password")
	req.APIVersion = ""
	req.Viewports = []jobs.Viewport{{Name: "desktop", Width: 1280, Height: 800}, {Name: "narrow", Width: 390, Height: 844}}
	raw, _ := json.Marshal(req)
	sp := filepath.Join(t.TempDir(), "spec.json")
	if err := os.WriteFile(sp, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	var errb bytes.Buffer
	code := run(context.Background(), []string{"-url", h.URL(), "run", "-spec", sp, "-input-env", "password=TELLER_PASSWORD",
		"-out", filepath.Join(t.TempDir(), "run")}, out, &errb, false)
	got := out.String()
	if code != exitPassed || strings.Contains(got, jobservice.TokenPrefix) {
		t.Fatalf("run: exit %d\n%s\n%s", code, got, errb.String())
	}
	var line string
	for _, l := range strings.Split(got, "\n") {
		if strings.Contains(l, " running: ") && strings.Contains(l, want) {
			line = l
			break
		}
	}
	if line == "" || strings.Contains(line, "viewport narrow passed") {
		t.Errorf("no running line with the first viewport's result (%q):\n%s", line, got)
	}
}
