package download_test

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vera-run/vera/download"
)

func FuzzIsPartial(f *testing.F) {
	for _, s := range []string{
		"report.csv", "report.csv.crdownload", "Unconfirmed 123456.crdownload", "x.PART",
		"a.download", ".tmp", ".com.google.Chrome.aBcDeF", ".org.chromium.Chromium.", "name (1).csv",
		"../x.part", "a\x00.part", "", "crdownload", "x.part.csv",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		got := download.IsPartial(name)
		if strings.ContainsAny(name, "/\\\x00") || name == "" {
			if got {
				t.Fatalf("IsPartial(%q) = true for a non-name", name)
			}
			return
		}
		// ASCII case-insensitive.
		if download.IsPartial(asciiUpper(name)) != got || download.IsPartial(asciiLower(name)) != got {
			t.Fatalf("IsPartial(%q) is case-sensitive", name)
		}
		// Any partial suffix makes a name partial.
		for _, s := range []string{".crdownload", ".part", ".download", ".tmp", ".partial", ".opdownload"} {
			if !download.IsPartial(name + s) {
				t.Fatalf("IsPartial(%q) = false", name+s)
			}
		}
		// A partial name stays partial with a Chromium-like prefix; a
		// non-partial name gains nothing from a ".csv" suffix.
		if !got && download.IsPartial(name+".csv") && !strings.HasPrefix(strings.ToLower(name), ".") {
			t.Fatalf("IsPartial(%q.csv) = true for a non-partial name", name)
		}
	})
}

func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'a' && c <= 'z' {
			b[i] = c - 32
		}
	}
	return string(b)
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

func FuzzValidGUID(f *testing.F) {
	for _, s := range []string{guid, "", "..", ".", "../x", "a/b", `a\b`, "C:x", "ABC_def-123", "\x00", "é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !download.ValidGUIDForTest(s) {
			return
		}
		if !utf8.ValidString(s) || !filepath.IsLocal(s) || filepath.Base(s) != s || strings.ContainsAny(s, `/\:. `) {
			t.Fatalf("validGUID(%q) accepted a name that is not a plain local file name", s)
		}
		if len(s) == 0 || len(s) > download.MaxGUIDLength || download.IsPartial(s) || download.IsIgnoredForTest(s) {
			t.Fatalf("validGUID(%q) accepted a reserved or oversized name", s)
		}
	})
}

func FuzzSetHash(f *testing.F) {
	f.Add(int64(3), digest([]byte("abc")))
	f.Add(int64(-1), "sha256:")
	f.Add(download.MaxSafeBytes+1, digest(nil))
	f.Fuzz(func(t *testing.T, size int64, sha string) {
		h, err := download.SetHash([]download.File{{Size: size, SHA256: sha}})
		if err != nil {
			if !errors.Is(err, download.ErrInvalidRequest) {
				t.Fatalf("unexpected error type %v", err)
			}
			return
		}
		want := sum(`[{"bytes":` + strconv.FormatInt(size, 10) + `,"sha256":"` + sha + `"}]`)
		if h != want {
			t.Fatalf("SetHash(%d, %q) = %s, want %s", size, sha, h, want)
		}
	})
}
