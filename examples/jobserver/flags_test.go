package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEndpointFlagRefused: the bad cases of -endpoint
// NAME=URL[,slots=N]; no error quotes the URL (it may hold a
// credential).
func TestEndpointFlagRefused(t *testing.T) {
	for _, v := range []string{
		"",
		"=ws://127.0.0.1:9222/x",
		"noequals",
		"a b=ws://127.0.0.1:9222",
		"a/b=ws://127.0.0.1:9222",
		strings.Repeat("a", 65) + "=ws://127.0.0.1:9222",
		"local-0=ws://127.0.0.1:9222",
		"a=",
		"a=,slots=2",
		"a=127.0.0.1:9222",
		"a=ftp://127.0.0.1:9222",
		"a=file:///tmp/x",
		"a=ws://",
		"a=WS://127.0.0.1:9222",
		"a=ws:127.0.0.1:9222",
		"a=ws:///devtools/browser/x",
		"a=http://:9222",
		"a=ws://127.0.0.1:9222/%zz",
		"a=ws://127.0.0.1:9222,",
		"a=ws://127.0.0.1:9222,slots=",
		"a=ws://127.0.0.1:9222,slots=0",
		"a=ws://127.0.0.1:9222,slots=-1",
		"a=ws://127.0.0.1:9222,slots=65",
		"a=ws://127.0.0.1:9222,slots=02",
		"a=ws://127.0.0.1:9222,slots=+2",
		"a=ws://127.0.0.1:9222,slots=2x",
		"a=ws://127.0.0.1:9222,slots=2,slots=3",
		"a=ws://127.0.0.1:9222,slot=2",
		"a=ws://127.0.0.1:9222,weight=2",
	} {
		var f endpointFlags
		err := f.Set(v)
		if err == nil || len(f) != 0 {
			t.Errorf("%q: accepted as %+v", v, f)
			continue
		}
		if _, u, ok := strings.Cut(v, "="); ok && len(u) > 3 && strings.Contains(err.Error(), u) {
			t.Errorf("%q: the error quotes the URL: %v", v, err)
		}
	}
	var f endpointFlags
	if err := f.Set("a=ws://127.0.0.1:9222/devtools/browser/x"); err != nil {
		t.Fatal(err)
	}
	if err := f.Set("a=http://127.0.0.1:9223"); err == nil {
		t.Error("a name given twice is accepted")
	}
	for _, v := range []string{"b=http://127.0.0.1:9223,slots=3", "pod.c_1=wss://grid.example:443/session?token=x", "d=https://[::1]:9224,slots=64"} {
		if err := f.Set(v); err != nil {
			t.Errorf("%q: %v", v, err)
		}
	}
	want := []remoteEndpoint{{"a", "ws://127.0.0.1:9222/devtools/browser/x", 1}, {"b", "http://127.0.0.1:9223", 3},
		{"pod.c_1", "wss://grid.example:443/session?token=x", 1}, {"d", "https://[::1]:9224", 64}}
	if len(f) != len(want) {
		t.Fatalf("parsed %+v", f)
	}
	for i := range want {
		if f[i] != want[i] {
			t.Errorf("endpoint %d: %+v, want %+v", i, f[i], want[i])
		}
	}
}

// TestPoolUsageRefused: flags that do not go with a pool are usage
// errors before anything starts (no browser, no state folder).
func TestPoolUsageRefused(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	ep := "a=ws://127.0.0.1:9/devtools/browser/x"
	for _, args := range [][]string{
		{"-endpoint", ep, "-connect", "ws://127.0.0.1:9/x"},
		{"-browsers", "2", "-connect", "ws://127.0.0.1:9/x"},
		{"-endpoint", ep, "-active", "2"},
		{"-browsers", "2", "-active", "1"},
		{"-endpoint", ep, "-browser", "/usr/bin/chromium"},
		{"-browsers", "-1"},
		{"-browsers", "17"},
		{"-browsers", "x"},
		{"-endpoint", "a=ftp://x"},
		{"-endpoint", ep, "-endpoint", ep},
	} {
		err := run(context.Background(), append([]string{"-state", state}, args...), io.Discard, nil)
		if !errors.Is(err, errUsage) {
			t.Errorf("%q: %v", args, err)
		}
	}
	if _, err := os.Stat(state); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused start made the state folder: %v", err)
	}
}

// FuzzEndpointFlag: -endpoint never panics, and what it accepts keeps
// the rules (name, scheme, host, slots).
func FuzzEndpointFlag(f *testing.F) {
	for _, s := range []string{"a=ws://127.0.0.1:9222/devtools/browser/x", "b=http://127.0.0.1:9223,slots=3", "a=", "=,", "a=ws://x,slots=0",
		"a=ws://[::1]:1,slots=64", "local-1=ws://x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		var fl endpointFlags
		if err := fl.Set(v); err != nil {
			if len(fl) != 0 {
				t.Fatalf("%q: refused but kept %+v", v, fl)
			}
			return
		}
		if len(fl) != 1 {
			t.Fatalf("%q: %d endpoints", v, len(fl))
		}
		e := fl[0]
		if !endpointName.MatchString(e.name) || strings.HasPrefix(e.name, "local-") || e.slots < 1 || e.slots > maxSlots ||
			strings.Contains(e.url, ",") || !(strings.HasPrefix(e.url, "ws://") || strings.HasPrefix(e.url, "wss://") ||
			strings.HasPrefix(e.url, "http://") || strings.HasPrefix(e.url, "https://")) {
			t.Fatalf("%q: accepted as %+v", v, e)
		}
	})
}
