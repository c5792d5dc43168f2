package docs

import (
	"slices"
	"testing"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/origin"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime/grant"
)

// The grant cases of FORMAT section 15: the worked run made live (launch
// or connect) with the grant record the runtime writes, and tampers of
// each grant rule.
func init() {
	runCases = append(runCases, grantCases...)
}

// withGrant makes the run live in mode and gives it a grant for the
// worked capability; edit changes the commitment before the digest is
// computed (a well-formed grant for something else), tamper after it.
func withGrant(mode receipt.ExecutionMode, edit func(*grant.Commitment), tamper func(*receipt.GrantRecord)) func(t *testing.T, b *confBase, rf *runFiles) {
	return func(t *testing.T, b *confBase, rf *runFiles) {
		t.Helper()
		rf.r.ExecutionMode = mode
		gm, target := grant.ModeLaunch, "/usr/lib/chromium/chromium"
		if mode == receipt.ModeLiveConnected {
			gm, target = grant.ModeConnect, "http://127.0.0.1:9222"
		}
		var origins []string
		for _, s := range b.discovered.Site.AllowedOrigins {
			n, err := origin.Normalize(s)
			if err != nil {
				t.Fatal(err)
			}
			origins = append(origins, n)
		}
		slices.Sort(origins)
		cm := grant.Commitment{Schema: grant.Schema, Mode: gm, TargetSHA256: canonjson.SumBytes([]byte(target)),
			ExecutionHash: rf.r.Capability.ExecutionHash, Origins: slices.Compact(origins), Env: []string{},
			NetworkClass: grant.ClassifyOrigins(origins)}
		if edit != nil {
			edit(&cm)
		}
		d, err := canonjson.Digest(cm)
		if err != nil {
			t.Fatal(err)
		}
		rf.r.Grant = &receipt.GrantRecord{Digest: d, Commitment: cm}
		if tamper != nil {
			tamper(rf.r.Grant)
		}
	}
}

const otherHash = "sha256:0000000000000000000000000000000000000000000000000000000000000001"

var grantCases = []runCase{
	{id: "valid-grant-launch", edit: withGrant(receipt.ModeLiveLaunched, nil, nil),
		rules: []string{"run.file.grant", "run.cap.grant", "run.verdict"},
		note:  "the worked run as live_launched_browser with the launch grant the runtime records: commitment and digest (15.3)"},
	{id: "valid-grant-connect", edit: withGrant(receipt.ModeLiveConnected, nil, nil),
		rules: []string{"run.file.grant", "run.cap.grant"},
		note:  "the worked run as live_connected_chrome with a connect grant (15.3)"},
	{id: "valid-grant-absent-live", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.ExecutionMode = receipt.ModeLiveLaunched },
		rules: []string{"run.file.grant"},
		note:  "a live receipt without a grant still verifies in browser-run-receipt/v3 (15.4)"},
	{id: "grant-digest-mismatch", edit: withGrant(receipt.ModeLiveLaunched, nil, func(g *receipt.GrantRecord) { g.Digest = otherHash }),
		codes: []string{"grant"}, rules: []string{"run.file.grant"},
		note: "the digest is not the SHA-256 of the commitment's canonical JSON (15.2)"},
	{id: "grant-commitment-edited", edit: withGrant(receipt.ModeLiveLaunched, nil, func(g *receipt.GrantRecord) { g.Commitment.Auto = true }),
		codes: []string{"grant"}, rules: []string{"run.file.grant"},
		note: "a member of the commitment changed after the digest was computed"},
	{id: "grant-other-execution-hash", edit: withGrant(receipt.ModeLiveLaunched, func(c *grant.Commitment) { c.ExecutionHash = otherHash }, nil),
		codes: []string{"grant"}, rules: []string{"run.file.grant"},
		note: "a well-formed grant for another capability (execution hash)"},
	{id: "grant-mode-mismatch", edit: withGrant(receipt.ModeLiveLaunched, func(c *grant.Commitment) { c.Mode = grant.ModeConnect }, nil),
		codes: []string{"grant"}, rules: []string{"run.file.grant"},
		note: "a connect grant on a live_launched_browser run"},
	{id: "grant-origins-not-covered", edit: withGrant(receipt.ModeLiveLaunched, func(c *grant.Commitment) {
		c.Origins = []string{"https://other.example.com"}
		c.NetworkClass = grant.Public
	}, nil),
		codes: []string{"grant"}, rules: []string{"run.file.grant", "run.cap.grant"},
		note: "the grant lists neither the origin the run reached nor the capability's allowed origin"},
	{id: "grant-wrong-network-class", edit: withGrant(receipt.ModeLiveLaunched, func(c *grant.Commitment) { c.NetworkClass = grant.Public }, nil),
		codes: []string{"grant"}, rules: []string{"run.file.grant"},
		note: "network_class is not the class of the origins (15.4)"},
	{id: "grant-on-simulated", edit: grantOnSimulated,
		codes: []string{"grant"}, rules: []string{"run.file.grant"},
		note: "a simulated run records no grant"},
}

// grantOnSimulated is a launch grant on the simulated base run.
func grantOnSimulated(t *testing.T, b *confBase, rf *runFiles) {
	withGrant(receipt.ModeLiveLaunched, nil, nil)(t, b, rf)
	rf.r.ExecutionMode = receipt.ModeSimulated
}
