package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/examples/internal/exampletest"
	"github.com/vera-run/vera/receipt"
)

func TestMain(m *testing.M) { exampletest.Main(m) }

func TestRecovery(t *testing.T) {
	exampletest.RequireBrowser(t)
	for _, propose := range []string{"role", "test_id"} {
		t.Run(propose, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			out := t.TempDir()
			var stdout bytes.Buffer
			start := time.Now()
			err := run(ctx, []string{"-propose", propose, "-out", out}, &stdout)
			t.Logf("run took %s; output:\n%s", time.Since(start).Round(time.Millisecond), stdout.String())
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{
				"pass 1 => recovery_requested",
				"target      action submit-search in milestone search",
				"recovered=true clean=false locator_changes_during_run=true proposal=recovered",
				"the capability is unchanged",
			} {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("output lacks %q", want)
				}
			}

			// Two runs: the first without proposals (v1 lock), the second
			// with recovery.proposals.json under a v2 lock.
			dirs, _ := filepath.Glob(filepath.Join(out, "*", receipt.FileLock))
			if len(dirs) != 2 {
				t.Fatalf("run locks = %v", dirs)
			}
			withProposals := 0
			for _, l := range dirs {
				files, err := receipt.Load(context.Background(), filepath.Dir(l))
				if err != nil {
					t.Fatal(err)
				}
				r := files.Receipt
				switch r.Terminal.State {
				case receipt.TerminalRecoveryRequested:
					if files.Proposals != nil || r.Recovered || r.Clean {
						t.Errorf("pass 1 receipt: %+v", r)
					}
				case receipt.TerminalCompleted:
					if files.Proposals == nil || !r.Recovered || r.Clean || !r.LocatorChangesDuringRun {
						t.Errorf("pass 2 receipt: recovered %v clean %v changes %v", r.Recovered, r.Clean, r.LocatorChangesDuringRun)
					}
				default:
					t.Errorf("unexpected terminal %+v", r.Terminal)
				}
				if _, err := os.Stat(filepath.Join(filepath.Dir(l), receipt.FileProposals)); err == nil {
					withProposals++
				}
			}
			if withProposals != 1 {
				t.Errorf("%d runs wrote %s, want 1", withProposals, receipt.FileProposals)
			}
		})
	}
}

// TestNoBrowser: without a browser the program says what to install and
// leaves nothing behind.
func TestNoBrowser(t *testing.T) { exampletest.CheckNoBrowser(t, run) }

func TestRecoveryUsage(t *testing.T) {
	for _, args := range [][]string{{"-propose", "css"}, {"extra"}} {
		var out bytes.Buffer
		if err := run(context.Background(), args, &out); !errors.Is(err, errUsage) {
			t.Errorf("run(%q) = %v, want a usage error", args, err)
		}
	}
}
