package provider

import (
	"errors"
	"testing"
)

// TestSmokesFailWithoutTheirRule switches each smoke's rule off and shows
// the smoke then fails: the receipt (or request) it must reject is
// accepted, or at least no longer rejected for the smoke's reason. It
// proves the smokes test the rules, not themselves. Not parallel: it sets
// disabledRules.
func TestSmokesFailWithoutTheirRule(t *testing.T) {
	byName := map[string]badCase{}
	for _, tc := range badReceipts() {
		byName[tc.name] = tc
	}
	smokes := []struct {
		rule     Code
		cases    []string
		accepted bool // the receipt then passes outright
	}{
		// At the top level the closed member set still refuses the member
		// (as unknown_member); inside the open facts nothing else would.
		{CodeWriteback, []string{"complete_todo member", "create_user_gate member"}, false},
		{CodeWriteback, []string{"command value", "nested kernel writeback", "camelCase closeGate fact"}, true},
		{CodeScreenshot, []string{"png base64 in a compact fact", "data URL", "screenshot nested in an array"}, false},
		{CodeCookie, []string{"cookies member", "set-cookie value"}, false},
		{CodeCredential, []string{"password member", "api key in a compact fact"}, false},
		{CodeSessionToken, []string{"bearer token", "session_token member", "jwt as session reference"}, false},
		{CodeGateStale, []string{"stale revision"}, true},
		{CodeReplayed, []string{"replayed key"}, true},
		{CodeIdentityGoal, []string{"goal mismatch"}, true},
		{CodeIdentityTodo, []string{"todo mismatch"}, true},
		{CodeIdentityProvider, []string{"provider mismatch"}, true},
		{CodeIdentityUnit, []string{"action unit mismatch"}, true},
		{CodeModalEffect, []string{"unknown modal with a state-changing action"}, true},
	}
	defer func() { disabledRules = nil }()
	for _, s := range smokes {
		for _, name := range s.cases {
			tc, ok := byName[name]
			if !ok {
				t.Fatalf("no bad receipt %q", name)
			}
			t.Run(string(s.rule)+"/"+name, func(t *testing.T) {
				disabledRules = map[Code]bool{s.rule: true}
				defer func() { disabledRules = nil }()
				rep, err := tc.judge(t)
				if errors.Is(err, s.rule) {
					t.Fatalf("still rejected for %s with the rule off", s.rule)
				}
				if s.accepted && (err != nil || !rep.Accepted) {
					t.Fatalf("with %s off the receipt should pass wrongly; got %v", s.rule, err)
				}
			})
		}
	}
	// The request smoke: an ungated external_write request.
	t.Run("gate_required", func(t *testing.T) {
		disabledRules = map[Code]bool{CodeGateRequired: true}
		defer func() { disabledRules = nil }()
		c := composeCap(t, placeholderOrigin)
		r := publishRequest(t, c, 5)
		r.GateBinding = nil
		if err := r.Validate(); err != nil {
			t.Fatalf("with gate_required off the ungated request should pass wrongly; got %v", err)
		}
	})
}
