package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vera-run/vera/examples/internal/exampletest"
	"github.com/vera-run/vera/internal/livetest"
)

// envChild makes the test binary the server: it runs run with the
// arguments in envArgs (JSON) on its own stdio and exits.
const (
	envChild = "VERA_MCPSERVER_TEST_CHILD"
	envArgs  = "VERA_MCPSERVER_TEST_ARGS"
)

func TestMain(m *testing.M) {
	if os.Getenv(envChild) == "1" {
		var args []string
		if err := json.Unmarshal([]byte(os.Getenv(envArgs)), &args); err != nil {
			os.Exit(2)
		}
		if err := run(context.Background(), args, os.Stderr); err != nil {
			os.Stderr.WriteString("mcpserver: " + err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	exampletest.Main(m)
}

const password = "teller-pass-stdio-never-echoed"

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"-bundles"}, {"-bundles", "x", "extra"}, {"-bundles", "x", "-connect", "ws://x", "-browser", "y"}} {
		if err := run(context.Background(), args, &bytes.Buffer{}); !errors.Is(err, errUsage) {
			t.Errorf("%q: %v", args, err)
		}
	}
}

// TestStdio serves a sealed teller bundle and a tampered copy from a real
// server process over stdio, to the SDK's client, with the calls run in a
// real Chromium.
func TestStdio(t *testing.T) {
	site, chrome := livetest.TellerAndChromium(t)

	dir := t.TempDir()
	sealed := livetest.SealTeller(t, site, chrome, filepath.Join("..", "quickstart", "teller.capability.json"), password, dir)
	tampered := filepath.Join(dir, "tampered.bundle")
	if err := os.CopyFS(tampered, os.DirFS(sealed)); err != nil {
		t.Fatal(err)
	}
	capPath := filepath.Join(tampered, "capability.json")
	raw, _ := os.ReadFile(capPath)
	if err := os.WriteFile(capPath, bytes.Replace(raw, []byte("Numeric ID"), []byte("Numeric Id"), 1), 0o600); err != nil {
		t.Fatal(err)
	}

	args, _ := json.Marshal([]string{"-bundles", dir, "-connect", chrome.Endpoint(), "-runs", t.TempDir()})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envChild+"=1", envArgs+"="+string(args))
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	var mu sync.Mutex
	var progress []string
	client := mcp.NewClient(&mcp.Implementation{Name: "stdio-test", Version: "v0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			progress = append(progress, r.Params.Message)
			mu.Unlock()
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v; server stderr:\n%s", err, stderr.String())
	}
	defer func() {
		cs.Close()
		t.Logf("server stderr:\n%s", stderr.String())
	}()

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "teller.member-balances" {
		t.Fatalf("tools %+v", list.Tools)
	}
	var in map[string]any
	b, _ := json.Marshal(list.Tools[0].InputSchema)
	_ = json.Unmarshal(b, &in)
	if !reflect.DeepEqual(in["required"], []any{"username", "password", "member_id"}) ||
		in["properties"].(map[string]any)["password"].(map[string]any)["writeOnly"] != true {
		t.Errorf("input schema %s", b)
	}

	p := &mcp.CallToolParams{Name: "teller.member-balances", Arguments: map[string]any{"username": "teller.demo", "password": password, "member_id": "100234"}}
	p.SetProgressToken(1)
	res, err := cs.CallTool(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(res)
	var got struct {
		Status  string                    `json:"status"`
		Outputs map[string]map[string]any `json:"outputs"`
	}
	sc, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(sc, &got)
	if res.IsError || got.Status != "completed" || got.Outputs["balances"]["savings"] != "$12,480.55" {
		t.Fatalf("result %s", out)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(progress) == 0 {
		t.Error("no progress notification")
	}
	if strings.Contains(string(out), password) || strings.Contains(strings.Join(progress, "\n"), password) {
		t.Error("the secret input reached the client")
	}
	if !strings.Contains(stderr.String(), "rejected") || !strings.Contains(stderr.String(), "tampered.bundle") {
		t.Errorf("the tampered bundle was not reported: %s", stderr.String())
	}
}

// lockedBuffer is a bytes.Buffer safe for the exec copy goroutine writing
// the server's stderr while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
