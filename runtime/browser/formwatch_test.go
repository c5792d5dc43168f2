package browser

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// formPages serves the forms of TestFormInvalidRefused on loopback and
// records every submission that reached the server (form id, then the
// posted fields), as a real site's handler would.
type formPages struct {
	url  string
	mu   sync.Mutex
	sent []string
}

func (p *formPages) posts() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.sent...)
}

// formPage has one form per case. Every form posts to /post?f=<id>,
// which answers 303 to a confirmation page ("react" posts by fetch and
// re-renders its form, as a framework does).
const formPage = `<!doctype html><title>Forms</title>
<form id="plain" method="post" action="/post?f=plain">
  <label>Name <input name="name" required></label>
  <label>Email <input name="email" type="email" required></label>
  <button>Send plain</button>
</form>
<form id="novalidate" method="post" action="/post?f=novalidate" novalidate>
  <label>Nickname <input name="nick" required></label>
  <button>Send novalidate</button>
</form>
<form id="formnovalidate" method="post" action="/post?f=formnovalidate">
  <label>Code <input name="code" required></label>
  <button formnovalidate>Save anyway</button>
</form>
<form id="custom" method="post" action="/post?f=custom">
  <label>City <input name="city" required></label>
  <div role="button" tabindex="0" onclick="this.closest('form').requestSubmit()">Send custom</div>
</form>
<div id="app"></div>
<form id="draft" method="post" action="/post?f=draft" novalidate>
  <label>Title <input name="title" required></label>
  <button>Save draft</button>
</form>
<div style="height: 1600px"></div>
<form id="below" method="post" action="/post?f=below">
  <label>Far <input name="far" required pattern="[0-9]+"></label>
  <button>Send below</button>
</form>
<script>
// The draft form validates by itself and submits anyway: a page that
// reports the fields it would like filled but saves a draft.
document.getElementById('draft').addEventListener('submit', e => { e.target.reportValidity(); });
// A React-style form: state re-renders the whole form on every input,
// submit is handled by script (preventDefault, fetch), and the browser's
// validation still runs before the submit event.
let amount = '';
function render(done) {
  const app = document.getElementById('app');
  app.innerHTML = '<form id="react"><label>Amount <input name="amount" required value="' + amount + '"></label>' +
    '<button>Send react</button></form>' + (done ? '<p>Sent react</p>' : '');
  const f = app.querySelector('form');
  f.amount.addEventListener('input', e => { amount = e.target.value; const pos = e.target.selectionStart; render(false);
    const i = document.querySelector('#react input'); i.focus(); i.setSelectionRange(pos, pos); });
  f.addEventListener('submit', e => { e.preventDefault();
    fetch('/post?f=react', {method: 'POST', body: new URLSearchParams({amount})}).then(() => render(true)); });
}
render(false);
</script>`

