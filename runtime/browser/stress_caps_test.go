package browser

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime"
)

// Capabilities of the stress tier. The example processes' own capability
// files (examples/*/*.capability.json) are loaded as the examples load
// them; the escape probes and the issue-only gate are cut from them.

// exampleCapability loads examples/<dir>/<file> with each placeholder
// origin (old, new pairs) rewritten, as the example program does.
func exampleCapability(t testing.TB, dir, file string, origins ...string) *capability.Capability {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "examples", dir, file))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(origins); i += 2 {
		if !strings.Contains(string(raw), origins[i]) {
			t.Fatalf("%s does not name %s", file, origins[i])
		}
		raw = []byte(strings.ReplaceAll(string(raw), origins[i], origins[i+1]))
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if errs := c.ValidateForExecution(); len(errs) > 0 {
		t.Fatalf("%s: %v", file, errs)
	}
	return c
}

func exampleTeller(t testing.TB, s *testsite.Sites) *capability.Capability {
	return exampleCapability(t, "quickstart", "teller.capability.json", tellerPlaceholder, s.Teller.Origin())
}

func exampleMail(t testing.TB, s *testsite.Sites) *capability.Capability {
	return exampleCapability(t, "mailsearch", "mail_search.capability.json", mailPlaceholder, s.Mail.Origin())
}

func exampleInvoices(t testing.TB, inv *testsite.Invoicing) *capability.Capability {
	return exampleCapability(t, "invoices", "invoice_export.capability.json",
		shellPlaceholder, inv.Origin(), workspacePlaceholder, inv.WorkspaceOrigin())
}

// issueCapability is the invoice capability cut down to its issue
// milestone: open the billing shell, click "Issue invoice" and, approved
// at action time, the consequential "Confirm". With the native dialog on,
// the first click opens window.confirm instead.
func issueCapability(t testing.TB, inv *testsite.Invoicing) *capability.Capability {
	t.Helper()
	raw := fixtureBytes(t, "invoice_export.json", shellPlaceholder, inv.Origin(), workspacePlaceholder, inv.WorkspaceOrigin())
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	doc["id"] = "billing.invoice-issue"
	doc["state"] = "discovered"
	delete(doc, "validation")
	doc["outputs"] = []any{}
	var milestones []any
	for _, m := range doc["milestones"].([]any) {
		if m.(map[string]any)["id"] == "issue" {
			milestones = append(milestones, m)
		}
	}
	doc["milestones"] = milestones
	return parseDoc(t, doc)
}

// stressEscapeCapability opens start on the teller origin (the only allowed
// one) and, with a click, clicks it. The postcondition holds on the
// escape page itself, so a run that does not see the blocked request
// completes: exactly the misreport the stress tier counts.
func stressEscapeCapability(t testing.TB, s *testsite.Sites, start string, click map[string]any, stays map[string]any) *capability.Capability {
	t.Helper()
	raw := fixtureBytes(t, "teller_member_balances.json", tellerPlaceholder, s.Teller.Origin())
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	doc["id"] = "teller.escape-probe"
	doc["name"] = "Escape probe"
	doc["goal"] = "Open a teller page that tries to reach another origin and stay on the teller origin."
	doc["runtime"].(map[string]any)["start"] = start
	doc["inputs"] = []any{}
	doc["outputs"] = []any{}
	delete(doc, "business_outcomes")
	action := map[string]any{
		"id": "look", "operation": "wait", "intent": "Look at the page",
		"effect": "read_only", "confirmation": "none",
		"postcondition": map[string]any{"kind": "locator_visible", "locator_candidates": []any{stays}},
	}
	if click != nil {
		action = map[string]any{
			"id": "leave", "operation": "click", "intent": "Click the control that tries to leave the origin",
			"effect": "read_only", "confirmation": "none",
			"locator_candidates": []any{click},
			"postcondition":      map[string]any{"kind": "locator_visible", "locator_candidates": []any{stays}},
		}
	}
	doc["milestones"] = []any{map[string]any{
		"id": "escape", "intent": "Try the escape", "actions": []any{action},
	}}
	return parseDoc(t, doc)
}

func roleCand(r, name string) map[string]any {
	return map[string]any{"strategy": "role", "role": r, "name": name, "exact": true}
}

func parseDoc(t testing.TB, doc map[string]any) *capability.Capability {
	t.Helper()
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		t.Fatalf("%s: %v", doc["id"], err)
	}
	if errs := c.ValidateForExecution(); len(errs) > 0 {
		t.Fatalf("%s: %v", doc["id"], errs)
	}
	return c
}

// TestStressCapabilities keeps the tier's capabilities valid in the
// normal suite (no browser needed).
func TestStressCapabilities(t *testing.T) {
	s := sites(t)
	exampleTeller(t, s)
	exampleMail(t, s)
	exampleInvoices(t, s.Invoicing)
	issueCapability(t, s.Invoicing)
	stressEscapeCapability(t, s, testsite.EscapePopup, roleCand("button", "Open popup"), roleCand("button", "Open popup"))
	stressEscapeCapability(t, s, testsite.EscapeLink, roleCand("link", "Leave"), roleCand("heading", "Link escape"))
	stressEscapeCapability(t, s, testsite.EscapeRedirect, nil, roleCand("heading", "Outside page"))
}

// TestE2EEscapeRedirectCounted: the start page redirects to the forbidden
// origin. The run fails navigation_blocked and its evidence counts the
// blocked redirect (BlockedRequests was 0 when the start navigation
// itself failed); Outside is never contacted.
func TestE2EEscapeRedirectCounted(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := stressEscapeCapability(t, s, testsite.EscapeRedirect, nil, roleCand("heading", "Outside page"))
	res := execute(t, tctx(t, 60*time.Second), d, c, nil)
	wantState(t, res, runtime.StateFailed, "")
	if res.Failure.Reason != string(runtime.ReasonNavigationBlocked) || res.BlockedRequests != 1 || res.Clean {
		t.Errorf("run %s, clean %v, blocked %d; want navigation_blocked with 1 blocked request", describeResult(res), res.Clean, res.BlockedRequests)
	}
	if n, k := s.Outside.TotalHits(), s.Outside.Connections(); n != 0 || k != 0 {
		t.Errorf("Outside saw %d requests, %d connections", n, k)
	}
	rf := runFiles(t, res)
	if rf.Receipt.BlockedRequests != 1 {
		t.Errorf("the receipt counts %d blocked requests, want 1", rf.Receipt.BlockedRequests)
	}
}
