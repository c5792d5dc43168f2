package browser

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// slidePage serves /slide: a still button and one that slides 400 px
// to the right over 800 ms (a CSS transition started when "start" is
// clicked), which records where it was when a press reached it.
func slidePage(t *testing.T) string {
	t.Helper()
	const page = `<!doctype html><title>Slide</title>
<style>#slide { transition: transform 800ms linear; } #slide.go { transform: translateX(400px); }</style>
<button id="still">Still</button>
<button id="start" onclick="document.getElementById('slide').classList.add('go'); window.started = performance.now()">Start</button>
<div style="margin-top: 40px"><button id="slide">Sliding</button></div>
<script>
window.pressedAt = null;
const s = document.getElementById('slide');
s.addEventListener('transitionend', () => { window.ended = performance.now(); });
s.addEventListener('pointerdown', () => { window.pressedAt = s.getBoundingClientRect().left; });
</script>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/slide" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestClickWaitsForStableBox: the stability check's two measurements an
// animation frame apart (one call, jsActStateFramed) see a sliding
// button move and a still one stay; a click on the sliding button waits
// until it stopped, so the press reaches it at its final place, not on
// the way.
func TestClickWaitsForStableBox(t *testing.T) {
	t.Parallel()
	d := shared(t)
	origin := slidePage(t)
	ctx := tctx(t, 30*time.Second)
	top := openHelperPage(t, ctx, d, origin, "/slide")
	find := func(name string) *element {
		t.Helper()
		els, err := d.Find(ctx, top, nil, locator.Candidate{Strategy: locator.Role, Role: "button", Name: name, Exact: true})
		if err != nil || len(els) != 1 {
			t.Fatalf("find %q: %v (%d)", name, err, len(els))
		}
		return els[0].(*element)
	}
	still, slide, start := find("Still"), find("Sliding"), find("Start")

	st, err := d.stateWith(ctx, still, true, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if st.Prev == nil || st.Prev.X != st.X || st.Prev.Y != st.Y || st.Prev.W != st.W || st.Prev.H != st.H {
		t.Fatalf("still button: prev %+v, now x=%v y=%v w=%v h=%v", st.Prev, st.X, st.Y, st.W, st.H)
	}

	// The click on the sliding button right after the click that
	// started it: the transition is about to start at the first
	// measurement.
	if err := d.Act(ctx, start, runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	if err := d.Act(ctx, slide, runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		PressedAt *float64 `json:"pressedAt"`
		Started   float64  `json:"started"`
		Ended     *float64 `json:"ended"`
		Left      float64  `json:"left"`
	}
	var r proto.RuntimeEvaluateResult
	if err := d.call(ctx, d.pageSID, proto.RuntimeEvaluate{Expression: `({pressedAt: window.pressedAt, started: window.started, ended: window.ended ?? null, left: document.getElementById('slide').getBoundingClientRect().left})`, ReturnByValue: true}, &r); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(r.Result.Value.JSON("", "")), &got); err != nil {
		t.Fatal(err)
	}
	if got.PressedAt == nil {
		t.Fatal("no press reached the sliding button")
	}
	if *got.PressedAt != got.Left {
		t.Errorf("the press reached the button at left=%v, on its way to %v (transition ended: %v)", *got.PressedAt, got.Left, got.Ended != nil)
	}

	// Measured while it slides: the two measurements differ.
	top = openHelperPage(t, ctx, d, origin, "/slide")
	slide, start = find("Sliding"), find("Start")
	if err := d.Act(ctx, start, runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	st, err = d.stateWith(ctx, slide, true, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if st.Prev == nil || st.Prev.X == st.X {
		t.Fatalf("sliding button: the measurements a frame apart saw no move (prev %+v, x now %v)", st.Prev, st.X)
	}
}