func serveForms(t *testing.T) *formPages {
	t.Helper()
	p := &formPages{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		switch r.URL.Path {
		case "/form":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, formPage)
		case "/post":
			if err := r.ParseForm(); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			var kv []string
			for k, v := range r.PostForm {
				kv = append(kv, k+"="+strings.Join(v, ","))
			}
			p.mu.Lock()
			p.sent = append(p.sent, r.URL.Query().Get("f")+":"+strings.Join(kv, "&"))
			p.mu.Unlock()
			if r.URL.Query().Get("f") == "react" {
				w.WriteHeader(http.StatusNoContent)
				return
			}
			http.Redirect(w, r, "/done", http.StatusSeeOther)
		case "/done":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><title>Done</title><p>Sent</p>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	p.url = srv.URL
	return p
}

// TestFormInvalidRefused: a click (or Enter) that would submit a form
// its constraint validation refuses fails with ErrFormInvalid inside a
// DispatchError, naming the invalid controls and their validity flags
// (never a value), and the server receives nothing; the same act on a
// valid form, a novalidate form, a formnovalidate button and a page that
// validates by itself and submits anyway succeeds and the server
// receives the submission. On the old driver every refused case returned
// nil: the click "worked" and nothing was sent.
func TestFormInvalidRefused(t *testing.T) {
	t.Parallel()
	d := shared(t)
	forms := serveForms(t)
	for _, tc := range []struct {
		name   string
		fills  [][2]string // label, value
		act    runtime.ActKind
		target locator.Candidate
		// refused lists the substrings the refusal must name; nil: the
		// act must succeed and post.
		refused []string
		post    string // the id the server must receive when not refused
	}{
		{name: "plain/empty", act: runtime.ActClick, target: role("button", "Send plain"),
			refused: []string{"name (valueMissing)", "email (valueMissing)"}},
		{name: "plain/bad-email", fills: [][2]string{{"Name", "Ada"}, {"Email", "not-an-email"}}, act: runtime.ActClick,
			target: role("button", "Send plain"), refused: []string{"email (typeMismatch)"}},
		{name: "plain/valid", fills: [][2]string{{"Name", "Ada"}, {"Email", "ada@example.test"}}, act: runtime.ActClick,
			target: role("button", "Send plain"), post: "plain"},
		{name: "plain/enter-empty", fills: [][2]string{{"Name", "Ada"}}, act: runtime.ActPress,
			target: locator.Candidate{Strategy: locator.Label, Label: "Name", Exact: true}, refused: []string{"email (valueMissing)"}},
		{name: "plain/enter-valid", fills: [][2]string{{"Name", "Ada"}, {"Email", "ada@example.test"}}, act: runtime.ActPress,
			target: locator.Candidate{Strategy: locator.Label, Label: "Email", Exact: true}, post: "plain"},
		{name: "novalidate", act: runtime.ActClick, target: role("button", "Send novalidate"), post: "novalidate"},
		{name: "formnovalidate", act: runtime.ActClick, target: role("button", "Save anyway"), post: "formnovalidate"},
		{name: "custom/empty", act: runtime.ActClick, target: role("button", "Send custom"), refused: []string{"city (valueMissing)"}},
		{name: "custom/valid", fills: [][2]string{{"City", "Pavia"}}, act: runtime.ActClick, target: role("button", "Send custom"), post: "custom"},
		{name: "react/empty", act: runtime.ActClick, target: role("button", "Send react"), refused: []string{"amount (valueMissing)"}},
		{name: "react/valid", fills: [][2]string{{"Amount", "12.50"}}, act: runtime.ActClick, target: role("button", "Send react"), post: "react"},
		{name: "draft/self-validated", act: runtime.ActClick, target: role("button", "Save draft"), post: "draft"},
		{name: "below-the-fold/pattern", fills: [][2]string{{"Far", "abc"}}, act: runtime.ActClick,
			target: role("button", "Send below"), refused: []string{"far (patternMismatch)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := tctx(t, 60*time.Second)
			top := openHelperPage(t, ctx, d, forms.url, "/form")
			before := len(forms.posts())
			for _, f := range tc.fills {
				el := findOne(t, ctx, d, top, locator.Candidate{Strategy: locator.Label, Label: f[0], Exact: true})
				if err := d.Act(ctx, el, runtime.Act{Kind: runtime.ActFill, Value: f[1]}); err != nil {
					t.Fatalf("fill %s: %v", f[0], err)
				}
			}
			el := findOne(t, ctx, d, top, tc.target)
			act := runtime.Act{Kind: tc.act}
			if tc.act == runtime.ActPress {
				act.Value = "Enter"
			}
			err := d.Act(ctx, el, act)
			if tc.refused == nil {
				if err != nil {
					t.Fatalf("act = %v, want nil", err)
				}
				waitPosts(t, ctx, forms, before+1)
				if got := forms.posts()[before]; !strings.HasPrefix(got, tc.post+":") {
					t.Errorf("server received %q, want form %q", got, tc.post)
				}
				return
			}
			var de *runtime.DispatchError
			if !errors.Is(err, runtime.ErrFormInvalid) || !errors.As(err, &de) {
				t.Fatalf("act = %v, want ErrFormInvalid in a DispatchError", err)
			}
			for _, want := range tc.refused {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not name %q", err, want)
				}
			}
			for _, f := range tc.fills {
				if strings.Contains(err.Error(), f[1]) {
					t.Errorf("error %q names the value %q", err, f[1])
				}
			}
			// Nothing reached the server: a round trip to the page
			// (a settle) gives a submission time to arrive first.
			if err := d.Settle(ctx); err != nil {
				t.Fatal(err)
			}
			if got := forms.posts()[before:]; len(got) != 0 {
				t.Errorf("server received %v after a refused submission", got)
			}
		})
	}
}

