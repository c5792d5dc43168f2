package capability

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// expectation is one entry of testdata/invalid/expected.json.
type expectation struct {
	Stage string `json:"stage"`
	Code  Code   `json:"code"`
	Base  string `json:"base"`
	Note  string `json:"note"`
}

const invalidDir = "testdata/invalid"

// generateCorpus renders every corpus case.
func generateCorpus(t *testing.T) (files map[string][]byte, expected map[string]expectation) {
	t.Helper()
	files = map[string][]byte{}
	expected = map[string]expectation{}
	for _, cc := range corpusCases {
		raw := readValid(t, cc.base)
		doc := string(raw)
		if cc.edit != nil {
			c, err := ParseBytes(raw)
			if err != nil {
				t.Fatal(err)
			}
			cc.edit(c)
			b, err := c.Marshal()
			if err != nil {
				t.Fatalf("%s: %v", cc.name, err)
			}
			doc = string(b)
		}
		if cc.raw != nil {
			doc = cc.raw(doc)
		}
		name := cc.name + ".json"
		if _, dup := files[name]; dup {
			t.Fatalf("duplicate corpus case %s", name)
		}
		stage := cc.stage
		if stage == "" {
			stage = stageValidate
		}
		files[name] = []byte(doc)
		expected[name] = expectation{Stage: stage, Code: cc.code, Base: validFiles[cc.base], Note: cc.note}
	}
	return files, expected
}

// TestInvalidCorpusUpToDate regenerates the invalid corpus from
// corpusCases and compares it with testdata/invalid; with -update it
// rewrites the directory.
func TestInvalidCorpusUpToDate(t *testing.T) {
	files, expected := generateCorpus(t)
	exp, err := json.MarshalIndent(expected, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	exp = append(exp, '\n')
	if *update {
		old, _ := filepath.Glob(filepath.Join(invalidDir, "*.json"))
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				t.Fatal(err)
			}
		}
		for name, b := range files {
			if err := os.WriteFile(filepath.Join(invalidDir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(invalidDir, "expected.json"), exp, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for name, b := range files {
		got, err := os.ReadFile(filepath.Join(invalidDir, name))
		if err != nil || !bytes.Equal(got, b) {
			t.Errorf("%s is stale or missing; run go test ./capability -run TestInvalidCorpusUpToDate -update", name)
		}
	}
	got, err := os.ReadFile(filepath.Join(invalidDir, "expected.json"))
	if err != nil || !bytes.Equal(got, exp) {
		t.Errorf("expected.json is stale; run go test ./capability -run TestInvalidCorpusUpToDate -update")
	}
}

func readExpected(t testing.TB) map[string]expectation {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(invalidDir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp map[string]expectation
	if err := json.Unmarshal(raw, &exp); err != nil {
		t.Fatal(err)
	}
	return exp
}

// TestInvalidCorpus asserts that every file under testdata/invalid breaks
// exactly the one rule expected.json names: Parse fails with that code, or
// Validate (or ValidateForExecution) reports exactly that code.
func TestInvalidCorpus(t *testing.T) {
	exp := readExpected(t)
	if len(exp) < 60 {
		t.Errorf("the invalid corpus has %d cases, want at least 60", len(exp))
	}
	onDisk, _ := filepath.Glob(filepath.Join(invalidDir, "*.json"))
	for _, f := range onDisk {
		name := filepath.Base(f)
		if _, ok := exp[name]; !ok && name != "expected.json" {
			t.Errorf("%s has no entry in expected.json", name)
		}
	}
	names := make([]string, 0, len(exp))
	for n := range exp {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		e := exp[name]
		t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(invalidDir, name))
			if err != nil {
				t.Fatal(err)
			}
			c, err := ParseBytes(raw)
			if e.Stage == stageParse {
				var pe *ParseError
				if !errors.As(err, &pe) || !errors.Is(err, ErrParse) {
					t.Fatalf("Parse error = %v, want a *ParseError", err)
				}
				if pe.Code != e.Code {
					t.Fatalf("Parse code = %q, want %q (%v)", pe.Code, e.Code, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			errs := c.Validate()
			if e.Stage == stageExecution {
				if len(errs) != 0 {
					t.Fatalf("Validate = %v, want clean (the case breaks only an execution rule)", errs)
				}
				errs = c.ValidateForExecution()
			}
			if got := codeSet(errs); !slices.Equal(got, []Code{e.Code}) {
				t.Fatalf("codes = %v, want exactly [%s]\n%v", got, e.Code, errs)
			}
			for _, x := range errs {
				if x.Path == "" && e.Stage == stageValidate && e.Code != CodeRequired {
					t.Errorf("problem without path: %v", x)
				}
				if x.Code == CodeCredentialLiteral && x.BadValue != "" {
					t.Errorf("credential echoed: %v", x)
				}
			}
		})
	}
}

// TestValidCorpus asserts that every valid file parses, validates, is
// executable and is stored in Marshal's layout.
func TestValidCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "valid", "*.json"))
	if len(files) < 3 {
		t.Fatalf("want at least three valid capabilities, found %d", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			c, err := ParseBytes(raw)
			if err != nil {
				t.Fatal(err)
			}
			if errs := c.ValidateForExecution(); len(errs) != 0 {
				t.Fatalf("ValidateForExecution: %v", errs)
			}
			out, err := c.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, raw) {
				t.Errorf("the file is not in Marshal layout; reformat it with Marshal")
			}
		})
	}
}
