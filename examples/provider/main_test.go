package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/examples/internal/exampletest"
)

func TestMain(m *testing.M) { exampletest.Main(m) }

func TestProvider(t *testing.T) {
	exampletest.RequireBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout bytes.Buffer
	err := run(ctx, []string{"-out", filepath.Join(t.TempDir(), "out")}, &stdout)
	t.Logf("output:\n%s", stdout.String())
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	for _, want := range []string{
		"stop_reason=stopped_at_gate final_action_clicked=false publications=0",
		"decision      Approve or reject: Publish the post on the synthetic post composer",
		"stop_reason=completed final_action_clicked=true publications=1",
		"5. replay       refused: idempotency_key_replayed",
		"after restart refused: idempotency_key_replayed",
		"\nok\n",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

func TestNoBrowser(t *testing.T) { exampletest.CheckNoBrowser(t, run) }
