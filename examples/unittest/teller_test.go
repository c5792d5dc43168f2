package unittest_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// origin is the capability's own (placeholder) origin; the fixtures live
// there, so the checked-in file runs unchanged.
const origin = "http://127.0.0.1:4010"

// password is a secret input: it must never reach the evidence.
const password = "s3cret-teller-pass"

// loadTeller reads the capability exactly as checked in.
func loadTeller(t *testing.T) *capability.Capability {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "quickstart", "teller.capability.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	if problems := c.ValidateForExecution(); len(problems) > 0 {
		t.Fatalf("the capability does not validate: %v", problems)
	}
	return c
}

// Fixture helpers: small constructors keep the pages readable.

func n(tag, id string, children ...*runtimetest.Node) *runtimetest.Node {
	return &runtimetest.Node{Tag: tag, ID: id, Children: children}
}

func text(tag, id, s string) *runtimetest.Node {
	return &runtimetest.Node{Tag: tag, ID: id, Text: s}
}

func input(id, label string, attrs map[string]string) *runtimetest.Node {
	return &runtimetest.Node{Tag: "input", ID: id, Label: label, Attributes: attrs}
}

func onClick(node string, effects ...runtimetest.Effect) runtimetest.Rule {
	return runtimetest.Rule{On: runtimetest.Trigger{Node: node, Act: runtime.ActClick}, Effects: effects}
}

// searchForm is the member search, also shown (with a status) for an
// unknown member.
func searchForm(status string) *runtimetest.Page {
	form := n("main", "main",
		text("h1", "title", "Member search"),
		&runtimetest.Node{Tag: "input", ID: "member-id", Label: "Member ID", Placeholder: "e.g. 100234",
			Attributes: map[string]string{"name": "memberId"}},
		&runtimetest.Node{Tag: "button", ID: "search", Text: "Search", TestID: "member-search-submit"},
	)
	if status != "" {
		form.Children = append(form.Children, &runtimetest.Node{Tag: "p", ID: "status", Role: "status", Text: status})
	}
	return &runtimetest.Page{
		Title: "Member search",
		Body:  []*runtimetest.Node{form},
		// The real form POSTs and redirects to /members/<id>; the fixture
		// says where a click leads.
		Rules: []runtimetest.Rule{onClick("search", runtimetest.Effect{Navigate: "/members/{{value:member-id}}"})},
	}
}

// tellerSite describes the teller console's pages: sign in, search,
// member 100234's balances, and "No member found" for member 999999.
func tellerSite() *runtimetest.Site {
	row := func(id, account, testID, amount string) *runtimetest.Node {
		return n("tr", id,
			&runtimetest.Node{Tag: "th", ID: id + "-name", Text: account, Attributes: map[string]string{"scope": "row"}},
			&runtimetest.Node{Tag: "td", ID: id + "-amount", TestID: testID, Text: amount})
	}
	return &runtimetest.Site{Pages: map[string]*runtimetest.Page{
		origin + "/login": {
			Title: "Sign in",
			Body: []*runtimetest.Node{n("main", "main",
				text("h1", "title", "Teller console"),
				input("username", "Username", map[string]string{"name": "username"}),
				input("password", "Password", map[string]string{"name": "password", "type": "password"}),
				text("button", "sign-in", "Sign in"),
			)},
			Rules: []runtimetest.Rule{onClick("sign-in", runtimetest.Effect{Navigate: "/members"})},
		},
		origin + "/members":        searchForm(""),
		origin + "/members/999999": searchForm("No member found"),
		origin + "/members/100234": {
			Title: "Ada Lovelace",
			Body: []*runtimetest.Node{n("main", "main",
				&runtimetest.Node{Tag: "h1", ID: "name", TestID: "member-name", Text: "Ada Lovelace"},
				text("h2", "accounts", "Accounts"),
				n("table", "balances",
					text("caption", "caption", "Accounts"),
					n("tbody", "rows",
						row("savings", "Savings", "balance-savings", "$12,480.55"),
						row("checking", "Checking", "balance-checking", "$1,204.10"))),
				&runtimetest.Node{Tag: "a", ID: "back", Text: "Back to search", Attributes: map[string]string{"href": "/members"}},
			)},
		},
	}}
}

// expiredSite is the same console after the session expired: every
// protected page shows the session-expired page.
func expiredSite() *runtimetest.Site {
	s := tellerSite()
	expired := &runtimetest.Page{
		Title: "Session expired",
		Body: []*runtimetest.Node{n("main", "main",
			text("h1", "title", "Session expired"),
			text("p", "why", "Session expired. Please sign in again."),
			&runtimetest.Node{Tag: "a", ID: "again", Text: "Sign in again", Attributes: map[string]string{"href": "/login"}},
		)},
	}
	for key := range s.Pages {
		if strings.HasPrefix(key, origin+"/members") {
			s.Pages[key] = expired.Clone()
		}
	}
	return s
}

