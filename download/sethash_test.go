package download_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/vera-run/vera/download"
)

func sum(s string) string {
	b := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(b[:])
}

func TestSetHash(t *testing.T) {
	t.Parallel()
	abc := digest([]byte("abc"))
	empty := digest(nil)
	cases := []struct {
		name  string
		files []download.File
		want  string // canonical JSON hashed
	}{
		{"nil", nil, "[]"},
		{"empty", []download.File{}, "[]"},
		{"one", []download.File{{Path: "/a/b.csv", Size: 3, SHA256: abc}}, `[{"bytes":3,"sha256":"` + abc + `"}]`},
		{"ordered", []download.File{{Size: 0, SHA256: empty}, {Size: 3, SHA256: abc}},
			`[{"bytes":0,"sha256":"` + empty + `"},{"bytes":3,"sha256":"` + abc + `"}]`},
		{"max safe size", []download.File{{Size: download.MaxSafeBytes, SHA256: abc}},
			`[{"bytes":9007199254740991,"sha256":"` + abc + `"}]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := download.SetHash(tc.files)
			if err != nil {
				t.Fatal(err)
			}
			if want := sum(tc.want); got != want {
				t.Errorf("SetHash = %s, want %s (of %s)", got, want, tc.want)
			}
		})
	}
	// Paths, mechanisms and evidence never enter the hash; order does.
	a := []download.File{{Path: "/home/a/x.csv", Size: 3, SHA256: abc, Mechanism: "directory"}, {Size: 0, SHA256: empty}}
	b := []download.File{{Path: `C:\Users\b\y.csv`, Size: 3, SHA256: abc, Evidence: "e"}, {Path: "z", Size: 0, SHA256: empty}}
	ha, _ := download.SetHash(a)
	hb, _ := download.SetHash(b)
	if ha != hb {
		t.Error("paths changed the set hash")
	}
	a[0], a[1] = a[1], a[0]
	if hc, _ := download.SetHash(a); hc == ha {
		t.Error("order did not change the set hash")
	}
}

func TestSetHashInvalid(t *testing.T) {
	t.Parallel()
	good := digest([]byte("x"))
	for name, f := range map[string]download.File{
		"negative size": {Size: -1, SHA256: good},
		"huge size":     {Size: download.MaxSafeBytes + 1, SHA256: good},
		"no prefix":     {Size: 1, SHA256: strings.TrimPrefix(good, "sha256:")},
		"uppercase hex": {Size: 1, SHA256: "sha256:" + strings.ToUpper(strings.TrimPrefix(good, "sha256:"))},
		"short":         {Size: 1, SHA256: good[:20]},
		"quote":         {Size: 1, SHA256: good[:len(good)-1] + `"`},
		"empty":         {Size: 1},
	} {
		if _, err := download.SetHash([]download.File{{Size: 1, SHA256: good}, f}); !errors.Is(err, download.ErrInvalidRequest) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}
