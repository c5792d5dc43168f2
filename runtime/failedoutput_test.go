package runtime_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// TestFailedExtractionLeavesOutputUnproduced: a list extraction that
// fails leaves its output unproduced (FORMAT.md 4.2), whatever it had
// stored: the records of a pass found incomplete (records_incomplete,
// decided after the records were kept), of the earlier visits of a
// paginated list whose declared set is still in part at completion, or
// whose later page fails. The model outputs do not hold it, outputs.json
// writes it produced false, and the run verifies.
func TestFailedExtractionLeavesOutputUnproduced(t *testing.T) {
	rc := map[string]string{"aria-rowcount": "5"}
	for _, tt := range []struct {
		name   string
		c      *capability.Capability
		pages  map[string]*runtimetest.Page
		reason string
		status receipt.ActionStatus // of the last action
	}{
		{"records_incomplete in the pass", invoiceCap(100),
			map[string]*runtimetest.Page{"/invoices": setTable(map[string]string{"aria-rowcount": "10"}, 0, nums(3), "")},
			"records_incomplete", receipt.ActionFailed},
		{"records_incomplete at completion", paginatedCap(3), map[string]*runtimetest.Page{
			"/invoices":   setTable(rc, 1, []string{"A", "B"}, "/invoices/2"),
			"/invoices/2": setTable(rc, 3, []string{"C"}, ""),
		}, "records_incomplete", receipt.ActionPassed},
		{"a later page fails", paginatedCap(3), map[string]*runtimetest.Page{
			"/invoices":   invoicePage([]row{{"A", "1", "no", ""}, {"B", "2", "no", ""}}, "/invoices/2"),
			"/invoices/2": invoicePage([]row{{"C", "3", "no", ""}, {" ", "4", "no", ""}}, ""),
		}, "required_field_empty", receipt.ActionFailed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mustValid(t, tt.c)
			res, _ := runInvoices(t, tt.c, tt.pages, nil)
			if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryExtractionFailed ||
				res.Failure.Reason != tt.reason || res.StoppedAt != "read" {
				t.Fatalf("%s", dump(res))
			}
			if a := res.Actions[len(res.Actions)-1]; a.ID != "read" || a.Status != tt.status {
				t.Fatalf("last action %+v", a)
			}
			if v, ok := res.ModelOutputs["invoices"]; ok {
				t.Errorf("the failed extraction's output is a model output: %#v", v)
			}
			b, err := os.ReadFile(filepath.Join(res.RunDir, receipt.FileOutputs))
			if err != nil {
				t.Fatal(err)
			}
			o, err := receipt.LoadOutputs(b)
			if err != nil {
				t.Fatal(err)
			}
			if v := o.Outputs[0]; v.Name != "invoices" || v.Produced || v.Value != nil {
				t.Errorf("outputs.json holds %+v", v)
			}
			if _, err := receipt.VerifyRun(context.Background(), res.RunDir, tt.c); err != nil {
				t.Errorf("VerifyRun: %v", err)
			}
		})
	}
}
