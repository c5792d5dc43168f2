package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/examples/internal/exampletest"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/receipt"
)

func TestMain(m *testing.M) { exampletest.Main(m) }

func TestMailSearch(t *testing.T) {
	exampletest.RequireBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	out := t.TempDir()
	const query = "fattura"
	var stdout bytes.Buffer
	start := time.Now()
	err := run(ctx, []string{"-query", query, "-out", out}, &stdout)
	t.Logf("run took %s; output:\n%s", time.Since(start).Round(time.Millisecond), stdout.String())
	if err != nil {
		t.Fatal(err)
	}
	want := testsite.SearchMail(query)
	if len(want) == 0 {
		t.Fatal("the seed data has no match for the query")
	}
	if !strings.Contains(stdout.String(), fmt.Sprintf("%d messages (model-visible)", len(want))) {
		t.Errorf("output does not report %d messages", len(want))
	}
	for _, m := range want {
		line := fmt.Sprintf("    %s  %-18s %s\n", m.Date, m.Sender, m.Subject)
		if !strings.Contains(stdout.String(), line) {
			t.Errorf("output lacks the record %q", line)
		}
	}
	for _, s := range []string{"=> failed/ui_assertion_failed at submit-query", "submit-query     failed  postcondition failed"} {
		if !strings.Contains(stdout.String(), s) {
			t.Errorf("output lacks %q", s)
		}
	}

	// Both runs left committed evidence: one completed, one failed.
	locks, _ := filepath.Glob(filepath.Join(out, "*", receipt.FileLock))
	if len(locks) != 2 {
		t.Fatalf("run locks = %v, want 2", locks)
	}
	states := map[receipt.TerminalState]int{}
	for _, l := range locks {
		raw, err := os.ReadFile(filepath.Join(filepath.Dir(l), receipt.FileReceipt))
		if err != nil {
			t.Fatal(err)
		}
		r, err := receipt.LoadReceipt(raw)
		if err != nil {
			t.Fatal(err)
		}
		states[r.Terminal.State]++
		if r.Terminal.State == receipt.TerminalFailed && (r.Terminal.Failure == nil || r.Terminal.Failure.Category != receipt.CategoryUIAssertionFailed) {
			t.Errorf("failed run: %+v", r.Terminal)
		}
	}
	if states[receipt.TerminalCompleted] != 1 || states[receipt.TerminalFailed] != 1 {
		t.Errorf("terminal states = %v", states)
	}
}

// TestNoBrowser: without a browser the program says what to install and
// leaves nothing behind.
func TestNoBrowser(t *testing.T) { exampletest.CheckNoBrowser(t, run) }

func TestMailSearchUsage(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-nope"}, &out); !errors.Is(err, errUsage) {
		t.Errorf("run = %v, want a usage error", err)
	}
}
