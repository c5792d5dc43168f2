package jobservice

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/runtime/jobs"
)

// The trial: a scenario a client submits as is (GET /v1/trial), against
// a fixture the service itself serves on loopback.
const (
	// TrialLabel is the trial submission's label.
	TrialLabel = "trial"
	// TrialCount is the count the trial's fixture shows once the trial
	// has pressed its button twice (a click, then Enter): its answer.
	TrialCount = "2"
)

// TrialViewports are the trial's viewports (seed 003: 1280x800 and
// 390x844).
func TrialViewports() []jobs.Viewport {
	return []jobs.Viewport{{Name: "desktop", Width: 1280, Height: 800}, {Name: "narrow", Width: 390, Height: 844}}
}

// trialPage is the fixture: a counter rendered by script after a delay
// and re-rendered (new nodes) after every press, behind a banner that
// pushes it below the fold of a narrow viewport.
const trialPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Vera trial counter</title>
<style>
body { font-family: sans-serif; margin: 0 }
.banner { height: 45vh; background: #dde3f0; display: flex; align-items: end; padding: 1rem }
main { padding: 1rem }
@media (max-width: 600px) { .banner { height: 130vh } }
</style></head>
<body><div class="banner">Vera job service: trial fixture</div><main id="app" aria-busy="true">Loading</main>
<script>
let count = 0;
function render() {
  const app = document.getElementById("app");
  app.removeAttribute("aria-busy");
  app.replaceChildren();
  const h = document.createElement("h1");
  h.textContent = "Trial counter";
  const p = document.createElement("p");
  p.append("Count: ");
  const out = document.createElement("output");
  out.dataset.testid = "count";
  out.textContent = String(count);
  p.append(out);
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = "Increment";
  b.addEventListener("click", () => { count++; setTimeout(render, 80); });
  app.append(h, p, b);
}
setTimeout(render, 150);
</script></body></html>
`

// trialCapability is the trial's capability for the fixture at origin.
func trialCapability(origin string) []byte {
	locButton := `[{"strategy":"role","role":"button","name":"Increment","exact":true}]`
	shows := func(n int) string {
		return fmt.Sprintf(`{"kind":"text_visible","text":"Count: %d"}`, n)
	}
	c := `{
  "schema": "browser-capability/v1",
  "id": "vera.jobservice-trial",
  "version": "1.0.0",
  "name": "Job service trial counter",
  "goal": "Open the job service's own trial fixture, press its counter button twice (a click, then Enter) and read the count.",
  "state": "authored",
  "provenance": {"kind": "hand_authored", "author": "vera maintainers",
    "reason": "the fixture ships with the job service; nothing to discover",
    "review": {"reviewer": "vera maintainers", "reviewed_at": "2026-12-01T00:00:00Z", "authoring_approved": true}},
  "site": {"name": "Job service trial fixture", "allowed_origins": [` + strconv.Quote(origin) + `]},
  "runtime": {"start": "/", "action_timeout_ms": 10000, "transition_timeout_ms": 10000, "run_timeout_ms": 60000, "max_actions": 10},
  "authority": {"max_effect": "read_only", "operator_authenticates": false},
  "privacy": {"data_classes": []},
  "outputs": [{"name": "counter", "kind": "record", "exposure": "model_and_artifact", "required": true,
    "description": "The count the fixture shows", "fields": [{"name": "count", "type": "string"}]}],
  "milestones": [{"id": "counter", "intent": "Press the counter button twice and read the count", "actions": [
    {"id": "click-increment", "operation": "click", "intent": "Click the counter button", "effect": "read_only", "confirmation": "none",
     "locator_candidates": ` + locButton + `, "postcondition": ` + shows(1) + `},
    {"id": "press-increment", "operation": "press", "key": "Enter", "intent": "Press Enter on the counter button", "effect": "read_only",
     "confirmation": "none", "locator_candidates": ` + locButton + `, "postcondition": ` + shows(2) + `},
    {"id": "read-count", "operation": "extract", "intent": "Read the count", "effect": "read_only", "confirmation": "none",
     "locator_candidates": [{"strategy": "role", "role": "main"}], "output": "counter",
     "extract": {"mode": "single", "fields": [{"name": "count", "type": "string",
       "locator_candidates": [{"strategy": "test_id", "test_id": "count"}]}], "required_fields": ["count"]},
     "postcondition": {"kind": "output_produced", "output": "counter"}}]}]
}`
	return []byte(c)
}

// trial is the service's fixture server and the submission against it.
type trial struct {
	srv *http.Server
	req SubmitRequest
	raw []byte // the GET /v1/trial answer
}

// startTrial serves the fixture on a loopback port of its own and builds
// the trial submission (its capability parsed, so a broken one is an
// error at New, not a 500 later).
func startTrial(log *slog.Logger) (*trial, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("jobservice: trial fixture: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write([]byte(trialPage))
	})
	origin := "http://" + ln.Addr().String()
	raw := trialCapability(origin)
	if _, err := capability.ParseBytes(raw); err != nil {
		ln.Close()
		return nil, fmt.Errorf("jobservice: trial capability: %w", err)
	}
	tr := &trial{srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}}
	tr.req = SubmitRequest{APIVersion: APIVersion, Capability: raw, Label: TrialLabel,
		TimeoutMS: jobs.DefaultRunBudget.Milliseconds(), Viewports: TrialViewports()}
	tr.raw = mustJSON(tr.req)
	go func() {
		if err := tr.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			// Trials then end target_unreachable, which is what they are.
			log.Error("trial fixture stopped", "err", err)
		}
	}()
	return tr, nil
}

func (tr *trial) close(ctx context.Context) error {
	if tr == nil {
		return nil
	}
	return tr.srv.Shutdown(ctx)
}