// waitPosts waits until the server has received n submissions, bounded
// by ctx.
func waitPosts(t *testing.T, ctx interface{ Done() <-chan struct{} }, p *formPages, n int) {
	t.Helper()
	for len(p.posts()) < n {
		select {
		case <-ctx.Done():
			t.Fatalf("server received %d submissions, want %d: %v", len(p.posts()), n, p.posts())
		case <-time.After(pollInterval):
		}
	}
}

// TestSubmitWatchCanceled: a watch read cut short by the act's context
// returns the context's error (the submission's fate is unknown; on a
// loaded machine the read of a form whose POST had no answer ran to the
// act's deadline, and the act was reported done), while a read that fails
// because the document went away is no refusal.
func TestSubmitWatchCanceled(t *testing.T) {
	t.Parallel()
	d := shared(t)
	forms := serveForms(t)
	ctx := tctx(t, 30*time.Second)
	top := openHelperPage(t, ctx, d, forms.url, "/form")
	el, err := d.asElement(findOne(t, ctx, d, top, role("button", "Send plain")))
	if err != nil {
		t.Fatal(err)
	}
	p, err := d.armPress(ctx, el.sid, el.obj, true)
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := d.readSubmitWatch(cctx, p.sid, p.obj, `function(){ return this.submit() }`); !errors.Is(err, context.Canceled) {
		t.Errorf("read with a cancelled ctx = %v, want context.Canceled", err)
	}
	if err := d.Navigate(ctx, forms.url+"/done"); err != nil {
		t.Fatal(err)
	}
	if err := d.readSubmitWatch(ctx, p.sid, p.obj, `function(){ return this.submit() }`); err != nil {
		t.Errorf("read after the document went away = %v, want nil", err)
	}
}

// TestSubmitReadDuringNavigation: a click that submits a form returns as
// soon as the submission is navigating, even when the read of the form's
// watch goes out after the browser began that navigation. Chromium holds
// the commands sent to a navigating frame until the navigation has its
// response: under load the read was sent late, and the click waited for
// the submission's answer (seen as TestSettleHoldsActNavigation/form: the
// click returned after the 4.5 s answer, and Settle had nothing left to
// hold for). The test sends the read only once the server holds the
// submission, which it answers only when the test is done.
func TestSubmitReadDuringNavigation(t *testing.T) {
	t.Parallel()
	d := shared(t)
	ctx := tctx(t, 60*time.Second)
	got, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, `<!doctype html><title>Form</title><form method=post action="/slow"><input name=v value=1><button>Submit</button></form>`)
		case "/slow":
			once.Do(func() { close(got) })
			select {
			case <-release:
			case <-r.Context().Done():
				return
			}
			http.Redirect(w, r, "/done", http.StatusSeeOther)
		case "/done":
			fmt.Fprint(w, `<!doctype html><title>Done</title><p>Done</p>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(site.Close)
	released := false
	free := func() {
		if !released {
			released = true
			close(release)
		}
	}
	defer free()
	visitScoped(t, ctx, d, site.URL)
	top, _, err := d.Frame(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	el := findOne(t, ctx, d, top, role("button", "Submit"))
	var late atomic.Bool
	d.setDeclTrace(func(decl string) {
		if decl != `function(){ return this.submit() }` {
			return
		}
		select {
		case <-got:
		case <-time.After(10 * time.Second):
			late.Store(true)
		}
	})
	actx, cancel := context.WithTimeout(ctx, 20*time.Second)
	start := time.Now()
	err = d.Act(actx, el, runtime.Act{Kind: runtime.ActClick})
	cancel()
	d.setDeclTrace(nil)
	if late.Load() {
		t.Fatal("the submission never reached the server")
	}
	if err != nil {
		t.Fatalf("click = %v after %s: it waited for the submission's answer", err, time.Since(start).Round(time.Millisecond))
	}
	// The submission is the act's and still unanswered.
	sctx, cancel := context.WithTimeout(ctx, 4*time.Second)
	err = d.Settle(sctx)
	cancel()
	if !errors.Is(err, runtime.ErrActPending) {
		t.Errorf("Settle = %v, want ErrActPending", err)
	}
	// Answer it, so the page ends on its document.
	free()
	if err := d.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	if u, err := d.URL(ctx); err != nil || u != site.URL+"/done" {
		t.Errorf("URL = %s, %v; want %s/done", u, err, site.URL)
	}
}
