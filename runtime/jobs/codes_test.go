package jobs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// TestErrorTaxonomy (pure policy): every failure category of the
// receipt vocabulary (read from receipt/types.go, so a new one cannot
// go unmapped) maps onto a seed code through classify, and that code is
// the one the package documentation's table gives it; the terminal
// states, the refusals before a run, the runner's own interruptions and
// the driver source's errors map as the table says.
func TestErrorTaxonomy(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "receipt", "types.go"))
	if err != nil {
		t.Fatal(err)
	}
	var cats []receipt.Category
	for _, m := range regexp.MustCompile(`(?m)^\s*Category[A-Za-z]+\s+Category = "([a-z_]+)"`).FindAllSubmatch(src, -1) {
		cats = append(cats, receipt.Category(m[1]))
	}
	if len(cats) < 17 {
		t.Fatalf("found %d categories in receipt/types.go", len(cats))
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	// The documented row of each category: "category a, b, c ... | state | code |".
	documented := map[receipt.Category]Code{}
	for _, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(strings.TrimPrefix(line, "// "), "|")
		if len(cells) != 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "category ") {
			continue
		}
		code := Code(strings.TrimSpace(cells[3]))
		list := strings.TrimPrefix(strings.TrimSpace(cells[1]), "category ")
		list, _, _ = strings.Cut(list, ";")
		list, _, _ = strings.Cut(list, " (")
		for _, c := range strings.Split(list, ",") {
			documented[receipt.Category(strings.TrimSpace(c))] = code
		}
	}
	if len(documented) < len(cats)-1 {
		t.Fatalf("the documentation's table names %d categories: %v", len(documented), documented)
	}
	for _, c := range cats {
		res := &runtime.Result{State: receipt.TerminalFailed, Failure: &runtime.Failure{Category: c}}
		o := classify(res, nil, "")
		want, ok := categoryCodes[c]
		if !ok {
			t.Errorf("category %s has no code", c)
			continue
		}
		if o.code != want || (o.state == StateCancelled) != (want == CodeCancelled) {
			t.Errorf("category %s: %s %s, want code %s", c, o.state, o.code, want)
		}
		if c == receipt.CategoryCanceled {
			continue // the table's cancelled row names Cancel, not the category
		}
		if documented[c] != want {
			t.Errorf("category %s: the package documentation says %q, the code %s", c, documented[c], want)
		}
	}

	for _, tc := range []struct {
		name  string
		res   *runtime.Result
		err   error
		stop  Code
		state State
		code  Code
	}{
		{"completed", &runtime.Result{State: runtime.StateCompleted}, nil, "", StatePassed, ""},
		{"business outcome", &runtime.Result{State: receipt.TerminalBusinessOutcome, Outcome: "member_not_found"}, nil, "", StatePassed, ""},
		{"failed without a failure", &runtime.Result{State: receipt.TerminalFailed}, nil, "", StateFailed, CodeBrowserCrashed},
		{"stopped at gate", &runtime.Result{State: receipt.TerminalStoppedAtGate}, nil, "", StateFailed, CodeUIAssertionFailed},
		{"unknown modal", &runtime.Result{State: receipt.TerminalBlockedByUnknownModal}, nil, "", StateFailed, CodeUIAssertionFailed},
		{"native gap", &runtime.Result{State: receipt.TerminalNativeGap}, nil, "", StateFailed, CodeUIAssertionFailed},
		{"recovery requested", &runtime.Result{State: receipt.TerminalRecoveryRequested}, nil, "", StateFailed, CodeUIAssertionFailed},
		{"driver busy", nil, fmt.Errorf("x: %w", runtime.ErrDriverBusy), "", StateFailed, CodeBrowserUnavailable},
		{"run folder refused", nil, fmt.Errorf("x: %w", runtime.ErrRunDir), "", StateFailed, CodeArtifactCapacity},
		{"evidence not written", &runtime.Result{State: runtime.StateCompleted}, fmt.Errorf("x: %w", runtime.ErrEvidence), "", StateFailed, CodeArtifactCapacity},
		{"other error without a result", nil, errors.New("boom"), "", StateFailed, CodeBrowserCrashed},
		{"cancel wins over a pass", &runtime.Result{State: runtime.StateCompleted}, nil, CodeCancelled, StateCancelled, CodeCancelled},
		{"budget", &runtime.Result{State: receipt.TerminalFailed}, nil, CodeRunTimeout, StateFailed, CodeRunTimeout},
		{"close", nil, errors.New("canceled"), CodeServiceStopped, StateInterrupted, CodeServiceStopped},
	} {
		if o := classify(tc.res, tc.err, tc.stop); o.state != tc.state || o.code != tc.code {
			t.Errorf("%s: %s %s, want %s %s", tc.name, o.state, o.code, tc.state, tc.code)
		}
	}
	for _, tc := range []struct {
		err  error
		code Code
	}{
		{fmt.Errorf("launch: %w", runtime.ErrBrowserLaunchFailed), CodeBrowserLaunchFailed},
		{fmt.Errorf("gone: %w", runtime.ErrBrowserCrashed), CodeBrowserCrashed},
		{fmt.Errorf("down: %w", runtime.ErrBrowserUnavailable), CodeBrowserUnavailable},
		{errors.New("anything else"), CodeBrowserUnavailable},
	} {
		if got := sourceCode(tc.err); got != tc.code {
			t.Errorf("source error %v: %s, want %s", tc.err, got, tc.code)
		}
	}
	for _, tc := range []struct {
		err  error
		code Code
	}{
		{fmt.Errorf("x: %w", ErrQueueFull), CodeQueueFull},
		{fmt.Errorf("x: %w", ErrArtifactCapacity), CodeArtifactCapacity},
		{ErrStopped, CodeServiceStopped},
		{fmt.Errorf("x: %w", ErrBrowserUnavailable), CodeBrowserUnavailable},
		{fmt.Errorf("%w: %w", ErrInvalidRequest, ErrTooLarge), ""},
	} {
		if got := CodeOf(tc.err); got != tc.code {
			t.Errorf("CodeOf(%v) = %q, want %q", tc.err, got, tc.code)
		}
	}
}
