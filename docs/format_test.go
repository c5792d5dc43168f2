package docs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/discovery"
	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/receipt"
)

var update = flag.Bool("update", false, "regenerate the worked examples and digests of FORMAT.md from the real code")

// formatFile is the page under test.
const formatFile = "FORMAT.md"

// An example block of FORMAT.md:
//
//	<!-- example name="NAME" [eol="none"] [form="pretty"] [derive="F(ARG)"] [reject="CODE"] -->
//	```json
//	...
//	```
//
//	- KIND digest: `sha256:...`
//
// The bytes a block stands for are its lines, each followed by LF; with
// eol="none" the last LF is dropped; with form="pretty" they are the RFC
// 8785 canonical form of the block (the block is an indented rendering of
// a canonical file). See "How this page is tested" in FORMAT.md.
type block struct {
	name    string
	attrs   map[string]string
	content []byte
	open    int // line index of the opening fence
	close   int // line index of the closing fence
	digests []digestLine
}

type digestLine struct {
	kind, value string
	line        int
}

var (
	exampleRE = regexp.MustCompile(`^<!-- example ((?:[a-z-]+="[^"]*"\s*)+)-->$`)
	attrRE    = regexp.MustCompile(`([a-z-]+)="([^"]*)"`)
	fenceRE   = regexp.MustCompile("^(```+|~~~+)([a-z]*)$")
	digestRE  = regexp.MustCompile("^- ([a-z-]+) digest: `([^`]*)`")
)

// parseExamples returns the example blocks of the page, in order.
func parseExamples(lines []string) ([]*block, error) {
	var out []*block
	seen := map[string]bool{}
	for i := 0; i < len(lines); i++ {
		m := exampleRE.FindStringSubmatch(lines[i])
		if m == nil {
			if strings.HasPrefix(lines[i], "<!-- example") {
				return nil, fmt.Errorf("line %d: malformed example marker", i+1)
			}
			continue
		}
		b := &block{attrs: map[string]string{}}
		for _, a := range attrRE.FindAllStringSubmatch(m[1], -1) {
			b.attrs[a[1]] = a[2]
		}
		b.name = b.attrs["name"]
		if b.name == "" || seen[b.name] {
			return nil, fmt.Errorf("line %d: example without a unique name", i+1)
		}
		seen[b.name] = true
		if i+1 >= len(lines) {
			return nil, fmt.Errorf("line %d: example %s has no block", i+1, b.name)
		}
		f := fenceRE.FindStringSubmatch(lines[i+1])
		if f == nil {
			return nil, fmt.Errorf("line %d: example %s is not followed by a fenced block", i+2, b.name)
		}
		b.open = i + 1
		b.close = -1
		var buf bytes.Buffer
		for j := i + 2; j < len(lines); j++ {
			if lines[j] == f[1] {
				b.close = j
				break
			}
			buf.WriteString(lines[j])
			buf.WriteByte('\n')
		}
		if b.close < 0 {
			return nil, fmt.Errorf("line %d: example %s is not closed", i+2, b.name)
		}
		b.content = buf.Bytes()
		j := b.close + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		for ; j < len(lines); j++ {
			d := digestRE.FindStringSubmatch(lines[j])
			if d == nil {
				break
			}
			b.digests = append(b.digests, digestLine{kind: d[1], value: d[2], line: j})
		}
		out = append(out, b)
		i = b.close
	}
	return out, nil
}

// raw is the block's bytes before form="pretty" is applied.
func (b *block) raw() []byte {
	c := b.content
	if b.attrs["eol"] == "none" {
		c = bytes.TrimSuffix(c, []byte("\n"))
	}
	return c
}

// bytesOf is what the block stands for.
func (b *block) bytesOf() ([]byte, error) {
	if b.attrs["form"] == "pretty" {
		c, err := canonjson.Transform(b.raw())
		if err != nil {
			return nil, fmt.Errorf("example %s: %w", b.name, err)
		}
		return c, nil
	}
	return b.raw(), nil
}

