package browser

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/grant"
)

const portalPlaceholder = "http://127.0.0.1:4050"

// portal starts the member portal for one test.
func portal(t testing.TB) *testsite.Portal {
	t.Helper()
	p, err := testsite.StartPortal()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// freshDriver launches a driver of the test's own: seeded state must be
// seen by the first load of a page that never had any.
func freshDriver(t testing.TB) *Driver {
	t.Helper()
	requireBrowser(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d, err := Launch(ctx)
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// noFileHolds walks dir and fails when any byte sequence of any file
// equals needle.
func noFileHolds(t *testing.T, dir, needle string) {
	t.Helper()
	files := 0
	err := filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		files++
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(needle)) {
			t.Errorf("%s holds the secret value", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 3 {
		t.Fatalf("only %d files in the run folder", files)
	}
}

// TestSecretTypedIntoLoginForm resolves the portal password from the
// environment, types it into the real sign-in form (the portal only
// signs in with the right one), reads the password field back into an
// output on purpose, and proves that no file of the run folder and no log
// line holds the value: outputs.json carries the reference.
func TestSecretTypedIntoLoginForm(t *testing.T) {
	d := freshDriver(t)
	p := portal(t)
	const pw = "Tr0ub4dor&3-horse"
	p.AddAccount("operator", pw)
	c := fixture(t, "portal_sign_in.json", portalPlaceholder, p.Origin())
	// Read the filled password field back (a careless author's step).
	c.Outputs = append(c.Outputs, capability.Output{Name: "form", Kind: capability.OutputRecord, Exposure: capability.ExposureModelAndArtifact,
		Fields: []capability.OutputField{{Name: "password", Type: capability.FieldString}}})
	m := &c.Milestones[0]
	readBack := capability.Action{ID: "read-form", Operation: capability.OpExtract, Intent: "Read the form back", Effect: capability.EffectReadOnly,
		Confirmation: capability.ConfirmNone, LocatorCandidates: []locator.Candidate{{Strategy: locator.Role, Role: "main"}}, Output: "form",
		Extract: &capability.Extraction{Mode: capability.ExtractSingle, Fields: []capability.Field{{Name: "password", Type: capability.FieldString,
			Read: capability.ReadValue, LocatorCandidates: []locator.Candidate{{Strategy: locator.Label, Label: "Password", Exact: true}}}}},
		Postcondition: &capability.Condition{Kind: capability.CondOutputProduced, Output: "form"}}
	m.Actions = append(m.Actions[:2], append([]capability.Action{readBack}, m.Actions[2:]...)...)
	if errs := c.ValidateForExecution(); len(errs) > 0 {
		t.Fatal(errs)
	}
	var logs bytes.Buffer
	ctx := tctx(t, 90*time.Second)
	res := execute(t, ctx, d, c, map[string]any{"username": "operator"},
		runtime.WithAllowedEnv("PORTAL_PASSWORD"), runtime.WithEnvLookup(envOf(map[string]string{"PORTAL_PASSWORD": pw})),
		runtime.WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))))
	wantState(t, res, runtime.StateCompleted, "")
	if p.Logins() != 1 {
		t.Fatalf("%d password sign-ins, want 1 (the secret was not typed right)", p.Logins())
	}
	if got := res.ModelOutputs["signed_in_as"]; got != "Signed in as operator" {
		t.Errorf("signed_in_as = %v", got)
	}
	ref := capability.SecretReference("portal_password")
	if got := asJSON(t, res.ModelOutputs["form"]); !reflect.DeepEqual(got, map[string]any{"password": ref}) {
		t.Errorf("form = %v, want the reference %s", got, ref)
	}
	out, err := os.ReadFile(filepath.Join(res.RunDir, "outputs.json"))
	if err != nil || !bytes.Contains(out, []byte(ref)) {
		t.Errorf("outputs.json lacks %s: %v", ref, err)
	}
	noFileHolds(t, res.RunDir, pw)
	if bytes.Contains(logs.Bytes(), []byte(pw)) {
		t.Error("a log line holds the secret value")
	}
}

// TestSeededSessionReachesHome starts the portal from a seeded session
// cookie (a secret from the environment) and seeded local and session
// storage: the first load of /home is signed in and its script already
// reads both storage labels; no password is typed and the seed page never
// reaches the server.
func TestSeededSessionReachesHome(t *testing.T) {
	d := freshDriver(t)
	p := portal(t)
	session := p.NewSession("operator")
	c := fixture(t, "portal_session.json", portalPlaceholder, p.Origin())
	ctx := tctx(t, 90*time.Second)
	res := execute(t, ctx, d, c, nil,
		runtime.WithAllowedEnv("PORTAL_SESSION"), runtime.WithEnvLookup(envOf(map[string]string{"PORTAL_SESSION": session})))
	wantState(t, res, runtime.StateCompleted, "")
	want := map[string]any{"who": "Signed in as operator", "workspace": "Operations", "tab": "Seeded tab"}
	if got := asJSON(t, res.ModelOutputs["home"]); !reflect.DeepEqual(got, want) {
		t.Errorf("home = %v, want %v", got, want)
	}
	if p.Logins() != 0 || p.Hits("/login") != 0 {
		t.Errorf("logins %d, /login hits %d: the session did not come from the seed", p.Logins(), p.Hits("/login"))
	}
	if n := p.Hits(seedPath); n != 0 {
		t.Errorf("the seed page reached the server %d times", n)
	}
	if p.Hits("/home") != 1 {
		t.Errorf("/home loaded %d times, want 1 (the first load is signed in)", p.Hits("/home"))
	}
	if !res.Clean || res.BlockedRequests != 0 {
		t.Errorf("clean %v, blocked %d", res.Clean, res.BlockedRequests)
	}
	noFileHolds(t, res.RunDir, session)
}

// TestSeedOutOfScope: a cookie for an origin outside allowed_origins is
// refused at validation, before the browser is asked anything; and the
// driver itself refuses to seed outside its installed scope.
func TestSeedOutOfScope(t *testing.T) {
	d := freshDriver(t)
	p := portal(t)
	s := sites(t)
	c := fixture(t, "portal_session.json", portalPlaceholder, p.Origin())
	c.Seed.Cookies[0].Origin = s.Outside.Origin()
	ctx := tctx(t, 60*time.Second)
	_, err := runtime.Execute(ctx, c, nil, runtime.WithDriver(d), runtime.WithRunDir(t.TempDir()),
		runtime.WithAllowedEnv("PORTAL_SESSION"), runtime.WithEnvLookup(envOf(map[string]string{"PORTAL_SESSION": "0123456789abcdef"})))
	var ce *runtime.CapabilityError
	if !errors.As(err, &ce) || len(ce.Problems) != 1 || ce.Problems[0].Code != capability.CodeOriginNotAllowed || ce.Problems[0].Path != "seed.cookies[0].origin" {
		t.Fatalf("err %v, want origin_not_allowed at seed.cookies[0].origin", err)
	}
	if s.Outside.TotalHits() != 0 || p.TotalHits() != 0 {
		t.Errorf("hits: outside %d, portal %d", s.Outside.TotalHits(), p.TotalHits())
	}
	// The driver's own check.
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{p.Origin()}}); err != nil {
		t.Fatal(err)
	}
	err = d.Seed(ctx, runtime.SeedState{LocalStorage: []runtime.SeedStorage{{Origin: s.Outside.Origin(), Key: "k", Value: "v"}}})
	if !errors.Is(err, runtime.ErrOriginBlocked) {
		t.Fatalf("Seed outside the scope: %v", err)
	}
	vs, _ := d.Violations(ctx)
	if len(vs) != 1 || vs[0].Origin != s.Outside.Origin() {
		t.Errorf("violations %v", vs)
	}
	if s.Outside.TotalHits() != 0 {
		t.Errorf("the outside origin was contacted %d times", s.Outside.TotalHits())
	}
}

