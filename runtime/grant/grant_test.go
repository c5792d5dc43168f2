package grant_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/runtime/grant"
)

const hashA = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
const hashB = "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestParseEnv(t *testing.T) {
	full := map[string]string{
		grant.EnvEnabled:         "true",
		grant.EnvExecutableRoots: `["/usr/bin", "/opt/chrome"]`,
		grant.EnvCDPEndpoints:    `["http://127.0.0.1:9222", "wss://grid.example.com:443", "http://localhost:*"]`,
		grant.EnvAllowedOrigins:  `["https://app.example.com", "HTTP://127.0.0.1:4010/", "http://[::1]:*"]`,
		grant.EnvAllowedEnv:      `["TELLER_PIN"]`,
		grant.EnvAutoGrant:       "false",
	}
	c, err := grant.ParseEnv(env(full))
	if err != nil {
		t.Fatal(err)
	}
	want := &grant.Ceiling{Enabled: true, ExecutableRoots: []string{"/usr/bin", "/opt/chrome"},
		CDPEndpoints:   []string{"http://127.0.0.1:9222", "wss://grid.example.com:443", "http://localhost:*"},
		AllowedOrigins: []string{"https://app.example.com", "HTTP://127.0.0.1:4010/", "http://[::1]:*"},
		AllowedEnv:     []string{"TELLER_PIN"}}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("ceiling %+v, want %+v", c, want)
	}
	if c, err := grant.ParseEnv(env(nil)); err != nil || !reflect.DeepEqual(c, &grant.Ceiling{}) {
		t.Fatalf("empty environment: %+v %v", c, err)
	}
	bad := []struct {
		name, v, val, reason string
	}{
		{"enabled yes", grant.EnvEnabled, "yes", `"true" or "false"`},
		{"enabled TRUE", grant.EnvEnabled, "TRUE", `"true" or "false"`},
		{"auto 1", grant.EnvAutoGrant, "1", `"true" or "false"`},
		{"bad JSON", grant.EnvExecutableRoots, `["/usr/bin"`, "bad JSON"},
		{"null", grant.EnvExecutableRoots, `null`, "not a JSON array"},
		{"object", grant.EnvAllowedOrigins, `{"a":1}`, "not a JSON array"},
		{"number entry", grant.EnvAllowedEnv, `[1]`, "not a string"},
		{"trailing data", grant.EnvAllowedEnv, `["A"] ["B"]`, "data after"},
		{"relative root", grant.EnvExecutableRoots, `["usr/bin"]`, "not an absolute path"},
		{"unclean root", grant.EnvExecutableRoots, `["/usr/../bin"]`, "not clean"},
		{"trailing slash root", grant.EnvExecutableRoots, `["/usr/bin/"]`, "not clean"},
		{"duplicate root", grant.EnvExecutableRoots, `["/usr/bin","/usr/bin"]`, "duplicate"},
		{"empty root", grant.EnvExecutableRoots, `[""]`, "empty"},
		{"endpoint no port", grant.EnvCDPEndpoints, `["http://127.0.0.1"]`, "explicit port"},
		{"endpoint path", grant.EnvCDPEndpoints, `["ws://127.0.0.1:9222/devtools/browser/x"]`, "no path"},
		{"endpoint user", grant.EnvCDPEndpoints, `["http://u@127.0.0.1:9222"]`, "user information"},
		{"endpoint query", grant.EnvCDPEndpoints, `["http://127.0.0.1:9222?x=1"]`, "query"},
		{"endpoint ftp", grant.EnvCDPEndpoints, `["ftp://127.0.0.1:21"]`, "scheme"},
		{"endpoint duplicate http/ws", grant.EnvCDPEndpoints, `["http://127.0.0.1:9222","ws://127.0.0.1:9222"]`, "duplicate"},
		{"endpoint any port remote", grant.EnvCDPEndpoints, `["http://grid.example.com:*"]`, "loopback"},
		{"origin path", grant.EnvAllowedOrigins, `["https://a.example.com/x"]`, "path"},
		{"origin duplicate after normalization", grant.EnvAllowedOrigins, `["https://a.example.com","HTTPS://A.example.com:443"]`, "duplicate"},
		{"origin any port remote", grant.EnvAllowedOrigins, `["https://a.example.com:*"]`, "loopback"},
		{"origin any port with port", grant.EnvAllowedOrigins, `["http://127.0.0.1:80:*"]`, "invalid origin"},
		{"env name dash", grant.EnvAllowedEnv, `["TELLER-PIN"]`, "not an environment variable name"},
		{"env name digit", grant.EnvAllowedEnv, `["1PIN"]`, "not an environment variable name"},
		{"env duplicate", grant.EnvAllowedEnv, `["PIN","PIN"]`, "duplicate"},
		{"too long", grant.EnvAllowedEnv, `["` + strings.Repeat("A", grant.MaxEnvValueBytes) + `"]`, "longer than"},
		{"too many", grant.EnvAllowedEnv, `[` + strings.Repeat(`"A",`, grant.MaxEntries) + `"A"]`, "more than"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := grant.ParseEnv(env(map[string]string{tc.v: tc.val}))
			var ee *grant.EnvError
			if !errors.As(err, &ee) || !errors.Is(err, grant.ErrCeiling) || ee.Var != tc.v || !strings.Contains(ee.Reason, tc.reason) {
				t.Fatalf("error %v, want an EnvError on %s saying %q", err, tc.v, tc.reason)
			}
		})
	}
	// Every bad variable is reported.
	_, err = grant.ParseEnv(env(map[string]string{grant.EnvEnabled: "on", grant.EnvAllowedEnv: "[1]"}))
	if err == nil || !strings.Contains(err.Error(), grant.EnvEnabled) || !strings.Contains(err.Error(), grant.EnvAllowedEnv) {
		t.Fatalf("two bad variables: %v", err)
	}
	if _, err := grant.ParseEnv(nil); !errors.Is(err, grant.ErrCeiling) {
		t.Fatalf("nil lookup: %v", err)
	}
}

