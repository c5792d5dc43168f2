package canonjson

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/gowebpki/jcs"
)

// Run with:
//
//	go test -run '^$' -bench . -benchmem ./internal/canonjson
//
// Sub-benchmarks named canonjson and gowebpki run the same input side by
// side, so the throughput ratio can be read off directly.

func fakeHash(s string) string {
	h := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(h[:])
}

// receiptStep has its fields in declaration (not sorted) order, as a
// struct-written document would.
type receiptStep struct {
	ID        string         `json:"id"`
	Milestone string         `json:"milestone"`
	Kind      string         `json:"kind"`
	Status    string         `json:"status"`
	Effect    string         `json:"effect"`
	StartedAt string         `json:"started_at"`
	Timings   receiptTimings `json:"timings"`
	Locator   receiptLocator `json:"locator"`
	Hashes    receiptHashes  `json:"hashes"`
	Output    *receiptOutput `json:"output,omitempty"`
	Attempts  []receiptTry   `json:"attempts"`
	Notes     string         `json:"notes"`
}

type receiptTimings struct {
	QueuedMs  int     `json:"queued_ms"`
	ElapsedMs int     `json:"elapsed_ms"`
	WaitMs    float64 `json:"wait_ms"`
	Ratio     float64 `json:"ratio"`
}

type receiptLocator struct {
	Strategy  string   `json:"strategy"`
	Role      string   `json:"role"`
	Name      string   `json:"name"`
	Frame     []string `json:"frame"`
	Candidate int      `json:"candidate"`
	Unique    bool     `json:"unique"`
}

type receiptHashes struct {
	Before string `json:"before_dom"`
	After  string `json:"after_dom"`
	Shot   string `json:"screenshot"`
	Input  string `json:"input,omitempty"`
}

type receiptOutput struct {
	Name   string            `json:"name"`
	Type   string            `json:"type"`
	Rows   int               `json:"rows"`
	Digest string            `json:"digest"`
	Fields map[string]string `json:"fields"`
}

type receiptTry struct {
	N      int    `json:"n"`
	Result string `json:"result"`
	Reason string `json:"reason,omitempty"`
}

type receiptDoc struct {
	Schema         string            `json:"schema"`
	RunID          string            `json:"run_id"`
	CapabilityID   string            `json:"capability_id"`
	ExecutionHash  string            `json:"execution_hash"`
	Mode           string            `json:"mode"`
	Environment    map[string]string `json:"environment"`
	Steps          []receiptStep     `json:"steps"`
	Terminal       string            `json:"terminal"`
	OutputsDigest  string            `json:"outputs_digest"`
	PreviousDigest string            `json:"previous_digest"`
}

func buildReceipt(steps int) receiptDoc {
	kinds := []string{"navigate", "click", "fill", "extract", "wait", "download"}
	d := receiptDoc{
		Schema:        "browser-run-receipt/v3",
		RunID:         "run-2024-06-01T10:00:00Z-7f3a",
		CapabilityID:  "acme.members.read_balances",
		ExecutionHash: fakeHash("exec"),
		Mode:          "live_launched_browser",
		Environment: map[string]string{
			"browser": "chromium/126.0.6478.126", "os": "linux/amd64",
			"vera": "v0.1.0", "viewport": "1280x800", "locale": "fr-FR",
		},
		Terminal:       "completed",
		OutputsDigest:  fakeHash("outputs"),
		PreviousDigest: fakeHash("prev"),
	}
	for i := range steps {
		id := "step-" + strconv.Itoa(i)
		s := receiptStep{
			ID:        id,
			Milestone: "m" + strconv.Itoa(i/10),
			Kind:      kinds[i%len(kinds)],
			Status:    "passed",
			Effect:    "read_only",
			StartedAt: fmt.Sprintf("2024-06-01T10:%02d:%02d.%03dZ", i/60%60, i%60, i%1000),
			Timings:   receiptTimings{QueuedMs: i % 7, ElapsedMs: 100 + i*3%977, WaitMs: float64(i%13) * 12.5, Ratio: float64(i) / 7},
			Locator: receiptLocator{
				Strategy: "role", Role: "button", Name: "Télécharger le relevé n°" + strconv.Itoa(i),
				Frame: []string{"#main", "iframe[name=\"content\"]"}, Candidate: i % 3, Unique: true,
			},
			Hashes:   receiptHashes{Before: fakeHash(id + "b"), After: fakeHash(id + "a"), Shot: fakeHash(id + "s")},
			Attempts: []receiptTry{{N: 1, Result: "ok"}},
			Notes:    "line one\nline \"two\" <b>&</b>",
		}
		if i%4 == 0 {
			s.Hashes.Input = fakeHash(id + "i")
		}
		if i%5 == 0 {
			s.Output = &receiptOutput{
				Name: "balances", Type: "record_set", Rows: i % 50, Digest: fakeHash(id + "o"),
				Fields: map[string]string{"account": "text", "amount": "decimal", "currency": "text"},
			}
			s.Attempts = append(s.Attempts, receiptTry{N: 2, Result: "retry", Reason: "stale_element"})
		}
		d.Steps = append(d.Steps, s)
	}
	return d
}

