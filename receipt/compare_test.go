package receipt_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
)

func receiptOf(t *testing.T, mutate func(*runwrite.Run)) *receipt.Receipt {
	t.Helper()
	return cleanRun(t, testCapability(), mutate).Receipt
}

func hasChange(c *receipt.Comparison, kind receipt.ArtifactKind, name, action string, status receipt.ChangeStatus) bool {
	return slices.ContainsFunc(c.Changes, func(x receipt.ArtifactChange) bool {
		return x.Kind == kind && x.Name == name && x.Action == action && x.Status == status
	})
}

func hasAlign(c *receipt.Comparison, code receipt.AlignCode, action string) bool {
	return slices.ContainsFunc(c.AlignmentFailures, func(x receipt.AlignmentFailure) bool {
		return x.Code == code && x.Action == action
	})
}

func TestCompare(t *testing.T) {
	slower := func(r *runwrite.Run) {
		r.Receipt.StartedAt, r.Receipt.FinishedAt, r.Receipt.DurationMS = "2026-03-04T10:00:00Z", "2026-03-04T10:00:09Z", 9000
		for i := range r.Receipt.Actions {
			r.Receipt.Actions[i].DurationMS = 999
		}
	}
	failLast := func(r *runwrite.Run) {
		rc := r.Receipt
		rc.Actions = rc.Actions[:9]
		rc.Actions[8].Status = receipt.ActionFailed
		rc.Actions[8].Records = nil
		rc.Actions[8].Failure = &receipt.Failure{Category: receipt.CategoryLocatorNotFound, Reason: "locator_not_found"}
		rc.Milestones[3] = receipt.MilestoneRecord{ID: "movements", Visit: 2, Status: "failed"}
		rc.Terminal = receipt.Terminal{State: receipt.TerminalFailed, Failure: rc.Actions[8].Failure, Action: "read-movements"}
		rc.Clean = false
	}
	tests := []struct {
		name    string
		a, b    func(*runwrite.Run)
		opts    []receipt.CompareOption
		verdict receipt.ChangeStatus
		check   func(t *testing.T, c *receipt.Comparison)
	}{
		{name: "timings and run ids ignored", b: slower, verdict: receipt.StatusUnchanged, check: func(t *testing.T, c *receipt.Comparison) {
			if c.Totals.Changed+c.Totals.Unknown != 0 || c.Totals.Steps != 10 || c.Totals.StepsUnchanged != 10 || len(c.Changes) != 0 {
				t.Errorf("totals = %+v", c.Totals)
			}
		}},
		{name: "output changed", b: func(r *runwrite.Run) { r.Outputs.Outputs[2].Value = "regular" }, verdict: receipt.StatusChanged,
			check: func(t *testing.T, c *receipt.Comparison) {
				if !hasChange(c, receipt.ArtifactOutput, "note", "", receipt.StatusChanged) {
					t.Errorf("changes = %+v", c.Changes)
				}
			}},
		{name: "input value changed", b: func(r *runwrite.Run) {
			r.Receipt.Inputs[0].Hash = fileA
		}, verdict: receipt.StatusChanged, check: func(t *testing.T, c *receipt.Comparison) {
			if !hasChange(c, receipt.ArtifactInput, "query", "", receipt.StatusChanged) {
				t.Errorf("changes = %+v", c.Changes)
			}
		}},
		{name: "secret input compares by reference", b: func(r *runwrite.Run) { r.Receipt.Inputs[1].Present = false }, verdict: receipt.StatusChanged,
			check: func(t *testing.T, c *receipt.Comparison) {
				if !hasChange(c, receipt.ArtifactInput, "pin", "", receipt.StatusChanged) {
					t.Errorf("changes = %+v", c.Changes)
				}
			}},
		{name: "input recorded in one run only is unknown", b: func(r *runwrite.Run) { r.Receipt.Inputs = r.Receipt.Inputs[:2] }, verdict: receipt.StatusUnknown,
			check: func(t *testing.T, c *receipt.Comparison) {
				if !hasChange(c, receipt.ArtifactInput, "limit", "", receipt.StatusUnknown) {
					t.Errorf("changes = %+v", c.Changes)
				}
			}},
		{name: "missing step is an alignment failure", b: failLast, verdict: receipt.StatusChanged,
			check: func(t *testing.T, c *receipt.Comparison) {
				if !hasAlign(c, receipt.AlignMissingInB, "next-page") {
					t.Errorf("alignment = %+v", c.AlignmentFailures)
				}
				if !hasChange(c, receipt.ArtifactTerminal, "", "", receipt.StatusChanged) {
					t.Errorf("terminal not changed: %+v", c.Changes)
				}
				// The failed step lacks its record count: unknown, never equal.
				if !hasChange(c, receipt.ArtifactRecords, "", "read-movements", receipt.StatusUnknown) {
					t.Errorf("records not unknown: %+v", c.Changes)
				}
			}},
		{name: "missing step alone is unknown, never unchanged", a: func(r *runwrite.Run) {
			r.Receipt.Actions = append(r.Receipt.Actions[:1:1], r.Receipt.Actions[2:]...) // fill-pin skipped
		}, verdict: receipt.StatusUnknown, check: func(t *testing.T, c *receipt.Comparison) {
			if !hasAlign(c, receipt.AlignMissingInA, "fill-pin") || c.Totals.Changed != 0 {
				t.Errorf("alignment = %+v totals = %+v", c.AlignmentFailures, c.Totals)
			}
		}},
		{name: "changed action kind", b: func(r *runwrite.Run) { r.Receipt.Actions[2].Operation = "press" }, verdict: receipt.StatusUnknown,
			check: func(t *testing.T, c *receipt.Comparison) {
				if !hasAlign(c, receipt.AlignKindChanged, "submit") {
					t.Errorf("alignment = %+v", c.AlignmentFailures)
				}
			}},
		{name: "duplicate step", b: func(r *runwrite.Run) {
			r.Receipt.Actions = append(r.Receipt.Actions, r.Receipt.Actions[0])
		}, verdict: receipt.StatusUnknown, check: func(t *testing.T, c *receipt.Comparison) {
			if !hasAlign(c, receipt.AlignDuplicate, "fill-query") || c.Totals.Steps != 9 {
				t.Errorf("alignment = %+v totals %+v", c.AlignmentFailures, c.Totals)
			}
		}},
		{name: "other capability", b: func(r *runwrite.Run) { r.Receipt.Capability.ID = "other" }, verdict: receipt.StatusChanged,
			check: func(t *testing.T, c *receipt.Comparison) {
				if !hasAlign(c, receipt.AlignCapabilityMismatch, "") {
					t.Errorf("alignment = %+v", c.AlignmentFailures)
				}
			}},
		{name: "missing download evidence is unknown", b: func(r *runwrite.Run) { r.Receipt.Actions[5].Download = nil }, verdict: receipt.StatusUnknown,
			check: func(t *testing.T, c *receipt.Comparison) {
				if !hasChange(c, receipt.ArtifactDownload, "", "download-statement", receipt.StatusUnknown) || c.Steps[5].Status != receipt.StatusUnknown {
					t.Errorf("changes = %+v", c.Changes)
				}
			}},
		{name: "locator fallback changed", b: func(r *runwrite.Run) { r.Receipt.Actions[0].LocatorIndex = intp(0) }, verdict: receipt.StatusChanged,
			check: func(t *testing.T, c *receipt.Comparison) {
				if !hasChange(c, receipt.ArtifactAction, "", "fill-query", receipt.StatusChanged) || c.Steps[0].Status != receipt.StatusChanged {
					t.Errorf("changes = %+v", c.Changes)
				}
			}},
		{name: "browser version differs", b: func(r *runwrite.Run) { r.Receipt.Environment.Browser = "Chrome/157.0.1.2" }, verdict: receipt.StatusChanged},
		{name: "browser version normalized by a rule", b: func(r *runwrite.Run) { r.Receipt.Environment.Browser = "Chrome/157.0.1.2" },
			opts: []receipt.CompareOption{
				receipt.WithRule(receipt.Rule{Kind: receipt.ArtifactEnvironment, Find: "Chrome/157.0.1.2", Replace: "Chrome/X"}),
				receipt.WithRule(receipt.Rule{Kind: receipt.ArtifactEnvironment, Find: "Chrome/156.0.8078.73", Replace: "Chrome/X"}),
			}, verdict: receipt.StatusUnchanged, check: func(t *testing.T, c *receipt.Comparison) {
				if len(c.Policy.Rules) != 2 || c.Policy.Rules[0].Find != "Chrome/156.0.8078.73" {
					t.Errorf("rules not sorted: %+v", c.Policy.Rules)
				}
			}},
		{name: "rule of another kind does not apply", b: func(r *runwrite.Run) { r.Receipt.Environment.Browser = "Chrome/157.0.1.2" },
			opts: []receipt.CompareOption{
				receipt.WithRule(receipt.Rule{Kind: receipt.ArtifactOrigins, Find: "Chrome/157.0.1.2", Replace: "Chrome/156.0.8078.73"}),
			}, verdict: receipt.StatusChanged},
		{name: "normalization beyond the limit is unknown", b: func(r *runwrite.Run) { r.Receipt.Environment.OS = "1111" },
			a: func(r *runwrite.Run) { r.Receipt.Environment.OS = "1111" },
			opts: []receipt.CompareOption{
				receipt.WithRule(receipt.Rule{Kind: receipt.ArtifactEnvironment, Find: "1", Replace: strings.Repeat("2", 256)}),
				receipt.WithRule(receipt.Rule{Kind: receipt.ArtifactEnvironment, Find: "2", Replace: strings.Repeat("3", 256)}),
			}, verdict: receipt.StatusUnknown, check: func(t *testing.T, c *receipt.Comparison) {
				if !slices.ContainsFunc(c.Changes, func(x receipt.ArtifactChange) bool {
					return x.Kind == receipt.ArtifactEnvironment && x.Before.State == receipt.StateOverLimit
				}) {
					t.Errorf("changes = %+v", c.Changes)
				}
			}},
		{name: "max changes keeps totals", b: func(r *runwrite.Run) {
			r.Receipt.Environment.Browser = "x"
			r.Receipt.Origins = []string{"https://other.example"}
			r.Receipt.BlockedRequests = 3
		}, opts: []receipt.CompareOption{receipt.WithMaxChanges(1)}, verdict: receipt.StatusChanged,
			check: func(t *testing.T, c *receipt.Comparison) {
				if c.Totals.Changed != 3 || c.Totals.Retained != 1 || c.Totals.Omitted != 2 || len(c.Changes) != 1 || c.MaxChanges != 1 {
					t.Errorf("totals = %+v changes = %d", c.Totals, len(c.Changes))
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := receiptOf(t, tt.a), receiptOf(t, tt.b)
			c, err := receipt.Compare(a, b, tt.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if c.Verdict != tt.verdict {
				t.Errorf("verdict = %s, want %s (alignment %+v, changes %+v)", c.Verdict, tt.verdict, c.AlignmentFailures, c.Changes)
			}
			tot := c.Totals
			if tot.Changed+tot.Unchanged+tot.Unknown != tot.Artifacts || tot.Retained+tot.Omitted != tot.Changed+tot.Unknown {
				t.Errorf("inconsistent totals %+v", tot)
			}
			if tt.check != nil {
				tt.check(t, c)
			}
			raw, err := c.JSON()
			if err != nil {
				t.Fatal(err)
			}
			var back map[string]any
			if err := json.Unmarshal(raw, &back); err != nil || back["schema"] != receipt.SchemaComparison {
				t.Errorf("JSON: %v %v", err, back["schema"])
			}
			if d, _ := receipt.PolicyDigest(c.Policy); d != c.PolicyDigest {
				t.Errorf("policy digest does not commit to the policy")
			}
		})
	}
}

func TestComparePolicyDigest(t *testing.T) {
	a, b := receiptOf(t, nil), receiptOf(t, nil)
	r1 := receipt.Rule{Kind: receipt.ArtifactEnvironment, Find: "x", Replace: "y"}
	r2 := receipt.Rule{Kind: receipt.ArtifactOrigins, Find: "127.0.0.1:4000", Replace: "127.0.0.1:PORT"}
	c1, err := receipt.Compare(a, b, receipt.WithRule(r1), receipt.WithRule(r2))
	if err != nil {
		t.Fatal(err)
	}
	c2, _ := receipt.Compare(a, b, receipt.WithRule(r2), receipt.WithRule(r1), receipt.WithRule(r1))
	c3, _ := receipt.Compare(a, b)
	if c1.PolicyDigest != c2.PolicyDigest {
		t.Error("rule order or duplicates change the policy digest")
	}
	if c1.PolicyDigest == c3.PolicyDigest {
		t.Error("rules do not change the policy digest")
	}
	want, _ := canonjson.Digest(receipt.Policy{Schema: receipt.SchemaComparisonPolicy, Ignored: receipt.IgnoredMembers, Rules: []receipt.Rule{}})
	if c3.PolicyDigest != want {
		t.Errorf("built-in policy digest = %s, want %s", c3.PolicyDigest, want)
	}
}

func TestCompareErrors(t *testing.T) {
	a := receiptOf(t, nil)
	long := strings.Repeat("x", receipt.MaxRuleLen+1)
	many := make([]receipt.CompareOption, receipt.MaxRules+1)
	for i := range many {
		many[i] = receipt.WithRule(receipt.Rule{Kind: receipt.ArtifactOrigins, Find: strings.Repeat("a", i+1)})
	}
	tests := map[string][]receipt.CompareOption{
		"unknown kind":       {receipt.WithRule(receipt.Rule{Kind: "no_such_kind", Find: "a"})},
		"empty find":         {receipt.WithRule(receipt.Rule{Kind: receipt.ArtifactOrigins})},
		"long find":          {receipt.WithRule(receipt.Rule{Kind: receipt.ArtifactOrigins, Find: long})},
		"long replace":       {receipt.WithRule(receipt.Rule{Kind: receipt.ArtifactOrigins, Find: "a", Replace: long})},
		"invalid utf-8":      {receipt.WithRule(receipt.Rule{Kind: receipt.ArtifactOrigins, Find: "\xff"})},
		"too many rules":     many,
		"negative max":       {receipt.WithMaxChanges(-1)},
		"max beyond ceiling": {receipt.WithMaxChanges(receipt.MaxMaxChanges + 1)},
	}
	for name, opts := range tests {
		if _, err := receipt.Compare(a, a, opts...); !errors.Is(err, receipt.ErrCompare) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if _, err := receipt.Compare(nil, a); !errors.Is(err, receipt.ErrCompare) {
		t.Errorf("nil receipt: %v", err)
	}
}
