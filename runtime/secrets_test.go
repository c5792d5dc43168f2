package runtime_test

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

const portalOrigin = "http://127.0.0.1:4050"

func portalCap(t testing.TB, name string) *capability.Capability {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "capability", "testdata", "valid", name))
	if err != nil {
		t.Fatal(err)
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// portalSite is the sign-in flow of the portal as fixtures; the home page
// (unrealistically) prints the password, so the test can prove outputs
// carry the reference instead.
func portalSite(homeText string) *runtimetest.Site {
	return &runtimetest.Site{Pages: map[string]*runtimetest.Page{
		portalOrigin + "/login": {
			Body: []*runtimetest.Node{
				{ID: "username", Tag: "input", Label: "Username"},
				{ID: "password", Tag: "input", Label: "Password", Attributes: map[string]string{"type": "password"}},
				{ID: "submit", Tag: "button", Text: "Sign in"},
			},
			Rules: []runtimetest.Rule{{On: runtimetest.Trigger{Node: "submit", Act: runtime.ActClick}, Effects: []runtimetest.Effect{{Navigate: "/home"}}}},
		},
		portalOrigin + "/home": {Body: []*runtimetest.Node{{Tag: "main", Children: []*runtimetest.Node{
			{ID: "who", Tag: "p", TestID: "who", Text: homeText},
			{Tag: "span", TestID: "workspace", Text: "Operations"},
			{Tag: "span", TestID: "tab", Text: "Seeded tab"},
		}}}},
	}}
}

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// grepDir fails the test when any file under dir contains needle.
func grepDir(t *testing.T, dir, needle string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		if bytes.Contains(b, []byte(needle)) {
			t.Errorf("%s holds the secret value", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no file in %s", dir)
	}
}

func TestSecretReferenceFilledAndScrubbed(t *testing.T) {
	const pw = "correct-horse-9"
	c := portalCap(t, "portal_sign_in.json")
	d := runtimetest.NewDriver(portalSite("Signed in as operator (" + pw + ")"))
	var logs bytes.Buffer
	res := exec(t, c, d, map[string]any{"username": "operator"},
		runtime.WithAllowedEnv("PORTAL_PASSWORD"), runtime.WithEnvLookup(env(map[string]string{"PORTAL_PASSWORD": pw})),
		runtime.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	if res.State != "completed" {
		t.Fatalf("state %s: %s", res.State, dump(res.Failure))
	}
	typed := false
	for _, call := range d.Calls() {
		if call.Method == runtimetest.MethodAct && call.Act.Kind == runtime.ActFill && call.Act.Value == pw {
			typed = true
		}
	}
	if !typed {
		t.Fatal("the resolved secret was not typed")
	}
	want := "Signed in as operator (" + capability.SecretReference("portal_password") + ")"
	if got := res.ModelOutputs["signed_in_as"]; got != want {
		t.Errorf("model output %q, want %q", got, want)
	}
	grepDir(t, res.RunDir, pw)
	out, err := os.ReadFile(filepath.Join(res.RunDir, "outputs.json"))
	if err != nil || !bytes.Contains(out, []byte(capability.SecretReference("portal_password"))) {
		t.Errorf("outputs.json lacks the reference: %v %s", err, out)
	}
	if strings.Contains(logs.String(), pw) {
		t.Error("the log holds the secret value")
	}
}

func TestSecretRefusedBeforeTheDriver(t *testing.T) {
	const pw = "correct-horse-9"
	allowed := runtime.WithAllowedEnv("PORTAL_PASSWORD")
	tests := []struct {
		name   string
		inputs map[string]any
		opts   []runtime.Option
		check  func(error) bool
	}{
		{"env not allowed", nil, []runtime.Option{runtime.WithEnvLookup(env(map[string]string{"PORTAL_PASSWORD": pw}))},
			func(err error) bool {
				var ce *runtime.CapabilityError
				return errors.As(err, &ce) && len(ce.Problems) == 1 && ce.Problems[0].Code == capability.CodeSecretEnvNotAllowed
			}},
		{"other env allowed", nil, []runtime.Option{runtime.WithAllowedEnv("PORTAL_TOKEN"), runtime.WithEnvLookup(env(map[string]string{"PORTAL_PASSWORD": pw}))},
			func(err error) bool { return errors.Is(err, runtime.ErrInvalidCapability) }},
		{"missing", nil, []runtime.Option{allowed, runtime.WithEnvLookup(env(nil))},
			func(err error) bool {
				var se *runtime.SecretError
				return errors.As(err, &se) && se.Has("portal_password", runtime.SecretMissing) && !strings.Contains(err.Error(), pw)
			}},
		{"empty", nil, []runtime.Option{allowed, runtime.WithEnvLookup(env(map[string]string{"PORTAL_PASSWORD": ""}))},
			func(err error) bool {
				var se *runtime.SecretError
				return errors.As(err, &se) && se.Has("portal_password", runtime.SecretEmpty)
			}},
		{"too short", nil, []runtime.Option{allowed, runtime.WithEnvLookup(env(map[string]string{"PORTAL_PASSWORD": "abc"}))},
			func(err error) bool {
				var se *runtime.SecretError
				return errors.As(err, &se) && se.Has("portal_password", runtime.SecretTooShort)
			}},
		{"control character", nil, []runtime.Option{allowed, runtime.WithEnvLookup(env(map[string]string{"PORTAL_PASSWORD": "line\nbreak"}))},
			func(err error) bool {
				var se *runtime.SecretError
				return errors.As(err, &se) && se.Has("portal_password", runtime.SecretInvalid) && !strings.Contains(err.Error(), "line")
			}},
		{"host supplies the secret input", map[string]any{"password": pw}, []runtime.Option{allowed, runtime.WithEnvLookup(env(map[string]string{"PORTAL_PASSWORD": pw}))},
			func(err error) bool {
				var ie *runtime.InputError
				return errors.As(err, &ie) && ie.Has("password", runtime.InputFromSecret) && !strings.Contains(err.Error(), pw)
			}},
		{"reserved allowed name", nil, []runtime.Option{runtime.WithAllowedEnv("PATH")},
			func(err error) bool { return errors.Is(err, runtime.ErrInvalidArgument) }},
		{"nil lookup", nil, []runtime.Option{allowed, runtime.WithEnvLookup(nil)},
			func(err error) bool { return errors.Is(err, runtime.ErrInvalidArgument) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := portalCap(t, "portal_sign_in.json")
			d := runtimetest.NewDriver(portalSite("Signed in as operator"))
			in := map[string]any{"username": "operator"}
			for k, v := range tt.inputs {
				in[k] = v
			}
			dir := t.TempDir()
			res, err := runtime.Execute(context.Background(), c, in, append(tt.opts, runtime.WithDriver(d), runtime.WithRunDir(dir))...)
			if res != nil || !tt.check(err) {
				t.Fatalf("res %v, err %v", res, err)
			}
			if calls := d.Calls(); len(calls) != 0 {
				t.Errorf("driver called: %v", calls)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("run folder not empty: %v", ents)
			}
		})
	}
}

func TestSeedRecordedBeforeTheStart(t *testing.T) {
	const session = "0123456789abcdef0123456789abcdef"
	c := portalCap(t, "portal_session.json")
	d := runtimetest.NewDriver(portalSite("Signed in as operator"))
	res := exec(t, c, d, nil, runtime.WithAllowedEnv("PORTAL_SESSION"),
		runtime.WithEnvLookup(env(map[string]string{"PORTAL_SESSION": session})))
	if res.State != "completed" {
		t.Fatalf("state %s: %s", res.State, dump(res.Failure))
	}
	seeded := d.Seeded()
	if len(seeded) != 1 {
		t.Fatalf("seeded %d times", len(seeded))
	}
	s := seeded[0]
	wantCookie := runtime.SeedCookie{Origin: portalOrigin, Name: "portal_session", Value: session, Path: "/", HTTPOnly: true, SameSite: "Lax"}
	if len(s.Cookies) != 1 || s.Cookies[0] != wantCookie {
		t.Errorf("cookies %+v", s.Cookies)
	}
	if len(s.LocalStorage) != 1 || s.LocalStorage[0] != (runtime.SeedStorage{Origin: portalOrigin, Key: "portal.workspace", Value: "Operations"}) {
		t.Errorf("local storage %+v", s.LocalStorage)
	}
	if len(s.SessionStorage) != 1 || s.SessionStorage[0].Value != "Seeded tab" {
		t.Errorf("session storage %+v", s.SessionStorage)
	}
	var order []runtimetest.Method
	for _, call := range d.Calls() {
		switch call.Method {
		case runtimetest.MethodRestrictOrigins, runtimetest.MethodSeed, runtimetest.MethodNavigate:
			order = append(order, call.Method)
		}
	}
	if len(order) < 3 || order[0] != runtimetest.MethodRestrictOrigins || order[1] != runtimetest.MethodSeed || order[2] != runtimetest.MethodNavigate {
		t.Errorf("call order %v: want RestrictOrigins, Seed, Navigate", order)
	}
	grepDir(t, res.RunDir, session)
}

// noSeed hides the fake's Seed method: a driver without the capability.
type noSeed struct{ runtime.Driver }

func TestSeedRefusedOnADriverThatCannotSeed(t *testing.T) {
	c := portalCap(t, "portal_session.json")
	d := runtimetest.NewDriver(portalSite("Signed in as operator"))
	_, err := runtime.Execute(context.Background(), c, nil, runtime.WithDriver(noSeed{d}), runtime.WithRunDir(t.TempDir()),
		runtime.WithAllowedEnv("PORTAL_SESSION"), runtime.WithEnvLookup(env(map[string]string{"PORTAL_SESSION": "0123456789abcdef"})))
	if !errors.Is(err, runtime.ErrSeedUnsupported) {
		t.Fatalf("err %v, want ErrSeedUnsupported", err)
	}
	if calls := d.Calls(); len(calls) != 0 {
		t.Errorf("driver called: %v", calls)
	}
	// A capability without a seed still runs on it.
	c2 := portalCap(t, "portal_sign_in.json")
	res := exec(t, c2, noSeed{runtimetest.NewDriver(portalSite("Signed in as operator"))}, map[string]any{"username": "operator"},
		runtime.WithAllowedEnv("PORTAL_PASSWORD"), runtime.WithEnvLookup(env(map[string]string{"PORTAL_PASSWORD": "pass-word"})))
	if res.State != "completed" {
		t.Fatalf("state %s", res.State)
	}
}

func TestSeedCookieSecretNotACookieValue(t *testing.T) {
	c := portalCap(t, "portal_session.json")
	d := runtimetest.NewDriver(portalSite("x"))
	_, err := runtime.Execute(context.Background(), c, nil, runtime.WithDriver(d), runtime.WithRunDir(t.TempDir()),
		runtime.WithAllowedEnv("PORTAL_SESSION"), runtime.WithEnvLookup(env(map[string]string{"PORTAL_SESSION": "abc;def"})))
	var se *runtime.SecretError
	if !errors.As(err, &se) || !se.Has("portal_session", runtime.SecretInvalid) {
		t.Fatalf("err %v", err)
	}
}