// receiptInputs returns the 1,000-step receipt as JSON text twice: written
// from structs (members in declaration order, indented) and re-encoded
// through map[string]any (members already sorted, compact).
func receiptInputs(b *testing.B) (unsorted, sorted []byte) {
	doc := buildReceipt(1000)
	unsorted, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		b.Fatal(err)
	}
	var m any
	if err := json.Unmarshal(unsorted, &m); err != nil {
		b.Fatal(err)
	}
	if sorted, err = json.Marshal(m); err != nil {
		b.Fatal(err)
	}
	return unsorted, sorted
}

func BenchmarkReceipt1000(b *testing.B) {
	unsorted, sorted := receiptInputs(b)
	// Both implementations must agree before their speed is compared.
	for _, in := range [][]byte{unsorted, sorted} {
		ours, err := Transform(in)
		if err != nil {
			b.Fatal(err)
		}
		theirs, err := jcs.Transform(in)
		if err != nil {
			b.Fatal(err)
		}
		if !bytes.Equal(ours, theirs) {
			b.Fatal("canonjson and gowebpki/jcs disagree on the receipt")
		}
	}
	for _, c := range []struct {
		name string
		in   []byte
	}{{"unsorted", unsorted}, {"sorted", sorted}} {
		b.Run(c.name+"/canonjson", func(b *testing.B) {
			b.SetBytes(int64(len(c.in)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Transform(c.in); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/gowebpki", func(b *testing.B) {
			b.SetBytes(int64(len(c.in)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := jcs.Transform(c.in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func sortedKeys(n int) []byte {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i := range n {
		if i > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, `"k%08d":%d`, i, i)
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

func reversedKeys(n int) []byte {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i := n - 1; i >= 0; i-- {
		fmt.Fprintf(&buf, `"k%08d":%d`, i, i)
		if i > 0 {
			buf.WriteByte(',')
		}
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

func BenchmarkSortedKeys(b *testing.B) {
	for _, c := range []struct {
		name string
		n    int
		jcs  bool
	}{
		{"5000/canonjson", 5000, false},
		{"5000/gowebpki", 5000, true},
		{"50000/canonjson", 50000, false},
		// gowebpki at 50,000 keys takes seconds per op: not run.
	} {
		in := sortedKeys(c.n)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if c.jcs {
					_, err = jcs.Transform(in)
				} else {
					_, err = Transform(in)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	rev := reversedKeys(50000)
	b.Run("50000-reversed/canonjson", func(b *testing.B) {
		b.SetBytes(int64(len(rev)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Transform(rev); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkMarshalStruct(b *testing.B) {
	step := buildReceipt(1)
	doc := buildReceipt(1000)
	for _, c := range []struct {
		name string
		v    any
	}{{"receipt-1-step", step}, {"receipt-1000-steps", doc}} {
		b.Run(c.name, func(b *testing.B) {
			out, err := Marshal(c.v)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(out)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Marshal(c.v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("receipt-1-step/encoding-json-only", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(step); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkDigest(b *testing.B) {
	_, sorted := receiptInputs(b)
	b.SetBytes(int64(len(sorted)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DigestBytes(sorted); err != nil {
			b.Fatal(err)
		}
	}
}