func TestFromEnv(t *testing.T) {
	for _, k := range grant.EnvNames() {
		t.Setenv(k, "")
	}
	t.Setenv(grant.EnvEnabled, "true")
	t.Setenv(grant.EnvAutoGrant, "true")
	c, err := grant.FromEnv()
	if err != nil || !c.Enabled || !c.AutoGrant {
		t.Fatalf("%+v %v", c, err)
	}
}

func TestClassify(t *testing.T) {
	for host, want := range map[string]grant.NetworkClass{
		"127.0.0.1": grant.Loopback, "localhost": grant.Loopback, "LOCALHOST": grant.Loopback, "::1": grant.Loopback, "[::1]": grant.Loopback,
		"127.0.0.2": grant.Private, "10.1.2.3": grant.Private, "172.16.0.1": grant.Private, "192.168.1.1": grant.Private,
		"100.64.0.1": grant.Private, "169.254.1.1": grant.Private, "fd00::1": grant.Private, "fe80::1": grant.Private,
		"0.0.0.0": grant.Private, "printer.local": grant.Private, "db.internal": grant.Private, "nas.home.arpa": grant.Private,
		"app.localhost": grant.Private, "8.8.8.8": grant.Public, "2001:4860::8888": grant.Public, "example.com": grant.Public,
		"local": grant.Private, "notlocal": grant.Public, "::ffff:10.0.0.1": grant.Private,
	} {
		if got := grant.ClassifyHost(host); got != want {
			t.Errorf("ClassifyHost(%q) = %s, want %s", host, got, want)
		}
	}
	if got := grant.ClassifyOrigins([]string{"http://127.0.0.1:1", "https://10.0.0.1", "https://example.com"}); got != grant.Public {
		t.Errorf("mixed: %s", got)
	}
	if got := grant.ClassifyOrigins(nil); got != grant.Loopback {
		t.Errorf("none: %s", got)
	}
}

