//go:build benchcmp

package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"time"
)

// playwright is the playwright-core side: one long-lived Node process
// (playwright/flow.mjs) connected over CDP to the benchmark's Chromium,
// answering one JSON line per request.
type playwright struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// errSkip says why the playwright-core side does not run.
type errSkip struct{ why string }

func (e *errSkip) Error() string { return e.why }

// scriptDir is the folder of flow.mjs: -playwright, else the folder next
// to this source file (go run keeps the path it was compiled from).
func scriptDir(flagDir string) string {
	if flagDir != "" {
		return flagDir
	}
	_, file, _, ok := goruntime.Caller(0)
	if !ok {
		return "playwright"
	}
	return filepath.Join(filepath.Dir(file), "playwright")
}

// startPlaywright starts the Node side, or returns an *errSkip when Node
// or the installed playwright-core package is missing.
func startPlaywright(dir, cdpHTTP string) (*playwright, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, &errSkip{"node is not installed (PATH has no node)"}
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "playwright-core", "package.json")); err != nil {
		return nil, &errSkip{fmt.Sprintf("playwright-core is not installed: run npm install in %s", dir)}
	}
	cmd := exec.Command(node, "flow.mjs", cdpHTTP)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	return &playwright{cmd: cmd, in: in, out: sc}, nil
}

// pwAnswer is one answer line of flow.mjs.
type pwAnswer struct {
	MS       float64 `json:"ms"`
	NavMS    float64 `json:"nav_ms"`
	RenderMS float64 `json:"render_ms"`
	Count    int     `json:"count"`
	Savings  string  `json:"savings"`
	Error    string  `json:"error"`
}

func (p *playwright) ask(req map[string]any) (pwAnswer, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return pwAnswer{}, err
	}
	if _, err := p.in.Write(append(b, '\n')); err != nil {
		return pwAnswer{}, fmt.Errorf("playwright: %w", err)
	}
	if !p.out.Scan() {
		err := p.out.Err()
		if err == nil {
			err = errors.New("the node process ended")
		}
		return pwAnswer{}, fmt.Errorf("playwright: %w", err)
	}
	var a pwAnswer
	if err := json.Unmarshal(p.out.Bytes(), &a); err != nil {
		return pwAnswer{}, fmt.Errorf("playwright: answer %q: %w", p.out.Text(), err)
	}
	if a.Error != "" {
		return pwAnswer{}, fmt.Errorf("playwright: %s", a.Error)
	}
	return a, nil
}

// pwBatch is the answer line of a batch request.
type pwBatch struct {
	WallMS float64 `json:"wall_ms"`
	Flows  []struct {
		MS       float64 `json:"ms"`
		Name     string  `json:"name"`
		Savings  string  `json:"savings"`
		Checking string  `json:"checking"`
		Error    string  `json:"error"`
	} `json:"flows"`
	Error string `json:"error"`
}

// askBatch sends one batch request and decodes its answer.
func (p *playwright) askBatch(req map[string]any) (pwBatch, error) {
	b, err := json.Marshal(req)
	if err != nil {
		return pwBatch{}, err
	}
	if _, err := p.in.Write(append(b, '\n')); err != nil {
		return pwBatch{}, fmt.Errorf("playwright: %w", err)
	}
	if !p.out.Scan() {
		err := p.out.Err()
		if err == nil {
			err = errors.New("the node process ended")
		}
		return pwBatch{}, fmt.Errorf("playwright: %w", err)
	}
	var a pwBatch
	if err := json.Unmarshal(p.out.Bytes(), &a); err != nil {
		return pwBatch{}, fmt.Errorf("playwright: answer %q: %w", p.out.Text(), err)
	}
	if a.Error != "" {
		return pwBatch{}, fmt.Errorf("playwright: %s", a.Error)
	}
	return a, nil
}

func ms(f float64) time.Duration { return time.Duration(f * float64(time.Millisecond)) }

// close asks the script to disconnect and waits for it (at most 10 s,
// then it is killed).
func (p *playwright) close() {
	_, _ = p.in.Write([]byte(`{"op":"quit"}` + "\n"))
	_ = p.in.Close()
	done := make(chan struct{})
	go func() { _ = p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = p.cmd.Process.Kill()
		<-done
	}
}