// TestSecretEnvNeedsGrant: in a live run the grant decides which
// environment variables a capability's secrets may read. A grant made for
// the portal capability without PORTAL_PASSWORD refuses the run before
// the browser acts (the sign-in form is never filled), even with the host
// listing the variable; the same grant with the variable runs.
func TestSecretEnvNeedsGrant(t *testing.T) {
	bin := requireBrowser(t)
	p := portal(t)
	const pw = "Tr0ub4dor&3-horse"
	p.AddAccount("operator", pw)
	c := fixture(t, "portal_sign_in.json", portalPlaceholder, p.Origin())
	ceiling := &grant.Ceiling{Enabled: true, ExecutableRoots: []string{"/"}, AllowedOrigins: []string{p.Origin()},
		AllowedEnv: []string{"PORTAL_PASSWORD"}}
	opts := []runtime.Option{runtime.WithAllowedEnv("PORTAL_PASSWORD"), runtime.WithEnvLookup(envOf(map[string]string{"PORTAL_PASSWORD": pw}))}
	for _, tc := range []struct {
		name string
		env  []string
		ok   bool
	}{{"without the variable", nil, false}, {"with the variable", []string{"PORTAL_PASSWORD"}, true}} {
		t.Run(tc.name, func(t *testing.T) {
			before := p.Logins()
			g, err := ceiling.Launch(c, bin, tc.env...)
			if err != nil {
				t.Fatalf("grant: %v", err)
			}
			ctx := tctx(t, 90*time.Second)
			// The test's own ceiling, without auto grant: the package's
			// test ceiling (TestMain) would otherwise derive a grant.
			d, err := Launch(ctx, WithBrowserPath(bin), WithGrant(g), WithCeiling(ceiling))
			if err != nil {
				t.Fatalf("Launch: %v", err)
			}
			defer d.Close()
			res, err := runtime.Execute(ctx, c, map[string]any{"username": "operator"},
				append([]runtime.Option{runtime.WithDriver(d), runtime.WithRunDir(t.TempDir())}, opts...)...)
			if !tc.ok {
				if !errors.Is(err, runtime.ErrNotGranted) || !errors.Is(err, grant.ErrNotCovered) {
					t.Fatalf("Execute = %v, %v; want ErrNotGranted/ErrNotCovered", res, err)
				}
				if p.Logins() != before {
					t.Fatalf("%d sign-ins with a refused run", p.Logins()-before)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			wantState(t, res, runtime.StateCompleted, "")
			if p.Logins() != before+1 {
				t.Fatalf("%d sign-ins, want 1", p.Logins()-before)
			}
		})
	}
}