// computeDigest computes a digest of the given kind over data.
func computeDigest(kind string, data []byte) (string, error) {
	switch kind {
	case "file":
		return canonjson.SumBytes(data), nil
	case "canonical":
		return canonjson.DigestBytes(data)
	case "execution":
		c, err := capability.ParseBytes(data)
		if err != nil {
			return "", err
		}
		return c.ExecutionHash()
	case "input":
		var in struct {
			Capability string `json:"capability"`
			Name       string `json:"name"`
			Value      any    `json:"value"`
		}
		if err := decodeNumbers(data, &in); err != nil {
			return "", err
		}
		return receipt.HashInput(in.Capability, in.Name, in.Value)
	case "download-set":
		var ev []struct {
			Bytes  int64  `json:"bytes"`
			SHA256 string `json:"sha256"`
		}
		if err := decodeNumbers(data, &ev); err != nil {
			return "", err
		}
		files := make([]download.File, len(ev))
		for i, e := range ev {
			files[i] = download.File{Size: e.Bytes, SHA256: e.SHA256}
		}
		return download.SetHash(files)
	case "record":
		return discovery.RecordHashBytes(data)
	}
	return "", fmt.Errorf("unknown digest kind %q", kind)
}

func decodeNumbers(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

var deriveRE = regexp.MustCompile(`^([a-z-]+)\(([^)#]+)(?:#([^)]+))?\)$`)

// derive computes the bytes a derived block must hold.
func derive(spec string, byName map[string]*block) ([]byte, error) {
	m := deriveRE.FindStringSubmatch(spec)
	if m == nil {
		return nil, fmt.Errorf("malformed derive %q", spec)
	}
	src, ok := byName[m[2]]
	if !ok {
		return nil, fmt.Errorf("derive %q: no example %s", spec, m[2])
	}
	data, err := src.bytesOf()
	if err != nil {
		return nil, err
	}
	switch m[1] {
	case "canonical":
		return canonjson.Transform(data)
	case "execution-bytes":
		c, err := capability.ParseBytes(data)
		if err != nil {
			return nil, err
		}
		return c.ExecutionBytes()
	case "contract":
		c, err := capability.ParseBytes(data)
		if err != nil {
			return nil, err
		}
		a, _, _, ok := c.Action(m[3])
		if !ok {
			return nil, fmt.Errorf("derive %q: no action %s", spec, m[3])
		}
		return canonjson.Marshal(a)
	}
	return nil, fmt.Errorf("unknown derive function %q", m[1])
}

// rejectSentinels maps a reject="CODE" attribute to the error the
// canonicalizer must return.
var rejectSentinels = map[string]error{
	"duplicate_key":  canonjson.ErrDuplicateKey,
	"lone_surrogate": canonjson.ErrLoneSurrogate,
	"unsafe_integer": canonjson.ErrUnsafeInteger,
	"non_finite":     canonjson.ErrNonFinite,
	"trailing_data":  canonjson.ErrTrailingData,
	"invalid_utf8":   canonjson.ErrInvalidUTF8,
	"depth":          canonjson.ErrDepth,
	"syntax":         nil, // a *SyntaxError without a sentinel
}

func readFormat(t *testing.T) []string {
	t.Helper()
	raw, err := os.ReadFile(formatFile)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(raw), "\n")
}

func loadExamples(t *testing.T) ([]*block, map[string]*block) {
	t.Helper()
	if *update {
		regenerate(t)
	}
	blocks, err := parseExamples(readFormat(t))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*block{}
	for _, b := range blocks {
		byName[b.name] = b
	}
	return blocks, byName
}

