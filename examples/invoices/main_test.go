package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
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

func TestInvoices(t *testing.T) {
	exampletest.RequireBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	out := t.TempDir()
	var stdout bytes.Buffer
	start := time.Now()
	err := run(ctx, []string{"-out", out}, &stdout)
	t.Logf("run took %s; output:\n%s", time.Since(start).Round(time.Millisecond), stdout.String())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"stopped at confirm-issue (no_approver), invoices issued by the site: 0",
		"invoices issued by the site: 1\n  approval proof: requester clerk@example, approver supervisor@example, self-approved false",
		"invoices issued by the site: 2\n  approval proof: requester clerk@example, approver clerk@example, self-approved true",
		"milestones: read_page next_page read_page next_page read_page export issue",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}

	// An independent check of the evidence: three receipts, each with the
	// download proof of the CSV the site serves.
	site, err := testsite.StartInvoicing()
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(site.ExportCSV())
	site.Close()
	wantCSV := "sha256:" + hex.EncodeToString(sum[:])
	paths, _ := filepath.Glob(filepath.Join(out, "*", receipt.FileReceipt))
	if len(paths) != 3 {
		t.Fatalf("receipts = %v, want 3", paths)
	}
	terminals := map[receipt.TerminalState]int{}
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r, err := receipt.LoadReceipt(raw)
		if err != nil {
			t.Fatal(err)
		}
		terminals[r.Terminal.State]++
		proofs := 0
		for _, a := range r.Actions {
			if a.Download != nil {
				proofs++
				if a.Download.SHA256 != wantCSV {
					t.Errorf("%s: download %s, want %s", p, a.Download.SHA256, wantCSV)
				}
			}
		}
		if proofs != 1 {
			t.Errorf("%s: %d download proofs", p, proofs)
		}
	}
	if terminals[receipt.TerminalStoppedAtGate] != 1 || terminals[receipt.TerminalCompleted] != 2 {
		t.Errorf("terminals = %v", terminals)
	}
}

// TestNoBrowser: without a browser the program says what to install and
// leaves nothing behind.
func TestNoBrowser(t *testing.T) { exampletest.CheckNoBrowser(t, run) }

func TestInvoicesUsage(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"extra"}, &out); !errors.Is(err, errUsage) {
		t.Errorf("run = %v, want a usage error", err)
	}
}
