package jobservice_test

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vera-run/vera/examples/internal/jobservice"
	"github.com/vera-run/vera/runtime/jobs"
)

// section17 is FORMAT.md's §17, the job service protocol, up to the next
// section.
func section17(t *testing.T) string {
	t.Helper()
	raw, err := os.ReadFile("../../../docs/FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	i := strings.Index(s, "## 17. Job service protocol")
	if i < 0 {
		t.Fatal("FORMAT.md has no §17")
	}
	s = s[i:]
	if j := strings.Index(s[3:], "\n## "); j >= 0 {
		s = s[:j+3]
	}
	return s
}

// TestFormatTables checks FORMAT.md §17's member tables against the wire
// types: every JSON member documented, nothing documented that is not a
// member.
func TestFormatTables(t *testing.T) {
	s := section17(t)
	name := regexp.MustCompile("`([a-z_]+)`")
	table := func(marker string) []string {
		k := strings.Index(s, marker)
		if k < 0 {
			t.Fatalf("§17 has no %q", marker)
		}
		var got []string
		started := false
		for _, line := range strings.Split(s[k:], "\n") {
			if strings.HasPrefix(line, "| member |") {
				started = true
				continue
			}
			if !started || strings.HasPrefix(line, "|---") {
				continue
			}
			if !strings.HasPrefix(line, "|") {
				break
			}
			first := strings.Split(line, "|")[1]
			for _, m := range name.FindAllStringSubmatch(first, -1) {
				got = append(got, m[1])
			}
		}
		slices.Sort(got)
		return got
	}
	fields := func(v any) []string {
		var out []string
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			tag, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			if tag != "" && tag != "-" {
				out = append(out, tag)
			}
		}
		slices.Sort(out)
		return out
	}
	for marker, v := range map[string]any{"**Submission**": jobservice.SubmitRequest{}, "**Run document**": jobservice.RunDocument{},
		"**Viewport result**": jobservice.ViewportResult{}} {
		if got, want := table(marker), fields(v); !slices.Equal(got, want) {
			t.Errorf("§17 %s table:\n got  %q\n want %q", marker, got, want)
		}
	}
	// The members described in prose: the preflight's limits, a
	// progress report's, a submitted viewport's.
	for _, v := range []any{jobservice.Limits{}, jobservice.Progress{}, jobs.Viewport{}} {
		for _, m := range fields(v) {
			if !strings.Contains(s, "`"+m+"`") {
				t.Errorf("§17 does not name %T's member %s", v, m)
			}
		}
	}
	for _, p := range []jobs.ViewportProblem{jobs.ViewportTooMany, jobs.ViewportBadName, jobs.ViewportDuplicateName,
		jobs.ViewportBadWidth, jobs.ViewportBadHeight, jobs.ViewportUnsupported} {
		if !regexp.MustCompile("(?m)^\\| 422 \\| [^|]*`" + string(p) + "`").MatchString(s) {
			t.Errorf("§17's status table lacks 422 %s", p)
		}
	}
	for _, code := range []string{jobservice.ErrorNotFound, jobservice.ErrorProtocolMismatch, jobservice.ErrorInvalidRequest,
		jobservice.ErrorTooLarge, jobservice.ErrorBundleInvalid, jobservice.ErrorNotTerminal, jobservice.ErrorArtifactNotFound,
		jobservice.ErrorTrialUnavailable, jobservice.ErrorInternal} {
		if !strings.Contains(s, "| `"+code+"` |") {
			t.Errorf("§17's status table lacks %s", code)
		}
	}
}

// TestFormatPoolPreflight: §17 names every member of a pool's
// preflight endpoint.
func TestFormatPoolPreflight(t *testing.T) {
	s := section17(t)
	rt := reflect.TypeOf(jobservice.EndpointPreflight{})
	for k := range rt.NumField() {
		tag, _, _ := strings.Cut(rt.Field(k).Tag.Get("json"), ",")
		if !strings.Contains(s, "`"+tag+"`") {
			t.Errorf("§17 does not name the pool preflight's member %s", tag)
		}
	}
	if !strings.Contains(s, "adds `endpoints`") {
		t.Error("§17 does not describe the preflight's endpoints")
	}
}
