package download_test

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/vera-run/vera/download"
)

// BenchmarkCompleteToVerified measures the time from the browser completing
// a 1 MB download (the final rename) to Wait returning verified evidence. The
// settle window dominates; the figure is reported as ms-complete-to-verified.
func BenchmarkCompleteToVerified(b *testing.B) {
	data := make([]byte, 1<<20)
	_, _ = rand.Read(data)
	for _, bc := range []struct {
		settle, poll time.Duration
	}{
		{download.DefaultSettle, download.DefaultPollInterval},
		{50 * time.Millisecond, 10 * time.Millisecond},
		{25 * time.Millisecond, 5 * time.Millisecond},
	} {
		b.Run("settle="+bc.settle.String()+"/poll="+bc.poll.String(), func(b *testing.B) {
			base := b.TempDir()
			var total time.Duration
			i := 0
			for b.Loop() {
				dir := filepath.Join(base, strconv.Itoa(i))
				i++
				if err := os.Mkdir(dir, 0o700); err != nil {
					b.Fatal(err)
				}
				w, err := download.Begin(b.Context(), dir, download.WithSettle(bc.settle), download.WithPollInterval(bc.poll))
				if err != nil {
					b.Fatal(err)
				}
				part := filepath.Join(dir, "export.csv.crdownload")
				if err := os.WriteFile(part, data, 0o600); err != nil {
					b.Fatal(err)
				}
				type result struct {
					f   *download.File
					err error
					at  time.Time
				}
				res := make(chan result, 1)
				go func() {
					f, err := w.Wait(b.Context())
					res <- result{f, err, time.Now()}
				}()
				completed := time.Now()
				if err := os.Rename(part, filepath.Join(dir, "export.csv")); err != nil {
					b.Fatal(err)
				}
				r := <-res
				if r.err != nil || r.f.Size != int64(len(data)) {
					b.Fatalf("Wait = %+v, %v", r.f, r.err)
				}
				total += r.at.Sub(completed)
				_ = w.Close()
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(i), "ms-complete-to-verified")
		})
	}
}

// BenchmarkVerifyPath1MB is the floor without a meaningful settle window:
// lstat, open, stream 1 MB through SHA-256, recheck identity.
func BenchmarkVerifyPath1MB(b *testing.B) {
	data := make([]byte, 1<<20)
	_, _ = rand.Read(data)
	dir := b.TempDir()
	const guid = "0b7d4c1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e"
	if err := os.WriteFile(filepath.Join(dir, guid), data, 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		f, err := download.VerifyPath(b.Context(), dir, guid,
			download.WithSettle(time.Millisecond), download.WithPollInterval(time.Millisecond))
		if err != nil || f.Size != int64(len(data)) {
			b.Fatalf("VerifyPath = %+v, %v", f, err)
		}
	}
}