// exe writes an executable file into dir.
func exe(t *testing.T, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\nexit 0\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGrantAgainstCeiling(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	in := exe(t, root, "chrome")
	out := exe(t, outside, "chrome")
	if err := os.WriteFile(filepath.Join(root, "data"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(in, filepath.Join(outside, "into")); err != nil {
		t.Fatal(err)
	}
	c := &grant.Ceiling{Enabled: true, ExecutableRoots: []string{root}, CDPEndpoints: []string{"http://127.0.0.1:9222", "http://localhost:*"},
		AllowedOrigins: []string{"http://127.0.0.1:4010", "https://app.example.com", "http://127.0.0.1:*"}, AllowedEnv: []string{"PIN", "USER_NAME"}}
	launch := func(p string) grant.Request {
		return grant.Request{Target: grant.Target{Mode: grant.ModeLaunch, Executable: p}, ExecutionHash: hashA, Origins: []string{"http://127.0.0.1:4010"}}
	}
	connect := func(ep string) grant.Request {
		return grant.Request{Target: grant.Target{Mode: grant.ModeConnect, Endpoint: ep}, ExecutionHash: hashA, Origins: []string{"http://127.0.0.1:4010"}}
	}
	with := func(r grant.Request, f func(*grant.Request)) grant.Request { f(&r); return r }
	cases := []struct {
		name  string
		c     *grant.Ceiling
		req   grant.Request
		field string // "" ok; else ExceedError field, or "invalid"/"notgranted"
	}{
		{"launch in root", c, launch(in), ""},
		{"launch through a symlink into the root", c, launch(filepath.Join(outside, "into")), ""},
		{"launch outside the roots", c, launch(out), grant.FieldExecutable},
		{"symlink escaping the root", c, launch(filepath.Join(root, "escape")), grant.FieldExecutable},
		{"relative executable", c, launch("chrome"), grant.FieldExecutable},
		{"dot-dot executable", c, launch(root + "/../" + filepath.Base(root) + "/chrome"), grant.FieldExecutable},
		{"the root itself", c, launch(root), grant.FieldExecutable},
		{"not executable", c, launch(filepath.Join(root, "data")), grant.FieldExecutable},
		{"missing executable", c, launch(filepath.Join(root, "nope")), grant.FieldExecutable},
		{"connect listed", c, connect("http://127.0.0.1:9222"), ""},
		{"connect listed as ws", c, connect("ws://127.0.0.1:9222/devtools/browser/abc"), ""},
		{"connect any port entry", c, connect("ws://localhost:41234/devtools/browser/abc"), ""},
		{"connect not listed", c, connect("http://127.0.0.1:9223"), grant.FieldEndpoint},
		{"connect remote not listed", c, connect("wss://grid.example.com:443/x"), grant.FieldEndpoint},
		{"connect without port", c, connect("http://127.0.0.1"), grant.FieldEndpoint},
		{"origin any port", c, with(launch(in), func(r *grant.Request) { r.Origins = []string{"http://127.0.0.1:5555"} }), ""},
		{"origin not allowed", c, with(launch(in), func(r *grant.Request) { r.Origins = []string{"https://other.example.com"} }), grant.FieldOrigin},
		{"public origin allowed", c, with(launch(in), func(r *grant.Request) { r.Origins = []string{"https://app.example.com"} }), ""},
		{"env allowed", c, with(launch(in), func(r *grant.Request) { r.Env = []string{"PIN"} }), ""},
		{"env not allowed", c, with(launch(in), func(r *grant.Request) { r.Env = []string{"HOME"} }), grant.FieldEnv},
		{"env malformed", c, with(launch(in), func(r *grant.Request) { r.Env = []string{"A-B"} }), "invalid"},
		{"no origins", c, with(launch(in), func(r *grant.Request) { r.Origins = nil }), "invalid"},
		{"bad origin", c, with(launch(in), func(r *grant.Request) { r.Origins = []string{"ftp://x"} }), "invalid"},
		{"bad hash", c, with(launch(in), func(r *grant.Request) { r.ExecutionHash = "sha256:xyz" }), "invalid"},
		{"bad mode", c, grant.Request{Target: grant.Target{Mode: "attach"}, ExecutionHash: hashA, Origins: []string{"http://127.0.0.1:4010"}}, "invalid"},
		{"public over a loopback ceiling", &grant.Ceiling{Enabled: true, ExecutableRoots: []string{root}, AllowedOrigins: c.AllowedOrigins, MaxNetwork: grant.Loopback},
			with(launch(in), func(r *grant.Request) { r.Origins = []string{"https://app.example.com"} }), grant.FieldNetwork},
		{"disabled", &grant.Ceiling{ExecutableRoots: []string{root}, AllowedOrigins: c.AllowedOrigins}, launch(in), grant.FieldEnabled},
		{"zero ceiling", &grant.Ceiling{}, launch(in), grant.FieldEnabled},
		{"nil ceiling", nil, launch(in), "notgranted"},
		{"invalid ceiling", &grant.Ceiling{Enabled: true, ExecutableRoots: []string{"rel"}}, launch(in), "ceiling"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g, err := tc.c.Grant(tc.req)
			switch tc.field {
			case "":
				if err != nil {
					t.Fatal(err)
				}
				if !g.Checked() || g.Validate() != nil {
					t.Fatalf("grant %+v checked %v: %v", g, g.Checked(), g.Validate())
				}
			case "invalid":
				if !errors.Is(err, grant.ErrInvalidGrant) {
					t.Fatalf("%v, want ErrInvalidGrant", err)
				}
			case "notgranted":
				if !errors.Is(err, grant.ErrNotGranted) {
					t.Fatalf("%v, want ErrNotGranted", err)
				}
			case "ceiling":
				if !errors.Is(err, grant.ErrCeiling) {
					t.Fatalf("%v, want ErrCeiling", err)
				}
			default:
				var xe *grant.ExceedError
				if !errors.As(err, &xe) || xe.Field != tc.field || !errors.Is(err, grant.ErrExceedsCeiling) {
					t.Fatalf("%v, want an ExceedError on %s", err, tc.field)
				}
			}
		})
	}
	// The launch grant commits the resolved executable.
	g, err := c.Grant(launch(filepath.Join(outside, "into")))
	if err != nil {
		t.Fatal(err)
	}
	resolved, _ := filepath.EvalSymlinks(in)
	if g.Executable != resolved {
		t.Errorf("executable %q, want the resolved %q", g.Executable, resolved)
	}
}

func TestGrantDocument(t *testing.T) {
	root := t.TempDir()
	bin := exe(t, root, "chrome")
	c := &grant.Ceiling{Enabled: true, ExecutableRoots: []string{root}, AllowedOrigins: []string{"http://127.0.0.1:*", "https://app.example.com"}, AllowedEnv: []string{"B", "A"}}
	g, err := c.Grant(grant.Request{Target: grant.Target{Mode: grant.ModeLaunch, Executable: bin}, ExecutionHash: hashA,
		Origins: []string{"https://app.example.com", "HTTP://127.0.0.1:4010/", "http://127.0.0.1:4010"}, Env: []string{"B", "A", "B"}})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g.Origins, []string{"http://127.0.0.1:4010", "https://app.example.com"}) || !reflect.DeepEqual(g.Env, []string{"A", "B"}) || g.NetworkClass != grant.Public {
		t.Fatalf("grant %+v", g)
	}
	raw, err := g.JSON()
	if err != nil {
		t.Fatal(err)
	}
	p, err := grant.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if p.Checked() {
		t.Error("a parsed grant is checked")
	}
	d1, _ := g.Digest()
	d2, _ := p.Digest()
	if d1 != d2 || !strings.HasPrefix(d1, "sha256:") {
		t.Fatalf("digests %s %s", d1, d2)
	}
	cm := g.Commitment()
	if cm.TargetSHA256 == "" || bytes.Contains(mustJSON(t, cm), []byte(root)) {
		t.Errorf("the commitment holds the path: %+v", cm)
	}
	if d3, err := cm.Digest(); err != nil || d3 != d1 {
		t.Errorf("commitment digest %s %v", d3, err)
	}
	chk, err := c.Check(p)
	if err != nil || !chk.Checked() {
		t.Fatalf("Check: %v", err)
	}
	// The digest changes with every committed member.
	for name, f := range map[string]func(*grant.Grant){
		"hash":   func(g *grant.Grant) { g.ExecutionHash = hashB },
		"target": func(g *grant.Grant) { g.Executable = "/other/chrome" },
		"env":    func(g *grant.Grant) { g.Env = []string{"A"} },
		"auto":   func(g *grant.Grant) { g.Auto = true },
	} {
		q := *p
		f(&q)
		if d, err := q.Digest(); err != nil || d == d1 {
			t.Errorf("%s: digest %s %v", name, d, err)
		}
	}
	// Check refuses a grant the ceiling would not make.
	other := *p
	other.ExecutionHash = hashB
	other.Env = []string{"HOME"}
	if _, err := c.Check(&other); !errors.Is(err, grant.ErrExceedsCeiling) {
		t.Errorf("Check of an exceeding grant: %v", err)
	}
	badDocs := map[string]string{
		"unknown member":   strings.Replace(string(raw), `"auto":false`, `"auto":false,"extra":1`, 1),
		"duplicate member": strings.Replace(string(raw), `"auto":false`, `"auto":false,"auto":true`, 1),
		"missing member":   strings.Replace(string(raw), `"auto":false,`, ``, 1),
		"wrong class":      strings.Replace(string(raw), `"network_class":"public"`, `"network_class":"loopback"`, 1),
		"unsorted origins": strings.Replace(string(raw), `["http://127.0.0.1:4010","https://app.example.com"]`, `["https://app.example.com","http://127.0.0.1:4010"]`, 1),
		"schema":           strings.Replace(string(raw), grant.Schema, "browser-grant/v9", 1),
		"both targets":     strings.Replace(string(raw), `"execution_hash"`, `"endpoint":"http://127.0.0.1:9222","execution_hash"`, 1),
		"not JSON":         "{",
		"too large":        strings.Repeat(" ", grant.MaxGrantBytes+1),
	}
	for name, doc := range badDocs {
		if doc == string(raw) {
			t.Fatalf("%s: the edit did not apply", name)
		}
		if _, err := grant.Parse([]byte(doc)); !errors.Is(err, grant.ErrInvalidGrant) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestAuthorization(t *testing.T) {
	root := t.TempDir()
	bin := exe(t, root, "chrome")
	c := &grant.Ceiling{Enabled: true, ExecutableRoots: []string{root}, AllowedOrigins: []string{"http://127.0.0.1:*"}}
	target := grant.Target{Mode: grant.ModeLaunch, Executable: bin}
	origins := []string{"http://127.0.0.1:4010"}
	g, err := c.Grant(grant.Request{Target: target, ExecutionHash: hashA, Origins: origins})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := grant.Authorize(target, nil, c); !errors.Is(err, grant.ErrNotGranted) || !strings.Contains(err.Error(), "browser.WithGrant") {
		t.Fatalf("no grant, no auto: %v", err)
	}
	if _, err := grant.Authorize(target, nil, nil); !errors.Is(err, grant.ErrNotGranted) {
		t.Fatalf("no ceiling: %v", err)
	}
	a, err := grant.Authorize(grant.Target{Mode: grant.ModeLaunch}, g, nil)
	if err != nil || a.Target.Executable != g.Executable || a.Ceiling != nil {
		t.Fatalf("explicit grant, no path: %+v %v", a, err)
	}
	if got, err := a.ForRun(nil, hashA, origins); err != nil || got != g {
		t.Fatalf("ForRun covered: %v", err)
	}
	if _, err := a.ForRun(nil, hashB, origins); !errors.Is(err, grant.ErrNotCovered) {
		t.Fatalf("ForRun other hash: %v", err)
	}
	if _, err := a.ForRun(nil, hashA, []string{"http://127.0.0.1:4011"}); !errors.Is(err, grant.ErrNotCovered) {
		t.Fatalf("ForRun other origin: %v", err)
	}
	gb, _ := c.Grant(grant.Request{Target: target, ExecutionHash: hashB, Origins: origins})
	if got, err := a.ForRun(gb, hashB, origins); err != nil || got != gb {
		t.Fatalf("ForRun with the run's grant: %v", err)
	}
	parsed, _ := grant.Parse(mustGrantJSON(t, gb))
	if _, err := a.ForRun(parsed, hashB, origins); !errors.Is(err, grant.ErrNotGranted) {
		t.Fatalf("ForRun with an unchecked grant: %v", err)
	}
	if _, err := grant.Authorize(target, parsed, nil); !errors.Is(err, grant.ErrNotGranted) {
		t.Fatalf("Authorize with an unchecked grant: %v", err)
	}
	bin2 := exe(t, root, "chrome2")
	if _, err := grant.Authorize(grant.Target{Mode: grant.ModeLaunch, Executable: bin2}, g, nil); !errors.Is(err, grant.ErrNotCovered) {
		t.Fatalf("Authorize another executable: %v", err)
	}
	// A symlink swapped in after the grant: another executable.
	link := filepath.Join(root, "link")
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}
	lg, err := c.Grant(grant.Request{Target: grant.Target{Mode: grant.ModeLaunch, Executable: link}, ExecutionHash: hashA, Origins: origins})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := grant.Authorize(grant.Target{Mode: grant.ModeLaunch, Executable: link}, lg, nil); err != nil {
		t.Fatalf("Authorize through the symlink: %v", err)
	}
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bin2, link); err != nil {
		t.Fatal(err)
	}
	if _, err := grant.Authorize(grant.Target{Mode: grant.ModeLaunch, Executable: link}, lg, nil); !errors.Is(err, grant.ErrNotCovered) {
		t.Fatalf("Authorize after the swap: %v", err)
	}
	// Auto-grant: derived per run, marked auto, still bounded by the ceiling.
	auto := *c
	auto.AutoGrant = true
	aa, err := grant.Authorize(target, nil, &auto)
	if err != nil {
		t.Fatal(err)
	}
	ag, err := aa.ForRun(nil, hashB, origins)
	if err != nil || !ag.Auto || ag.ExecutionHash != hashB {
		t.Fatalf("auto ForRun: %+v %v", ag, err)
	}
	if _, err := aa.ForRun(nil, hashB, []string{"https://example.com"}); !errors.Is(err, grant.ErrExceedsCeiling) {
		t.Fatalf("auto ForRun beyond the ceiling: %v", err)
	}
	// An explicit driver grant that does not cover a run falls back to auto.
	ea, err := grant.Authorize(target, g, &auto)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := ea.ForRun(nil, hashB, origins); err != nil || !got.Auto {
		t.Fatalf("explicit then auto: %+v %v", got, err)
	}
	if _, err := grant.Authorize(grant.Target{Mode: grant.ModeLaunch, Executable: filepath.Join(t.TempDir(), "x")}, nil, &auto); !errors.Is(err, grant.ErrExceedsCeiling) {
		t.Fatalf("auto outside the roots: %v", err)
	}
}

func mustJSON(t *testing.T, v grant.Commitment) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func mustGrantJSON(t *testing.T, g *grant.Grant) []byte {
	t.Helper()
	raw, err := g.JSON()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestLocal(t *testing.T) {
	root := t.TempDir()
	bin := exe(t, root, "chrome")
	if _, err := grant.Local(nil, grant.LaunchTarget(bin)); !errors.Is(err, grant.ErrInvalidGrant) {
		t.Fatalf("nil capability: %v", err)
	}
	if _, err := grant.Local(nil, grant.LaunchTarget("chrome")); !errors.Is(err, grant.ErrExceedsCeiling) {
		t.Fatalf("relative: %v", err)
	}
	if _, err := grant.Local(nil, grant.ConnectTarget("ws://grid.example.com:443/x")); !errors.Is(err, grant.ErrExceedsCeiling) {
		t.Fatalf("remote endpoint: %v", err)
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "capability", "testdata", "valid", "teller_member_balances.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	h, _ := c.ExecutionHash()
	g, err := grant.Local(c, grant.LaunchTarget(bin))
	if err != nil || !g.Checked() || g.ExecutionHash != h || !reflect.DeepEqual(g.Origins, []string{"http://127.0.0.1:4010"}) || g.NetworkClass != grant.Loopback {
		t.Fatalf("local launch grant %+v %v", g, err)
	}
	if g, err := grant.Local(c, grant.ConnectTarget("ws://127.0.0.1:9222/devtools/browser/x")); err != nil || g.Endpoint != "ws://127.0.0.1:9222/devtools/browser/x" {
		t.Fatalf("local connect grant %+v %v", g, err)
	}
	public, err := capability.ParseBytes(bytes.ReplaceAll(raw, []byte("http://127.0.0.1:4010"), []byte("https://teller.example.com")))
	if err != nil {
		t.Fatal(err)
	}
	var xe *grant.ExceedError
	if _, err := grant.Local(public, grant.LaunchTarget(bin)); !errors.As(err, &xe) || xe.Field != grant.FieldNetwork {
		t.Fatalf("local grant of a public capability: %v", err)
	}
}
