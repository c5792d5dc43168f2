package jobservice

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/jobs"
)

// policyService is a service whose every admission fails its
// availability check: a submission goes through every check of the
// handler and the runner, and a good one ends 503 browser_unavailable,
// so nothing runs and no driver is opened.
func policyService(t testing.TB, opts ...Option) *Service {
	t.Helper()
	none := func(ctx context.Context) (runtime.Driver, error) {
		return nil, errors.New("policy test: no driver")
	}
	all := append([]Option{WithAvailability(func() error { return errors.New("policy test: no browser") })}, opts...)
	s, err := New(t.TempDir(), none, all...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(context.Background()) })
	return s
}

func post(s *Service, body []byte) (int, ErrorDoc, []byte) {
	req := httptest.NewRequest(http.MethodPost, "/v1/runs", bytes.NewReader(body))
	req.Header.Set(ProtocolHeader, ProtocolVersion)
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	var e ErrorDoc
	_ = json.Unmarshal(rec.Body.Bytes(), &e)
	return rec.Code, e, rec.Body.Bytes()
}

// submission is a trial-shaped submission with viewports vps, encoded.
func submission(t testing.TB, vps string) []byte {
	t.Helper()
	body := `{"api_version":"1","capability":` + string(trialCapability("http://127.0.0.1:9")) + `,"label":"x"`
	if vps != "" {
		body += `,"viewports":` + vps
	}
	return []byte(body + "}")
}

var viewportCodes = []string{string(jobs.ViewportTooMany), string(jobs.ViewportBadName), string(jobs.ViewportDuplicateName),
	string(jobs.ViewportBadWidth), string(jobs.ViewportBadHeight), string(jobs.ViewportUnsupported)}

// TestSubmitViewportsRefused: bad viewports are 422 with the runner's
// code before admission (a service that could open viewports), every
// viewport is refused 422 viewports_unsupported by a service that
// cannot, and good ones reach the admission check (here: 503).
func TestSubmitViewportsRefused(t *testing.T) {
	with := policyService(t, WithViewportSource(func(context.Context, int, int) (runtime.Driver, error) {
		return nil, errors.New("policy test: no driver")
	}))
	without := policyService(t)
	cases := []struct {
		name, vps string
		status    int
		code      string
	}{
		{"none", ``, 503, string(jobs.CodeBrowserUnavailable)},
		{"empty list", `[]`, 503, string(jobs.CodeBrowserUnavailable)},
		{"two", `[{"name":"desktop","width":1280,"height":800},{"name":"narrow","width":390,"height":844}]`, 503, string(jobs.CodeBrowserUnavailable)},
		{"at the limits", `[{"name":"a","width":1920,"height":1600},{"name":"b","width":1,"height":1},{"name":"c-d_0","width":2,"height":2},{"name":"9","width":3,"height":3}]`, 503, string(jobs.CodeBrowserUnavailable)},
		{"five", `[{"name":"a","width":1,"height":1},{"name":"b","width":1,"height":1},{"name":"c","width":1,"height":1},{"name":"d","width":1,"height":1},{"name":"e","width":1,"height":1}]`, 422, string(jobs.ViewportTooMany)},
		{"upper case", `[{"name":"Desktop","width":1280,"height":800}]`, 422, string(jobs.ViewportBadName)},
		{"leading dash", `[{"name":"-x","width":1280,"height":800}]`, 422, string(jobs.ViewportBadName)},
		{"slash", `[{"name":"a/b","width":1280,"height":800}]`, 422, string(jobs.ViewportBadName)},
		{"dot dot", `[{"name":"..","width":1280,"height":800}]`, 422, string(jobs.ViewportBadName)},
		{"no name", `[{"width":1280,"height":800}]`, 422, string(jobs.ViewportBadName)},
		{"33 bytes", `[{"name":"` + strings.Repeat("a", 33) + `","width":1280,"height":800}]`, 422, string(jobs.ViewportBadName)},
		{"duplicate", `[{"name":"x","width":1280,"height":800},{"name":"x","width":390,"height":844}]`, 422, string(jobs.ViewportDuplicateName)},
		{"no width", `[{"name":"x","height":800}]`, 422, string(jobs.ViewportBadWidth)},
		{"wide", `[{"name":"x","width":1921,"height":800}]`, 422, string(jobs.ViewportBadWidth)},
		{"negative width", `[{"name":"x","width":-5,"height":800}]`, 422, string(jobs.ViewportBadWidth)},
		{"tall", `[{"name":"x","width":1280,"height":1601}]`, 422, string(jobs.ViewportBadHeight)},
		{"zero height", `[{"name":"x","width":1280,"height":0}]`, 422, string(jobs.ViewportBadHeight)},
		{"unknown member", `[{"name":"x","width":1280,"height":800,"scale":2}]`, 400, ErrorInvalidRequest},
		{"duplicate member", `[{"name":"x","name":"y","width":1280,"height":800}]`, 400, ErrorInvalidRequest},
		{"fractional width", `[{"name":"x","width":12.5,"height":800}]`, 400, ErrorInvalidRequest},
		{"string width", `[{"name":"x","width":"1280","height":800}]`, 400, ErrorInvalidRequest},
		{"not a list", `{"name":"x","width":1280,"height":800}`, 400, ErrorInvalidRequest},
		{"null element", `[null]`, 422, string(jobs.ViewportBadName)},
	}
	for _, tc := range cases {
		c, e, raw := post(with, submission(t, tc.vps))
		if c != tc.status || e.Error != tc.code {
			t.Errorf("%s: %d %s, want %d %s", tc.name, c, raw, tc.status, tc.code)
		}
		if c == http.StatusUnprocessableEntity && !strings.Contains(e.Message, "viewports") {
			t.Errorf("%s: the message does not name the viewport: %q", tc.name, e.Message)
		}
		// Without a viewport source, any viewport is refused as such
		// (a list the rules refuse is refused by its rule first).
		c, e, raw = post(without, submission(t, tc.vps))
		want, code := tc.status, tc.code
		if tc.status == 503 && strings.Contains(tc.vps, "name") {
			want, code = 422, string(jobs.ViewportUnsupported)
		}
		if c != want || e.Error != code {
			t.Errorf("%s without a viewport source: %d %s, want %d %s", tc.name, c, raw, want, code)
		}
	}
}

