package testsite

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// Activity app paths: a small status console whose pages produce page
// events in known steps, for per-step capture tests (runtime.WithCapture).
const (
	// ActivityPath is GET the console: h1 "Activity monitor", button "Run
	// checks" and a status line "Idle". Clicking "Run checks" logs
	// "checks started" (console.log), fetches [ActivityStatusPath], opens
	// a WebSocket to [ActivitySocketPath], sends "ping" and waits for its
	// answer, logs "checks done: <answer>" (console.info), throws
	// Error("widget check failed") from a timer (an uncaught page error)
	// and then, after that error, sets the status to "Checks done". Link
	// "Show report" opens [ActivityReportPath].
	ActivityPath = "/activity"
	// ActivityStatusPath is GET {"status":"ok"}.
	ActivityStatusPath = "/activity/api/status"
	// ActivitySocketPath is the WebSocket endpoint: each text message m is
	// answered with "pong:" + m.
	ActivitySocketPath = "/activity/socket"
	// ActivityReportPath is GET the report: h1 "Report" and the paragraph
	// "Plan: Basic" (or "Plan: Premium" after [Activity.SetPlan]).
	ActivityReportPath = "/activity/report"
	// ActivityLoginPath is GET a sign-in form: a text field "Access code"
	// (type text, so the code is rendered, in the DOM value and the
	// accessibility tree) and button "Sign in". Signing in logs
	// "signing in with <code>" to the console, stores the code in
	// sessionStorage "draft_code" and shows h2 "Signed in".
	ActivityLoginPath = "/activity/login"
	// ActivityToolsPath is GET a page with button "Open tools": clicking
	// it adds an iframe showing [ActivityReportPath], starts a dedicated
	// worker from [ActivityWorkerPath] and opens [ActivityReportPath] in
	// a popup (window.open), then shows "Tools open" once the worker has
	// answered.
	ActivityToolsPath = "/activity/tools"
	// ActivityWorkerPath is GET the worker script: it answers each
	// message with "ready".
	ActivityWorkerPath = "/activity/worker.js"
)

// Activity is the activity console app started by [StartActivity].
type Activity struct {
	*Server
	mu   sync.Mutex
	plan string
}

// StartActivity starts the activity console on http://127.0.0.1:<random>.
func StartActivity(opts ...Option) (*Activity, error) {
	o := buildOptions(opts)
	mux, err := baseMux()
	if err != nil {
		return nil, err
	}
	a := &Activity{plan: "Basic"}
	mux.HandleFunc("GET "+ActivityPath, func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "activity.html", nil)
	})
	mux.HandleFunc("GET "+ActivityReportPath, func(w http.ResponseWriter, _ *http.Request) {
		a.mu.Lock()
		plan := a.plan
		a.mu.Unlock()
		render(w, http.StatusOK, "activity_report.html", map[string]string{"Plan": plan})
	})
	mux.HandleFunc("GET "+ActivityLoginPath, func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "activity_login.html", nil)
	})
	mux.HandleFunc("GET "+ActivityToolsPath, func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "activity_tools.html", nil)
	})
	mux.HandleFunc("GET "+ActivityWorkerPath, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write([]byte("onmessage = () => postMessage('ready');\n"))
	})
	mux.HandleFunc("GET "+ActivityStatusPath, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write([]byte(`{"status":"ok"}`))
	})
	mux.HandleFunc("GET "+ActivitySocketPath, serveEcho)
	srv, err := newServer("activity", "", mux, o.Logger)
	if err != nil {
		return nil, err
	}
	a.Server = srv
	return a, nil
}

// SetPlan changes the plan the report shows (a changed page).
func (a *Activity) SetPlan(plan string) {
	a.mu.Lock()
	a.plan = plan
	a.mu.Unlock()
}

// acceptSocket accepts the WebSocket of r and returns it with a context
// that ends a minute later (the bound of every test socket); done closes
// both. ok is false when the handshake failed.
func acceptSocket(w http.ResponseWriter, r *http.Request) (c *websocket.Conn, ctx context.Context, done func(), ok bool) {
	c, err := websocket.Accept(w, r, nil)
	if err != nil {
		return nil, nil, nil, false
	}
	ctx, cancel := context.WithTimeout(r.Context(), time.Minute)
	return c, ctx, func() { cancel(); c.CloseNow() }, true
}

// serveEcho answers each text message m with "pong:" + m until the
// client closes, at most a minute.
func serveEcho(w http.ResponseWriter, r *http.Request) {
	c, ctx, done, ok := acceptSocket(w, r)
	if !ok {
		return
	}
	defer done()
	for {
		typ, msg, err := c.Read(ctx)
		if err != nil {
			return
		}
		if err := c.Write(ctx, typ, append([]byte("pong:"), msg...)); err != nil {
			return
		}
	}
}