// TestFormatExamples recomputes every digest stated in FORMAT.md from the
// stated input, every derived block from its source, and checks every
// rejected canonicalization input.
func TestFormatExamples(t *testing.T) {
	blocks, byName := loadExamples(t)
	if len(blocks) < 20 {
		t.Fatalf("only %d example blocks found in %s", len(blocks), formatFile)
	}
	for _, b := range blocks {
		data, err := b.bytesOf()
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if code, ok := b.attrs["reject"]; ok {
			sentinel, known := rejectSentinels[code]
			if !known {
				t.Errorf("example %s: unknown reject code %q", b.name, code)
				continue
			}
			_, err := canonjson.Transform(data)
			var se *canonjson.SyntaxError
			switch {
			case err == nil:
				t.Errorf("example %s: canonicalization accepted an input the page says is rejected (%s)", b.name, code)
			case !errors.As(err, &se):
				t.Errorf("example %s: error %v is not a *canonjson.SyntaxError", b.name, err)
			case sentinel == nil && se.Err != nil:
				t.Errorf("example %s: rejected with %v, the page says a plain syntax error", b.name, se.Err)
			case sentinel != nil && !errors.Is(err, sentinel):
				t.Errorf("example %s: rejected with %v, the page says %s", b.name, err, code)
			}
			continue
		}
		if spec, ok := b.attrs["derive"]; ok {
			want, err := derive(spec, byName)
			if err != nil {
				t.Errorf("example %s: %v", b.name, err)
			} else if !bytes.Equal(data, want) {
				t.Errorf("example %s: stale: %s is\n%s\nnot\n%s", b.name, spec, want, data)
			}
		}
		for _, d := range b.digests {
			if !canonjson.ValidDigest(d.value) {
				t.Errorf("example %s: %s digest %q is not sha256: and 64 lowercase hex digits", b.name, d.kind, d.value)
				continue
			}
			got, err := computeDigest(d.kind, data)
			switch {
			case err != nil:
				t.Errorf("example %s: %s digest: %v", b.name, d.kind, err)
			case got != d.value:
				t.Errorf("example %s (line %d): stale %s digest: the page says %s, the code computes %s", b.name, d.line+1, d.kind, d.value, got)
			}
		}
	}
	checkCrossLinks(t, byName)
}