// TestSubmitLimitsRefused (policy): the submission limits of seed 003
// over HTTP: more steps than the service's limit, a label above 128
// bytes and a run budget outside 0..120000 ms are 400 invalid_request
// before admission; the limits themselves reach the admission check
// (503 here: it admits nothing).
func TestSubmitLimitsRefused(t *testing.T) {
	s := policyService(t)
	one := policyService(t, WithMaxSteps(1)) // the trial capability has more
	capJSON := string(trialCapability("http://127.0.0.1:9"))
	body := func(extra string) []byte {
		return []byte(`{"api_version":"1","capability":` + capJSON + extra + `}`)
	}
	cases := []struct {
		name   string
		s      *Service
		body   []byte
		status int
		code   string
	}{
		{"default limits", s, body(``), 503, string(jobs.CodeBrowserUnavailable)},
		{"more steps than the limit", one, body(``), 400, ErrorInvalidRequest},
		{"label of 128 bytes", s, body(`,"label":"` + strings.Repeat("l", 128) + `"`), 503, string(jobs.CodeBrowserUnavailable)},
		{"label of 129 bytes", s, body(`,"label":"` + strings.Repeat("l", 129) + `"`), 400, ErrorInvalidRequest},
		{"budget at the maximum", s, body(`,"timeout_ms":120000`), 503, string(jobs.CodeBrowserUnavailable)},
		{"budget above the maximum", s, body(`,"timeout_ms":120001`), 400, ErrorInvalidRequest},
		{"negative budget", s, body(`,"timeout_ms":-1`), 400, ErrorInvalidRequest},
		{"budget of 1 ms", s, body(`,"timeout_ms":1`), 503, string(jobs.CodeBrowserUnavailable)},
	}
	for _, tc := range cases {
		if c, e, raw := post(tc.s, tc.body); c != tc.status || e.Error != tc.code {
			t.Errorf("%s: %d %s, want %d %s", tc.name, c, raw, tc.status, tc.code)
		}
	}
}

// FuzzSubmit: whatever the body, a submission to a service that admits
// nothing is answered with one of the documented refusals and an error
// document, never a 5xx other than 503 and never an admission; a
// viewport code only for a body whose viewports the service could read.
func FuzzSubmit(f *testing.F) {
	for _, vps := range []string{``, `[]`, `[{"name":"desktop","width":1280,"height":800},{"name":"narrow","width":390,"height":844}]`,
		`[{"name":"x","width":1921,"height":800}]`, `[{"name":"x","width":1,"height":1},{"name":"x","width":1,"height":1}]`,
		`[{"name":"Ü","width":10,"height":10}]`, `[{"name":"x","width":10,"height":10,"z":1}]`} {
		f.Add(submission(f, vps))
	}
	f.Add([]byte(`{"api_version":"1","bundle":"x","viewports":[{"name":"a","width":1,"height":1}]}`))
	f.Add([]byte(`{"api_version":"2","viewports":[]}`))
	f.Add([]byte(`{`))
	s := policyService(f, WithViewportSource(func(context.Context, int, int) (runtime.Driver, error) {
		return nil, errors.New("policy test: no driver")
	}))
	allowed := map[int]bool{400: true, 409: true, 413: true, 422: true, 503: true}
	f.Fuzz(func(t *testing.T, body []byte) {
		c, e, raw := post(s, body)
		if !allowed[c] || e.APIVersion != APIVersion || e.Error == "" {
			t.Fatalf("%q: %d %s", body, c, raw)
		}
		if slices.Contains(viewportCodes, e.Error) {
			var req SubmitRequest
			if c != http.StatusUnprocessableEntity || json.Unmarshal(body, &req) != nil || len(req.Viewports) == 0 {
				t.Fatalf("%q: %d %s for a body without readable viewports", body, c, raw)
			}
		}
	})
}
