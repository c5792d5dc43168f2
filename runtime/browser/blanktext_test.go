package browser

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// skeletonCap reads the balance of /skeleton/balance (query: a
// runtime.start_query array) as a text output, required or not.
func skeletonCap(t testing.TB, origin, query string, required bool, timeoutMS int) *capability.Capability {
	t.Helper()
	c := wcCapabilityQuery(t, origin, "skeleton-balance", "/skeleton/balance", query, fmt.Sprintf(`
  "inputs": [],
  "outputs": [{"name": "balance", "kind": "text", "exposure": "model_and_artifact", "required": %v}],
  "milestones": [{
    "id": "account",
    "intent": "Read the account balance",
    "actions": [
      {"id": "read-balance", "operation": "extract", "intent": "Read the balance", "effect": "read_only", "confirmation": "none",
       "locator_candidates": [{"strategy": "test_id", "test_id": "balance"}],
       "output": "balance",
       "extract": {"mode": "text"},
       "postcondition": {"kind": "output_produced", "output": "balance"}}
    ]
  }]`, required))
	c.Runtime.ActionTimeoutMS = timeoutMS
	if errs := c.ValidateForExecution(); len(errs) > 0 {
		t.Fatalf("skeleton capability: %v", errs)
	}
	return c
}

// TestBlankTextFilledLater: a required text output read from a skeleton
// (nothing, or zero-width characters only) that the page fills after a
// fetch is the filled text, never the skeleton's blank.
func TestBlankTextFilledLater(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	for _, tc := range []struct{ name, query string }{
		{"empty", `[{"name": "fill", "value": "700"}]`},
		{"zero-width", `[{"name": "blank", "value": "zw"}, {"name": "fill", "value": "700"}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := skeletonCap(t, s.Stress.Origin(), tc.query, true, 15000)
			res := execute(t, tctx(t, 60*time.Second), d, c, nil)
			wantState(t, res, runtime.StateCompleted, "")
			if got := res.ModelOutputs["balance"]; got != testsite.SkeletonBalance {
				t.Errorf("balance = %q, want %q", got, testsite.SkeletonBalance)
			}
		})
	}
}

// TestBlankTextStaysBlank: a required text output whose element stays
// blank fails extraction_failed / required_field_empty at the extraction
// once the action timeout passed; a text output that is not required is
// produced as "".
func TestBlankTextStaysBlank(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	for _, blank := range []string{"", "zw", "space"} {
		t.Run("required-"+blank, func(t *testing.T) {
			query := ""
			if blank != "" {
				query = `[{"name": "blank", "value": "` + blank + `"}]`
			}
			c := skeletonCap(t, s.Stress.Origin(), query, true, 1500)
			start := time.Now()
			res := execute(t, tctx(t, 60*time.Second), d, c, nil)
			wantState(t, res, runtime.StateFailed, "")
			if res.Failure.Category != receipt.CategoryExtractionFailed || res.Failure.Reason != string(runtime.ReasonRequiredFieldEmpty) || res.StoppedAt != "read-balance" {
				t.Errorf("run ended %s, want extraction_failed/required_field_empty at read-balance", describeResult(res))
			}
			if _, ok := res.ModelOutputs["balance"]; ok {
				t.Error("a blank required text was produced")
			}
			// Promptly, not hanging: one action timeout to wait, plus the
			// start navigation, on a loaded machine.
			if el := time.Since(start); el > 30*time.Second {
				t.Errorf("the blank extraction took %s", el)
			}
		})
		t.Run("optional-"+blank, func(t *testing.T) {
			query := ""
			if blank != "" {
				query = `[{"name": "blank", "value": "` + blank + `"}]`
			}
			c := skeletonCap(t, s.Stress.Origin(), query, false, 1500)
			res := execute(t, tctx(t, 60*time.Second), d, c, nil)
			wantState(t, res, runtime.StateCompleted, "")
			if got, ok := res.ModelOutputs["balance"]; !ok || got != "" {
				t.Errorf("balance = %#v, %v, want \"\"", got, ok)
			}
		})
	}
}

// TestStressBlankText is the stress-tier scenario of the skeleton page
// (it lives here, beside the live cases; .ci/run selects ^TestStress): on
// a saturated CPU a skeleton filled after a timer must still read as the
// filled balance, and one that stays blank must still fail
// required_field_empty, never complete with the skeleton's text.
func TestStressBlankText(t *testing.T) {
	n := stressIterations(t)
	st, err := testsite.StartStress()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	d := stressLaunch(t)
	filled := skeletonCap(t, st.Origin(), `[{"name": "blank", "value": "zw"}, {"name": "fill", "value": "400"}]`, true, 15000)
	blank := skeletonCap(t, st.Origin(), `[{"name": "blank", "value": "zw"}]`, true, 1500)
	yf := &tally{t: t, name: "blank-text-filled"}
	yb := &tally{t: t, name: "blank-text-stays-blank"}
	for i := 0; i < n; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		res, p := stressRun(t, ctx, d, filled, nil)
		cancel()
		p = append(p, wantCompleted(res)...)
		if res != nil && res.ModelOutputs["balance"] != testsite.SkeletonBalance {
			p = append(p, fmt.Sprintf("balance %q, want %q", res.ModelOutputs["balance"], testsite.SkeletonBalance))
		}
		yf.judge(i, res, p)

		ctx, cancel = context.WithTimeout(context.Background(), 2*time.Minute)
		res, p = stressRun(t, ctx, d, blank, nil)
		cancel()
		if res != nil {
			if res.State != runtime.StateFailed || res.Failure == nil || res.Failure.Reason != string(runtime.ReasonRequiredFieldEmpty) {
				p = append(p, "want failed/required_field_empty")
			}
			if _, ok := res.ModelOutputs["balance"]; ok {
				p = append(p, "a blank required text was produced")
			}
		}
		yb.judge(i, res, p)
	}
	yf.done()
	yb.done()
}