func TestTellerCapability(t *testing.T) {
	c := loadTeller(t)
	cases := []struct {
		name          string
		site          *runtimetest.Site
		member        string
		state         runtime.TerminalState
		outcome       string
		balances      map[string]any // nil: not produced
		lastMilestone string         // the milestone the run ended in
	}{
		{
			name: "completed", site: tellerSite(), member: "100234",
			state:         runtime.StateCompleted,
			balances:      map[string]any{"member_name": "Ada Lovelace", "savings": "$12,480.55", "checking": "$1,204.10"},
			lastMilestone: "read_balances",
		},
		{
			name: "member_not_found", site: tellerSite(), member: "999999",
			state: runtime.StateBusinessOutcome, outcome: "member_not_found",
			lastMilestone: "search",
		},
		{
			name: "session_expired", site: expiredSite(), member: "100234",
			state: runtime.StateBusinessOutcome, outcome: "session_expired",
			lastMilestone: "login",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// An invalid fixture would make every driver call fail: say so
			// first.
			if err := tc.site.Validate(); err != nil {
				t.Fatal(err)
			}
			d := runtimetest.NewDriver(tc.site)
			defer d.Close()
			runs := t.TempDir()
			res, err := runtime.Execute(context.Background(), c,
				map[string]any{"username": "teller.demo", "password": password, "member_id": tc.member},
				runtime.WithDriver(d), runtime.WithRunDir(runs))
			if err != nil {
				t.Fatal(err)
			}
			if res.State != tc.state || res.Outcome != tc.outcome {
				t.Fatalf("ended %s/%s (failure %+v), want %s/%s", res.State, res.Outcome, res.Failure, tc.state, tc.outcome)
			}
			got, produced := res.ModelOutputs["balances"]
			if tc.balances == nil && produced {
				t.Errorf("balances produced: %v", got)
			}
			if tc.balances != nil && !reflect.DeepEqual(got, tc.balances) {
				t.Errorf("balances = %#v, want %#v", got, tc.balances)
			}
			if last := res.Milestones[len(res.Milestones)-1].ID; last != tc.lastMilestone {
				t.Errorf("ended in milestone %s, want %s", last, tc.lastMilestone)
			}
			// Only a completed run is clean; every run is simulated.
			if res.Clean != (tc.state == runtime.StateCompleted) || res.Mode != runtime.ModeSimulated {
				t.Errorf("clean %v mode %s", res.Clean, res.Mode)
			}

			// The evidence verifies against the capability and never
			// holds the password.
			if rep, err := receipt.VerifyRun(context.Background(), res.RunDir, c); err != nil {
				t.Errorf("VerifyRun: %v (%+v)", err, rep.Problems)
			}
			ents, err := os.ReadDir(res.RunDir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ents {
				b, err := os.ReadFile(filepath.Join(res.RunDir, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(b), password) {
					t.Errorf("%s holds the password", e.Name())
				}
			}
		})
	}
}

// TestSimulatedRunsNeverValidate: two clean runs against fixtures prove the
// capability's logic, not the site; Finalize refuses them.
func TestSimulatedRunsNeverValidate(t *testing.T) {
	c := loadTeller(t)
	runs := t.TempDir()
	var dirs []string
	for range 2 {
		d := runtimetest.NewDriver(tellerSite())
		res, err := runtime.Execute(context.Background(), c,
			map[string]any{"username": "teller.demo", "password": password, "member_id": "100234"},
			runtime.WithDriver(d), runtime.WithRunDir(runs))
		d.Close()
		if err != nil || !res.Clean {
			t.Fatalf("run: %v, clean %v", err, res != nil && res.Clean)
		}
		dirs = append(dirs, res.RunDir)
	}
	_, err := receipt.Finalize(context.Background(), c, dirs)
	var errs receipt.FinalizeErrors
	if !errors.As(err, &errs) || !errs.Has(dirs[0], receipt.CheckMode) {
		t.Fatalf("Finalize of simulated runs = %v, want a %s failure", err, receipt.CheckMode)
	}
}

// TestFixturesAreValid keeps the fixtures renderable by a real browser too
// (runtimetest.Site.Validate rejects markup the HTML parser would rewrite).
func TestFixturesAreValid(t *testing.T) {
	for name, s := range map[string]*runtimetest.Site{"teller": tellerSite(), "expired": expiredSite()} {
		if err := s.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
