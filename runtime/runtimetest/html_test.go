package runtimetest_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vera-run/vera/runtime/runtimetest"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata")

func get(t *testing.T, u string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

func TestServeRendersAccessibleHTML(t *testing.T) {
	site := runtimetest.Serve(t, runtimetest.ConformanceSite())
	origins := site.Origins()
	if len(origins) != 3 {
		t.Fatalf("Origins() = %v, want three served origins", origins)
	}
	var app, widget, outside string
	for _, o := range origins {
		switch {
		case strings.HasPrefix(o, "http://localhost:"):
			widget = o
		case site.Pages[o+"/act"] != nil:
			app = o
		case site.Pages[o+"/ad"] != nil:
			outside = o
		}
	}
	if app == "" || widget == "" || outside == "" || !strings.HasPrefix(outside, "http://127.0.0.1:") {
		t.Fatalf("origins %v: want the app on 127.0.0.1 and the widget on localhost", origins)
	}

	resp, body := get(t, app+"/")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET / = %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, want := range []string{
		"<!DOCTYPE html>",
		"<title>Members</title>",
		`<label for="email">Email address</label>`,
		`<input id="email" type="email">`,
		`<input id="phone" placeholder="Phone number">`,
		`<input hidden="" id="phone-ghost" placeholder="Phone backup">`,
		`<div data-testid="summary-card" id="summary">Balance 12.50 EUR</div>`,
		`<button aria-label="Close dialog" id="close">x</button>`,
		`<button disabled="" id="locked">Locked</button>`,
		`<a href="/act" id="to-act">Act page</a>`,
		`<section class="panel" id="panel">`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("GET / lacks %s", want)
		}
	}

	_, body = get(t, app+"/act")
	for _, want := range []string{
		`<select id="colour">`,
		`<option value="r">Red</option>`,
		`"navigate":"#search/{{value:q}}"`,
		`"download":"report"`,
		`"dialog":{"kind":"confirm","message":"Delete everything?"}`,
		`"html":"\u003cli id=\"row-2\"\u003eRow 2\u003c/li\u003e"`,
		`"navigate":"` + outside + `/"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("GET /act lacks %s", want)
		}
	}
	if n := strings.Count(body, "<script>"); n != 1 {
		t.Errorf("%d scripts, want the one inline runtime", n)
	}

	_, body = get(t, app+"/frames")
	if !strings.Contains(body, `<iframe class="twin" id="twin-a" src="`+app+`/inner"></iframe>`) ||
		!strings.Contains(body, `<iframe id="outer" src="`+widget+`/outer" title="Outer"></iframe>`) {
		t.Errorf("frames page does not point at the served frame pages:\n%s", body)
	}
	_, body = get(t, widget+"/outer")
	if !strings.Contains(body, `src="`+app+`/inner"`) {
		t.Error("the widget does not frame the app back on its served origin")
	}

	resp, body = get(t, app+"/__vera/download/report")
	if resp.StatusCode != http.StatusOK || body != "id,amount\n1,12.50\n" ||
		resp.Header.Get("Content-Disposition") != `attachment; filename="report.csv"` ||
		resp.Header.Get("Content-Type") != "text/csv" {
		t.Errorf("download = %d %q %v", resp.StatusCode, body, resp.Header)
	}
	if resp, _ := get(t, app+"/__vera/download/nope"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown download = %d", resp.StatusCode)
	}
	if resp, _ := get(t, app+"/no-such-page"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("unknown page = %d", resp.StatusCode)
	}
	if resp, _ := get(t, widget+"/"); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a page of another origin was served: %d", resp.StatusCode)
	}
	post, err := http.Post(app+"/", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	post.Body.Close()
	if post.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST = %d", post.StatusCode)
	}
}

func TestRebase(t *testing.T) {
	s := runtimetest.ConformanceSite()
	r := s.Rebase(map[string]string{runtimetest.ConformanceApp: "http://127.0.0.1:9", runtimetest.ConformanceWidget + "/": "http://localhost:8"})
	if r.Pages["http://127.0.0.1:9/act"] == nil || r.Pages["http://localhost:8/outer"] == nil || r.Pages[runtimetest.ConformanceOutside+"/ad"] == nil {
		t.Fatalf("pages not rebased: %v", keys(r.Pages))
	}
	if got := r.Pages["http://localhost:8/outer"].Body[1].Frame.URL; got != "http://127.0.0.1:9/inner" {
		t.Errorf("frame URL = %q", got)
	}
	if s.Pages[runtimetest.ConformanceApp+"/act"] == nil {
		t.Error("Rebase modified the original")
	}
	if err := r.Validate(); err != nil {
		t.Error(err)
	}
	if got := r.Origins(); !slices.Equal(got, []string{runtimetest.ConformanceOutside, "http://127.0.0.1:9", "http://localhost:8"}) {
		t.Errorf("Origins() = %v", got)
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestConformanceSiteGolden keeps testdata/conformance.json equal to
// ConformanceSite: the JSON form of the suite's fixture, for readers and
// for LoadSite.
func TestConformanceSiteGolden(t *testing.T) {
	got, err := json.MarshalIndent(runtimetest.ConformanceSite(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "conformance.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("testdata/conformance.json is stale; run go test -run TestConformanceSiteGolden -update")
	}
	loaded, err := runtimetest.LoadSite(bytes.NewReader(want))
	if err != nil {
		t.Fatal(err)
	}
	again, _ := json.MarshalIndent(loaded, "", "  ")
	if !bytes.Equal(append(again, '\n'), want) {
		t.Error("LoadSite does not round-trip the golden site")
	}
}
