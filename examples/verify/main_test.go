package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// sealed seals the quickstart's reviewed teller capability (state
// authored, so no receipts and no browser are needed) into a new folder.
func sealed(t *testing.T) (dir string, c *capability.Capability) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "quickstart", "teller.capability.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err = capability.ParseBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(t.TempDir(), "teller.bundle")
	if _, err := bundle.Seal(context.Background(), dir, c, nil); err != nil {
		t.Fatal(err)
	}
	return dir, c
}

func TestVerify(t *testing.T) {
	dir, c := sealed(t)
	hash, err := c.ExecutionHash()
	if err != nil {
		t.Fatal(err)
	}
	tamper := map[string]func(t *testing.T, dir string){
		"readme edited": func(t *testing.T, dir string) {
			appendFile(t, filepath.Join(dir, bundle.FileReadme), "\nedited\n")
		},
		"unlisted file": func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
		},
		"capability removed": func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, bundle.FileCapability)); err != nil {
				t.Fatal(err)
			}
		},
	}
	cases := []struct {
		name   string
		args   []string
		tamper string
		code   int
		want   []string // substrings of the output
	}{
		{name: "valid", args: []string{dir}, code: exitValid, want: []string{"verdict     VALID", "capability  teller.member-balances 1.2.1, state authored", "problems:\n  none"}},
		{name: "expected id and hash", args: []string{"-id", c.ID, "-hash", hash, dir}, code: exitValid, want: []string{"VALID"}},
		{name: "other id", args: []string{"-id", "mail.search-messages", dir}, code: exitInvalid, want: []string{"capability", "INVALID"}},
		{name: "json", args: []string{"-json", dir}, code: exitValid, want: []string{`"ok": true`, `"schema": "browser-bundle-verification/v1"`}},
		{name: "readme edited", args: []string{dir}, tamper: "readme edited", code: exitInvalid, want: []string{"mismatched   README.md", "INVALID"}},
		{name: "unlisted file", args: []string{dir}, tamper: "unlisted file", code: exitInvalid, want: []string{"unlisted     notes.txt"}},
		{name: "capability removed", args: []string{dir}, tamper: "capability removed", code: exitInvalid, want: []string{"missing      capability.json"}},
		{name: "no such folder", args: []string{filepath.Join(t.TempDir(), "none")}, code: exitInvalid, want: []string{"INVALID"}},
		{name: "no argument", args: nil, code: exitUsage, want: []string{"usage: verify"}},
		{name: "two arguments", args: []string{dir, dir}, code: exitUsage},
		{name: "unknown flag", args: []string{"-frobnicate", dir}, code: exitUsage},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if tc.tamper != "" {
				d, _ := sealed(t)
				tamper[tc.tamper](t, d)
				args = []string{d}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var out bytes.Buffer
			err := run(ctx, args, &out)
			if got := exitCode(err); got != tc.code {
				t.Fatalf("exit status %d (%v), want %d\n%s", got, err, tc.code, out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, out.String())
				}
			}
			if tc.name == "json" {
				var v map[string]any
				if err := json.Unmarshal(out.Bytes(), &v); err != nil || len(v["valid"].([]any)) != 2 {
					t.Errorf("JSON report %v: %s", err, out.String())
				}
			}
		})
	}
}

func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}
