package bundle_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/internal/canonjson"
)

// benchSizes are the sizes of the large listed file.
var benchSizes = []int64{1 << 20, 16 << 20, 64 << 20}

// payload returns n bytes of non-repeating text-free content.
func payload(n int64) []byte {
	b := make([]byte, n)
	var x uint64 = 0x9e3779b97f4a7c15
	for i := range b {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b[i] = byte(x)
	}
	b[0] = 'v' // no magic number
	return b
}

// BenchmarkSHA256Raw is the ceiling: SHA-256 over bytes already in memory.
func BenchmarkSHA256Raw(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("%dMiB", size>>20), func(b *testing.B) {
			buf := payload(1 << 20)
			h := sha256.New()
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				h.Reset()
				for n := int64(0); n < size; n += int64(len(buf)) {
					h.Write(buf)
				}
				h.Sum(nil)
			}
		})
	}
}

// BenchmarkSHA256File is SHA-256 of the same file read with io.Copy from
// the page cache: the plain-Go baseline for Verify's streaming path.
func BenchmarkSHA256File(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("%dMiB", size>>20), func(b *testing.B) {
			p := filepath.Join(b.TempDir(), "payload.bin")
			if err := os.WriteFile(p, payload(size), 0o600); err != nil {
				b.Fatal(err)
			}
			buf := make([]byte, 1<<20)
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				f, err := os.Open(p)
				if err != nil {
					b.Fatal(err)
				}
				h := sha256.New()
				if _, err := io.CopyBuffer(h, f, buf); err != nil {
					b.Fatal(err)
				}
				f.Close()
				h.Sum(nil)
			}
		})
	}
}

// BenchmarkVerifyLarge verifies a sealed bundle beside which a large file
// was added and listed with its true size and hash. Every listed file is
// streamed through SHA-256 with a fixed buffer whatever its size, so this
// measures Verify's integrity path on large input; the file is then
// rejected as outside the layout, and the benchmark checks that this is
// the only problem. B/op stays constant across sizes.
func BenchmarkVerifyLarge(b *testing.B) {
	for _, size := range benchSizes {
		b.Run(fmt.Sprintf("%dMiB", size>>20), func(b *testing.B) {
			f := discoveredFixture(b)
			data := payload(size)
			addListed(b, f.dir, "payload.bin", data)
			ctx := context.Background()
			rep, err := bundle.Verify(ctx, f.dir)
			if !errors.Is(err, bundle.ErrForbidden) || len(rep.Forbidden) != 1 || len(rep.Valid) != 2 || len(rep.Mismatched) != 0 {
				b.Fatalf("unexpected report: %v", err)
			}
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bundle.Verify(ctx, f.dir); !errors.Is(err, bundle.ErrForbidden) {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkVerifySealed verifies a complete validated_local bundle (lock,
// capability parse and validation, two receipts and the claim): the cost
// of a real verification.
func BenchmarkVerifySealed(b *testing.B) {
	f := validatedFixture(b)
	var total int64
	for _, lf := range f.lock.Files {
		total += lf.Size
	}
	ctx := context.Background()
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bundle.Verify(ctx, f.dir); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyReadme verifies a valid bundle whose README.md was grown
// to the size given with operator notes (prose): the content scan
// (secrets, HTML, session URLs) of inspected files.
func BenchmarkVerifyReadme(b *testing.B) {
	for _, size := range []int64{64 << 10, bundle.MaxReadmeBytes} {
		b.Run(fmt.Sprintf("%dKiB", size>>10), func(b *testing.B) {
			f := discoveredFixture(b)
			readme := readFile(b, f.dir, bundle.FileReadme)
			note := "The operator signs in personally, opens the member search and reads the balance shown on the member page.\n"
			var sb strings.Builder
			sb.Write(readme)
			for int64(sb.Len()+len(note)) <= size {
				sb.WriteString(note)
			}
			writeFile(b, f.dir, bundle.FileReadme, []byte(sb.String()))
			relock(b, f.dir)
			ctx := context.Background()
			if _, err := bundle.Verify(ctx, f.dir); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(sb.Len()))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := bundle.Verify(ctx, f.dir); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

var _ = canonjson.SumBytes