// mustBytes returns the bytes of a named example or fails the test.
func mustBytes(t *testing.T, byName map[string]*block, name string) []byte {
	t.Helper()
	b, ok := byName[name]
	if !ok {
		t.Fatalf("FORMAT.md has no example %q", name)
	}
	data, err := b.bytesOf()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func digestOf(t *testing.T, byName map[string]*block, name, kind string) string {
	t.Helper()
	for _, d := range byName[name].digests {
		if d.kind == kind {
			return d.value
		}
	}
	t.Fatalf("example %s states no %s digest", name, kind)
	return ""
}

func writeFiles(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// checkCrossLinks checks that the worked examples are one consistent
// chain: the run verifies against the capability, the bundle and the
// developer pack verify, and every hash one example names is the digest
// of another.
func checkCrossLinks(t *testing.T, byName map[string]*block) {
	ctx := context.Background()
	capBytes := mustBytes(t, byName, "capability.json")
	c, err := capability.ParseBytes(capBytes)
	if err != nil {
		t.Fatalf("capability.json: %v", err)
	}
	if l := c.Validate(); len(l) > 0 {
		t.Errorf("capability.json does not validate: %v", l)
	}
	execHash, err := c.ExecutionHash()
	if err != nil {
		t.Fatal(err)
	}

	// The run directory verifies against the capability.
	runDir := filepath.Join(t.TempDir(), "run")
	writeFiles(t, runDir, map[string][]byte{
		receipt.FileOutputs: mustBytes(t, byName, "run/outputs.json"),
		receipt.FileReceipt: mustBytes(t, byName, "run/run.receipt.json"),
		receipt.FileLock:    mustBytes(t, byName, "run/run.lock.json"),
	})
	if rep, err := receipt.VerifyRun(context.Background(), runDir, c); err != nil {
		t.Errorf("the worked run does not verify: %v (report %+v)", err, rep)
	}
	rc, err := receipt.LoadReceipt(mustBytes(t, byName, "run/run.receipt.json"))
	if err != nil {
		t.Fatalf("run.receipt.json: %v", err)
	}
	if rc.Capability.ExecutionHash != execHash {
		t.Errorf("the receipt pins execution hash %s, capability.json's is %s", rc.Capability.ExecutionHash, execHash)
	}
	if got := digestOf(t, byName, "run/run.receipt.json", "file"); got != canonjson.SumBytes(mustBytes(t, byName, "run/run.receipt.json")) {
		t.Errorf("receipt file digest %s", got)
	}

	// The input hash example is the receipt's input record.
	inObj := mustBytes(t, byName, "input-hash-object")
	var in struct {
		Capability string `json:"capability"`
		Name       string `json:"name"`
	}
	if err := json.Unmarshal(inObj, &in); err != nil {
		t.Fatal(err)
	}
	if in.Capability != execHash {
		t.Errorf("input-hash-object binds %s, not the capability's execution hash %s", in.Capability, execHash)
	}
	inputHash := digestOf(t, byName, "input-hash-object", "input")
	found := false
	for _, r := range rc.Inputs {
		if r.Name == in.Name {
			found = true
			if r.Hash != inputHash {
				t.Errorf("receipt input %s hash %s, the example computes %s", r.Name, r.Hash, inputHash)
			}
		}
	}
	if !found {
		t.Errorf("the receipt records no input %s", in.Name)
	}

	// The download-set example is the receipt's download evidence.
	setHash := digestOf(t, byName, "download-set", "download-set")
	var ev []map[string]any
	if err := json.Unmarshal(mustBytes(t, byName, "download-set"), &ev); err != nil {
		t.Fatal(err)
	}
	var proofs int
	for _, a := range rc.Actions {
		if a.Download != nil {
			proofs++
		}
	}
	if proofs != len(ev) {
		t.Errorf("download-set lists %d files, the receipt %d download proofs", len(ev), proofs)
	}
	found = false
	for _, o := range rc.Outputs {
		if o.Kind == string(capability.OutputDownloadSet) {
			found = true
			if o.Hash != setHash {
				t.Errorf("receipt output %s hash %s, the download-set example computes %s", o.Name, o.Hash, setHash)
			}
		}
	}
	if !found {
		t.Error("the worked receipt has no download_set output")
	}
	if got, want := digestOf(t, byName, "download-set-empty", "download-set"), canonjson.SumBytes([]byte("[]")); got != want {
		t.Errorf("empty download set digest %s, want %s", got, want)
	}

	// The bundle verifies.
	bundleDir := filepath.Join(t.TempDir(), "bundle")
	writeFiles(t, bundleDir, map[string][]byte{
		bundle.FileCapability: capBytes,
		bundle.FileReadme:     mustBytes(t, byName, "bundle/README.md"),
		bundle.FileLock:       mustBytes(t, byName, "bundle/bundle.lock.json"),
	})
	if rep, err := bundle.Verify(ctx, bundleDir, bundle.WithExpectedExecutionHash(execHash)); err != nil {
		t.Errorf("the worked bundle does not verify: %v", err)
	} else if len(rep.Valid) != 2 {
		t.Errorf("the worked bundle verified %v", rep.Valid)
	}

	// The developer pack verifies and links to the capability.
	packDir := filepath.Join(t.TempDir(), "pack")
	packFiles := map[string][]byte{}
	for _, name := range append(discovery.PackFiles(), discovery.LockFile) {
		packFiles[name] = mustBytes(t, byName, "pack/"+name)
	}
	writeFiles(t, packDir, packFiles)
	prep, err := discovery.VerifyPack(ctx, packDir)
	if err != nil {
		t.Errorf("the worked developer pack does not verify: %v", err)
	} else {
		if got := digestOf(t, byName, "pack/"+discovery.LockFile, "file"); prep.PackHash != got {
			t.Errorf("pack hash %s, the page says %s", prep.PackHash, got)
		}
		if c.Provenance == nil || c.Provenance.DiscoveryHash != prep.Documents.RecordHash {
			t.Errorf("capability.json's discovery_hash is not the pack's record hash %s", prep.Documents.RecordHash)
		}
		if rc.Capability.DiscoveryHash != prep.Documents.RecordHash {
			t.Errorf("the receipt's discovery_hash is not the pack's record hash %s", prep.Documents.RecordHash)
		}
	}

	// The comparison is Compare(A, B) with B the documented mutation of A.
	b, err := mutateForComparison(rc)
	if err != nil {
		t.Fatal(err)
	}
	cmp, err := receipt.Compare(rc, b)
	if err != nil {
		t.Fatal(err)
	}
	cj, err := cmp.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if got := mustBytes(t, byName, "comparison.json"); !bytes.Equal(cj, got) {
		t.Errorf("comparison.json is stale: Compare gives\n%s", cj)
	}
	pol, err := receipt.NormalizationPolicy()
	if err != nil {
		t.Fatal(err)
	}
	pd, err := receipt.PolicyDigest(pol)
	if err != nil {
		t.Fatal(err)
	}
	if got := digestOf(t, byName, "comparison-policy", "canonical"); got != pd || cmp.PolicyDigest != pd {
		t.Errorf("policy digest: page %s, code %s, comparison %s", got, pd, cmp.PolicyDigest)
	}
	pj, _ := canonjson.Marshal(pol)
	if !bytes.Equal(pj, mustBytes(t, byName, "comparison-policy")) {
		t.Errorf("comparison-policy is stale: %s", pj)
	}
	ia, err := canonjson.Marshal(rc.Inputs[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(ia, mustBytes(t, byName, "input-artifact-a")) {
		t.Errorf("input-artifact-a is not the receipt's inputs[0]: %s", ia)
	}
	if len(cmp.Changes) == 0 || cmp.Changes[0].Before.Digest != digestOf(t, byName, "input-artifact-a", "canonical") {
		t.Errorf("input-artifact-a's digest is not the comparison's before digest")
	}
}

// regenerate rewrites the worked examples of FORMAT.md from the real code
// and recomputes every derived block and stated digest.
func regenerate(t *testing.T) {
	t.Helper()
	gen, err := generateExamples(t.TempDir())
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	lines := readFormat(t)
	blocks, err := parseExamples(lines)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*block{}
	for _, b := range blocks {
		byName[b.name] = b
		if g, ok := gen[b.name]; ok {
			b.content = g
			if b.attrs["eol"] == "none" {
				b.content = append(bytes.Clone(g), '\n')
			}
			delete(gen, b.name)
		}
	}
	for name := range gen {
		t.Errorf("FORMAT.md has no example %q to regenerate", name)
	}
	for pass := 0; pass < 2; pass++ {
		for _, b := range blocks {
			spec, ok := b.attrs["derive"]
			if !ok {
				continue
			}
			d, err := derive(spec, byName)
			if err != nil {
				t.Fatalf("example %s: %v", b.name, err)
			}
			switch {
			case b.attrs["form"] == "pretty":
				if b.content, err = pretty(d); err != nil {
					t.Fatal(err)
				}
			default:
				b.content = append(d, '\n')
			}
		}
	}
	replace := map[int][]string{} // line index of an opening fence or digest line -> new lines
	skip := map[int]bool{}
	for _, b := range blocks {
		body := strings.Split(strings.TrimSuffix(string(b.content), "\n"), "\n")
		if len(b.content) == 0 {
			body = nil
		}
		replace[b.open] = append([]string{lines[b.open]}, body...)
		for j := b.open + 1; j < b.close; j++ {
			skip[j] = true
		}
		data, err := b.bytesOf()
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range b.digests {
			v, err := computeDigest(d.kind, data)
			if err != nil {
				t.Fatalf("example %s: %s digest: %v", b.name, d.kind, err)
			}
			rest := digestRE.ReplaceAllString(lines[d.line], "")
			replace[d.line] = []string{fmt.Sprintf("- %s digest: `%s`%s", d.kind, v, rest)}
		}
	}
	var out []string
	for i, l := range lines {
		switch {
		case replace[i] != nil:
			out = append(out, replace[i]...)
		case skip[i]:
		default:
			out = append(out, l)
		}
	}
	if err := os.WriteFile(formatFile, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}
