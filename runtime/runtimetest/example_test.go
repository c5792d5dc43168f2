package runtimetest_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// A fixture describes a page and how it reacts; the test drives it through
// the Driver interface and observes what changed.
func ExampleNewDriver() {
	site := &runtimetest.Site{Pages: map[string]*runtimetest.Page{
		"http://127.0.0.1:4010/members": {
			Title: "Members",
			Body: []*runtimetest.Node{
				{Tag: "input", ID: "member-id", Label: "Member ID"},
				{Tag: "button", ID: "search", Text: "Search"},
				{Tag: "p", ID: "status", Text: "Type a member ID"},
			},
			Rules: []runtimetest.Rule{{
				On: runtimetest.Trigger{Node: "search", Act: runtime.ActClick},
				Effects: []runtimetest.Effect{
					{Navigate: "#member/{{value:member-id}}"},
					{SetText: map[string]string{"status": "Searching"}},
				},
			}},
		},
	}}
	ctx := context.Background()
	d := runtimetest.NewDriver(site)
	defer d.Close()
	_ = d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{"http://127.0.0.1:4010"}})
	_ = d.Navigate(ctx, "http://127.0.0.1:4010/members")

	field, _ := d.Find(ctx, nil, nil, locator.Candidate{Strategy: locator.Label, Label: "Member ID", Exact: true})
	_ = d.Act(ctx, field[0], runtime.Act{Kind: runtime.ActFill, Value: "42"})
	button, _ := d.Find(ctx, nil, nil, locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Search", Exact: true})
	_ = d.Act(ctx, button[0], runtime.Act{Kind: runtime.ActClick})

	// zero matches is not an error
	status, _ := d.Find(ctx, nil, nil, locator.Candidate{Strategy: locator.TestID, TestID: "absent"})
	fmt.Println(len(status))
	status, _ = d.Find(ctx, nil, nil, locator.Candidate{Strategy: locator.CSS, CSS: "#status"})
	text, _ := d.Read(ctx, status[0], runtime.Read{Kind: runtime.ReadText})
	url, _ := d.URL(ctx)
	fmt.Println(text)
	fmt.Println(url)
	fmt.Println(d.Info().Mode, d.Clicks())
	// Output:
	// 0
	// Searching
	// http://127.0.0.1:4010/members#member/42
	// simulated [search]
}

// Fixtures can live in testdata as JSON.
func ExampleLoadSite() {
	f, err := os.Open("testdata/login.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	site, err := runtimetest.LoadSite(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(site.Origins())
	_, err = runtimetest.LoadSite(strings.NewReader(`{"pages": {"http://127.0.0.1:4010/": {"body": [], "expected_result": "42"}}}`))
	fmt.Println(err)
	// Output:
	// [http://127.0.0.1:4010]
	// invalid fixture: json: unknown field "expected_result"
}

// RenderHTML shows what a browser receives for a page.
func ExampleSite_RenderHTML() {
	site := &runtimetest.Site{Pages: map[string]*runtimetest.Page{
		"http://127.0.0.1:4010/": {Body: []*runtimetest.Node{
			{Tag: "input", ID: "email", Label: "Email", Attributes: map[string]string{"type": "email"}},
			{Tag: "button", ID: "go", Name: "Send", Text: "→", Disabled: true},
		}},
	}}
	html, _ := site.RenderHTML("http://127.0.0.1:4010/")
	body := html[strings.Index(html, "<body>"):]
	fmt.Print(body)
	// Output:
	// <body>
	// <label for="email">Email</label>
	// <input id="email" type="email">
	// <button aria-label="Send" disabled="" id="go">→</button>
	// </body>
	// </html>
}

// A driver package runs the conformance suite from its own tests. The
// suite serves the site over loopback; a browser driver navigates to it.
func ExampleTestDriver() {
	// In a _test.go file of a driver package:
	testConformance := func(t *testing.T) {
		runtimetest.TestDriver(t, func(t *testing.T, site *runtimetest.Site) runtime.Driver {
			return runtimetest.NewDriver(site) // or browser.Launch(...), skipping without a browser
		})
	}
	_ = testConformance
}

// Serve puts a fixture site on loopback HTTP for a browser test.
func ExampleServe() {
	testServe := func(t *testing.T) {
		site := runtimetest.Serve(t, runtimetest.ConformanceSite())
		for _, origin := range site.Origins() {
			resp, err := http.Get(origin + "/")
			if err == nil {
				resp.Body.Close()
			}
		}
	}
	_ = testServe
}
