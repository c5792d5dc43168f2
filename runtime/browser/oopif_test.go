package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// TestOutOfProcessFrameInput fills, presses, selects and checks inside a
// cross-site (out-of-process) frame: keyboard input must reach the frame.
func TestOutOfProcessFrameInput(t *testing.T) {
	t.Parallel()
	d := shared(t)
	ctx := tctx(t, 30*time.Second)
	inner := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>inner</title>
<label for=code>Code</label><input id=code>
<select aria-label="Size"><option value=s>Small</option><option value=l>Large</option></select>
<label><input type=checkbox id=agree> Agree</label>
<p id=out>none</p>
<script>
const out = document.getElementById('out');
code.addEventListener('input', () => out.textContent = 'input:' + code.value);
code.addEventListener('keydown', e => { if (e.key === 'Enter') out.textContent = 'enter:' + code.value; });
</script>`)
	}))
	defer inner.Close()
	innerURL := strings.Replace(inner.URL, "127.0.0.1", "localhost", 1)
	outer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><title>outer</title><h1>Outer</h1><iframe id=f style="margin:40px;border:7px solid" src="%s/"></iframe>`, innerURL)
	}))
	defer outer.Close()
	if err := d.Navigate(ctx, outer.URL); err != nil {
		t.Fatal(err)
	}
	sc, infos, err := d.Frame(ctx, []string{"#f"})
	if err != nil {
		t.Fatal(err)
	}
	if infos[0].Origin != innerURL {
		t.Fatalf("origin = %s, want %s", infos[0].Origin, innerURL)
	}
	if sc.(*scope).sid == d.pageSID {
		t.Fatal("cross-site frame is not out of process")
	}
	code := findOne(t, ctx, d, sc, locator.Candidate{Strategy: locator.Label, Label: "Code", Exact: true})
	out := findOne(t, ctx, d, sc, locator.Candidate{Strategy: locator.CSS, CSS: "#out"})
	read := func() string {
		v, err := d.Read(ctx, out, runtime.Read{Kind: runtime.ReadText})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if err := d.Act(ctx, code, runtime.Act{Kind: runtime.ActFill, Value: "old"}); err != nil {
		t.Fatal(err)
	}
	if err := d.Act(ctx, code, runtime.Act{Kind: runtime.ActFill, Value: "A-17"}); err != nil {
		t.Fatal(err)
	}
	if v := read(); v != "input:A-17" {
		t.Fatalf("after fill: %q", v)
	}
	if err := d.Act(ctx, code, runtime.Act{Kind: runtime.ActPress, Value: "Enter"}); err != nil {
		t.Fatal(err)
	}
	if v := read(); v != "enter:A-17" {
		t.Fatalf("after Enter: %q", v)
	}
	size := findOne(t, ctx, d, sc, role("combobox", "Size"))
	if err := d.Act(ctx, size, runtime.Act{Kind: runtime.ActSelect, Value: "Large"}); err != nil {
		t.Fatal(err)
	}
	if v, _ := d.Read(ctx, size, runtime.Read{Kind: runtime.ReadValue}); v != "l" {
		t.Fatalf("select value = %q", v)
	}
	agree := findOne(t, ctx, d, sc, role("checkbox", "Agree"))
	if err := d.Act(ctx, agree, runtime.Act{Kind: runtime.ActCheck}); err != nil {
		t.Fatal(err)
	}
	if err := d.Act(ctx, agree, runtime.Act{Kind: runtime.ActCheck}); err != nil {
		t.Fatal(err)
	}
	if err := d.Act(ctx, agree, runtime.Act{Kind: runtime.ActUncheck}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Find(ctx, sc, nil, locator.Candidate{Strategy: locator.CSS, CSS: "a["}); !errorsIs(err, ErrInvalidSelector) {
		t.Errorf("invalid selector: %v", err)
	}
}
