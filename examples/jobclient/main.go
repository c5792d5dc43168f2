package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/vera-run/vera/examples/internal/jobservice"
	"github.com/vera-run/vera/internal/strictjson"
	"github.com/vera-run/vera/runtime/jobs"
)

// The exit codes of run (and of trial, in the seed): the run's verdict.
// status, cancel and download exit 0 when the API operation succeeded,
// whatever the run's outcome.
const (
	exitPassed      = 0
	exitUIAssertion = 2 // the run failed with ui_assertion_failed
	exitOther       = 3 // setup, infrastructure, usage or any other unsuccessful run
	exitInterrupted = 4 // interrupted by the keyboard (the remote run was cancelled)
)

// The environment.
const (
	envURL   = "VERA_JOBSERVER_URL"
	envToken = "VERA_JOBSERVER_TOKEN"
	// defaultURL is the loopback end of a port-forward to the service.
	defaultURL = "http://127.0.0.1:18081"
)

// The files a run writes into its new output folder.
const (
	handleName     = "run.json"        // the private run handle (0600): id and token
	invocationName = "invocation.json" // the service URL and the command
	receiptName    = "receipt.json"    // the terminal run document
	artifactsName  = "artifacts.json"  // each downloaded artifact's name, size and SHA-256
	artifactsDir   = "artifacts"
)

// pollWait is each status request's wait: the server answers at the next
// change, or after this.
const pollWait = 25 * time.Second

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, isTerminal(os.Stdout))
	stop()
	os.Exit(code)
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// handle is run.json: what the client needs to reach its run again. It
// holds the token; it is written 0600 and never printed.
type handle struct {
	APIVersion string    `json:"api_version"`
	ID         string    `json:"id"`
	Token      string    `json:"token"`
	ExpiresAt  time.Time `json:"expires_at"`
}

// client is one service endpoint.
type client struct {
	base string
	hc   *http.Client
}

// errUnreachable is a request that got no HTTP answer.
var errUnreachable = errors.New("service_unreachable")

// apiError is a non-2xx answer.
type apiError struct {
	status int
	doc    jobservice.ErrorDoc
}

func (e *apiError) Error() string {
	s := fmt.Sprintf("HTTP %d %s", e.status, e.doc.Error)
	if e.doc.Message != "" {
		s += ": " + e.doc.Message
	}
	for _, p := range e.doc.Problems {
		s += "\n  " + p
	}
	return s
}

// do sends one request and decodes a 2xx JSON answer into out.
func (c *client) do(ctx context.Context, method, p, token string, body []byte, out any) error {
	resp, err := c.send(ctx, method, p, token, body)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return fmt.Errorf("%w: %v", errUnreachable, err)
	}
	if resp.StatusCode/100 != 2 {
		e := &apiError{status: resp.StatusCode}
		if json.Unmarshal(raw, &e.doc) != nil {
			e.doc.Error = strings.TrimSpace(string(raw))
		}
		if resp.StatusCode == http.StatusNotFound && e.doc.Error == jobservice.ErrorNotFound {
			e.doc.Message = "wrong token, or an unknown or expired run"
		}
		return e
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("the service's answer is not JSON: %v", err)
		}
	}
	return nil
}

func (c *client) send(ctx context.Context, method, p, token string, body []byte) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+p, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set(jobservice.ProtocolHeader, jobservice.ProtocolVersion)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %v", errUnreachable, err)
	}
	return resp, nil
}

// run is the whole program; it returns the exit code. tty says whether
// stdout is a terminal (the progress line is redrawn in place only then).
func run(ctx context.Context, args []string, stdout, stderr io.Writer, tty bool) int {
	top := flag.NewFlagSet("jobclient", flag.ContinueOnError)
	top.SetOutput(stderr)
	base := os.Getenv(envURL)
	if base == "" {
		base = defaultURL
	}
	url := top.String("url", base, "the service (default $"+envURL+", else "+defaultURL+")")
	top.Usage = func() {
		fmt.Fprintln(stderr, "usage: jobclient [-url URL] preflight | trial -out DIR | run -spec FILE -out DIR | status|cancel -handle FILE | download -handle FILE [-out DIR]")
	}
	if err := top.Parse(args); err != nil || top.NArg() == 0 {
		top.Usage()
		return exitOther
	}
	c := &client{base: strings.TrimRight(*url, "/"), hc: &http.Client{}}
	cmd, rest := top.Arg(0), top.Args()[1:]
	var code int
	var err error
	switch cmd {
	case "preflight":
		code, err = c.preflight(ctx, rest, stdout, stderr)
	case "run":
		code, err = c.runCmd(ctx, append([]string{"-url", *url}, args[len(args)-len(top.Args()):]...), rest, stdout, stderr, tty)
	case "trial":
		code, err = c.trialCmd(ctx, append([]string{"-url", *url}, args[len(args)-len(top.Args()):]...), rest, stdout, stderr, tty)
	case "status", "cancel", "download":
		code, err = c.handleCmd(ctx, cmd, rest, stdout, stderr)
	default:
		top.Usage()
		return exitOther
	}
	if err != nil {
		fmt.Fprintln(stderr, "jobclient:", err)
	}
	return code
}

func (c *client) preflight(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("preflight", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return exitOther, errors.New("preflight takes no arguments")
	}
	resp, err := c.send(ctx, http.MethodGet, "/v1/preflight", "", nil)
	if err != nil {
		return exitOther, err
	}
	defer resp.Body.Close()
	var d jobservice.PreflightDoc
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&d); err != nil {
		return exitOther, fmt.Errorf("HTTP %d: not a preflight document", resp.StatusCode)
	}
	printJSON(stdout, d)
	if resp.StatusCode != http.StatusOK || !d.Available {
		return exitOther, fmt.Errorf("HTTP %d %s", resp.StatusCode, d.Error)
	}
	return exitPassed, nil
}

// inputEnv is -input-env NAME=VAR: input NAME from environment variable
// VAR (so a secret need not sit in the spec file).
type inputEnv map[string]string

func (m inputEnv) String() string { return "" }
func (m inputEnv) Set(v string) error {
	name, env, ok := strings.Cut(v, "=")
	if !ok || name == "" || env == "" {
		return errors.New("want NAME=VARIABLE")
	}
	m[name] = env
	return nil
}

// runCmd submits a spec, follows the run to its end and saves the
// receipt and artifacts in a new folder. command is what
// invocation.json records.
func (c *client) runCmd(ctx context.Context, command, args []string, stdout, stderr io.Writer, tty bool) (int, error) {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	spec := fs.String("spec", "", "the submission (a FORMAT.md §17 request; api_version is added when absent)")
	out := fs.String("out", "", "a NEW output folder (created 0700)")
	envs := inputEnv{}
	fs.Var(envs, "input-env", "NAME=VARIABLE: input NAME from the environment (repeatable)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || *spec == "" || *out == "" {
		return exitOther, errors.New("run needs -spec FILE and -out DIR")
	}
	raw, err := readLimited(*spec, 1<<20)
	if err != nil {
		return exitOther, err
	}
	var req jobservice.SubmitRequest
	if err := strictjson.Decode(raw, &req); err != nil {
		return exitOther, fmt.Errorf("%s: %v", *spec, err)
	}
	if req.APIVersion == "" {
		req.APIVersion = jobservice.APIVersion
	}
	for name, env := range envs {
		v, ok := os.LookupEnv(env)
		if !ok {
			return exitOther, fmt.Errorf("-input-env %s: $%s is not set", name, env)
		}
		if req.Inputs == nil {
			req.Inputs = map[string]any{}
		}
		req.Inputs[name] = v
	}
	body, err := json.Marshal(req)
	if err != nil {
		return exitOther, err
	}
	return c.submitAndFollow(ctx, command, body, *out, stdout, stderr, tty)
}

// trialCmd fetches the service's trial submission and runs it as is,
// like run.
func (c *client) trialCmd(ctx context.Context, command, args []string, stdout, stderr io.Writer, tty bool) (int, error) {
	fs := flag.NewFlagSet("trial", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "a NEW output folder (created 0700)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || *out == "" {
		return exitOther, errors.New("trial needs -out DIR")
	}
	var req jobservice.SubmitRequest
	if err := c.do(ctx, http.MethodGet, "/v1/trial", "", nil, &req); err != nil {
		return exitOther, err
	}
	body, err := json.Marshal(req)
	if err != nil {
		return exitOther, err
	}
	return c.submitAndFollow(ctx, command, body, *out, stdout, stderr, tty)
}

// submitAndFollow submits body, follows the run to its end and saves
// the handle, invocation, receipt and artifacts in the new folder out.
func (c *client) submitAndFollow(ctx context.Context, command []string, body []byte, out string, stdout, stderr io.Writer, tty bool) (int, error) {
	if err := newFolder(out); err != nil {
		return exitOther, err
	}
	inv := map[string]any{"service_url": c.base, "command": append([]string{"jobclient"}, command...), "started_at": time.Now().UTC()}
	if err := writePrivate(out, invocationName, inv); err != nil {
		return exitOther, err
	}
	var acc jobservice.Accepted
	if err := c.do(ctx, http.MethodPost, "/v1/runs", "", body, &acc); err != nil {
		if ctx.Err() != nil {
			return exitInterrupted, errors.New("interrupted before the run was accepted")
		}
		return exitOther, err
	}
	h := handle{APIVersion: jobservice.APIVersion, ID: acc.ID, Token: acc.Token, ExpiresAt: acc.ExpiresAt}
	if err := writePrivate(out, handleName, h); err != nil {
		return exitOther, err
	}
	fmt.Fprintf(stdout, "accepted %s (expires %s); handle %s\n", acc.ID, acc.ExpiresAt.UTC().Format(time.RFC3339), filepath.Join(out, handleName))
	d, interrupted, err := c.follow(ctx, h, stdout, tty)
	if err != nil {
		return exitOther, fmt.Errorf("%v; the run may go on: jobclient status -handle %s", err, filepath.Join(out, handleName))
	}
	if err := writePrivate(out, receiptName, d); err != nil {
		return exitOther, err
	}
	dctx := ctx
	if interrupted {
		// The keyboard ended ctx; the evidence of the cancelled run is
		// still fetched, within a bound of its own.
		var cancel context.CancelFunc
		dctx, cancel = context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
	}
	if _, err := c.download(dctx, h, d, filepath.Join(out, artifactsDir), out); err != nil {
		fmt.Fprintln(stderr, "jobclient: download:", err)
	}
	fmt.Fprintln(stdout, summary(d))
	switch {
	case interrupted:
		return exitInterrupted, nil
	case d.Status == jobs.StatePassed:
		return exitPassed, nil
	case d.Error != nil && *d.Error == jobs.CodeUIAssertionFailed:
		return exitUIAssertion, nil
	}
	return exitOther, nil
}

// follow shows the run's progress until it is terminal. When ctx ends
// first (the keyboard), it asks the service to cancel the run and
// follows it to its end for at most 30 s.
func (c *client) follow(ctx context.Context, h handle, stdout io.Writer, tty bool) (jobservice.RunDocument, bool, error) {
	p := &progressLine{w: stdout, tty: tty}
	defer p.end()
	var d jobservice.RunDocument
	var rev uint64
	interrupted := false
	var deadline time.Time
	for {
		rctx := ctx
		if interrupted {
			var cancel context.CancelFunc
			rctx, cancel = context.WithDeadline(context.Background(), deadline)
			defer cancel()
		}
		err := c.do(rctx, http.MethodGet, fmt.Sprintf("/v1/runs/%s?wait_ms=%d&after=%d", h.ID, pollWait.Milliseconds(), rev), h.Token, nil, &d)
		switch {
		case err != nil && !interrupted && ctx.Err() != nil:
			interrupted = true
			deadline = time.Now().Add(30 * time.Second)
			p.note("interrupted: cancelling " + h.ID)
			cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			err = c.do(cctx, http.MethodDelete, "/v1/runs/"+h.ID, h.Token, nil, &d)
			cancel()
			if err != nil {
				return d, true, fmt.Errorf("cancel: %w", err)
			}
			continue
		case err != nil:
			return d, interrupted, err
		}
		rev = d.Revision
		if d.Status.Terminal() {
			return d, interrupted, nil // the caller prints the summary
		}
		p.show(describe(d))
		if !interrupted && ctx.Err() != nil {
			continue // the next request fails at once and cancels
		}
	}
}

// describe is the progress line of a document.
func describe(d jobservice.RunDocument) string {
	switch d.Status {
	case jobs.StateQueued:
		return fmt.Sprintf("%s queued: position %d", d.ID, d.QueuePosition)
	case jobs.StateRunning:
		s := fmt.Sprintf("%s running: %d/%d steps done", d.ID, d.CompletedSteps, d.TotalSteps)
		if p := d.Progress; p != nil && !p.Done {
			s += fmt.Sprintf(", step %d %s (%s)", p.Index, p.Step, p.Milestone)
			if p.Viewport != "" {
				s += " in viewport " + p.Viewport
			}
		}
		for _, v := range d.Viewports {
			// Each viewport's result is recorded as soon as it ends.
			switch {
			case v.State == "":
			case v.Error != nil:
				s += fmt.Sprintf(", viewport %s %s: %s", v.Name, v.State, *v.Error)
			default:
				s += fmt.Sprintf(", viewport %s %s", v.Name, v.State)
			}
		}
		if d.CancelRequested {
			s += ", cancelling"
		}
		return s
	}
	return summary(d)
}

// summary is a terminal run's one line.
func summary(d jobservice.RunDocument) string {
	s := fmt.Sprintf("%s %s", d.ID, d.Status)
	if d.Error != nil {
		s += ": " + string(*d.Error)
		if d.Reason != "" {
			s += " (" + d.Reason + ")"
		}
	}
	if d.Outcome != "" {
		s += ", outcome " + d.Outcome
	}
	s += fmt.Sprintf(", %d/%d steps", d.CompletedSteps, d.TotalSteps)
	if d.Endpoint != "" {
		s += ", endpoint " + d.Endpoint
	}
	for _, v := range d.Viewports {
		s += fmt.Sprintf("\n  viewport %s %dx%d: ", v.Name, v.Width, v.Height)
		switch {
		case v.State == "":
			s += "not run"
		case v.Error != nil:
			s += fmt.Sprintf("%s: %s", v.State, *v.Error)
		default:
			s += string(v.State)
		}
		if v.Screenshot != "" {
			s += fmt.Sprintf(", screenshot %s (%d bytes)", v.Screenshot, v.ScreenshotBytes)
		}
	}
	return s
}

// progressLine draws progress: redrawn in place on a terminal, one line
// per change otherwise.
type progressLine struct {
	w    io.Writer
	tty  bool
	last string
	open bool // a line without its newline is on the terminal
}

func (p *progressLine) show(line string) {
	if line == p.last {
		return
	}
	p.last = line
	if p.tty {
		fmt.Fprintf(p.w, "\r\x1b[K%s", line)
		p.open = true
		return
	}
	fmt.Fprintln(p.w, line)
}

func (p *progressLine) note(line string) {
	p.end()
	fmt.Fprintln(p.w, line)
}

func (p *progressLine) end() {
	if p.open {
		fmt.Fprintln(p.w)
		p.open = false
	}
}

// downloaded is one entry of artifacts.json.
type downloaded struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// download fetches every artifact the document lists into dir (new,
// 0700; files 0600) and writes artifacts.json into listDir.
func (c *client) download(ctx context.Context, h handle, d jobservice.RunDocument, dir, listDir string) ([]downloaded, error) {
	if !d.Status.Terminal() {
		return nil, fmt.Errorf("run %s is %s: artifacts are served once it has ended", d.ID, d.Status)
	}
	if err := newFolder(dir); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	var list []downloaded
	for _, a := range d.Artifacts {
		if !fs.ValidPath(a.Name) || path.Clean(a.Name) != a.Name {
			return list, fmt.Errorf("artifact name %q is not a local path", a.Name)
		}
		got, err := c.fetchArtifact(ctx, h, a, root)
		if err != nil {
			return list, err
		}
		list = append(list, got)
	}
	if err := writePrivate(listDir, artifactsName, list); err != nil {
		return list, err
	}
	return list, nil
}

func (c *client) fetchArtifact(ctx context.Context, h handle, a jobs.Artifact, root *os.Root) (downloaded, error) {
	resp, err := c.send(ctx, http.MethodGet, "/v1/runs/"+h.ID+"/artifacts/"+a.Name, h.Token, nil)
	if err != nil {
		return downloaded{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return downloaded{}, fmt.Errorf("artifact %s: HTTP %d", a.Name, resp.StatusCode)
	}
	if d := path.Dir(a.Name); d != "." {
		if err := root.MkdirAll(filepath.FromSlash(d), 0o700); err != nil {
			return downloaded{}, err
		}
	}
	f, err := root.OpenFile(filepath.FromSlash(a.Name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return downloaded{}, err
	}
	hs := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, hs), io.LimitReader(resp.Body, a.Size+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return downloaded{}, fmt.Errorf("artifact %s: %w", a.Name, err)
	}
	if n != a.Size {
		return downloaded{}, fmt.Errorf("artifact %s: %d bytes, the run lists %d", a.Name, n, a.Size)
	}
	return downloaded{Name: a.Name, Size: n, SHA256: "sha256:" + hex.EncodeToString(hs.Sum(nil))}, nil
}

// handleCmd is status, cancel and download: one API operation on a run
// named by -handle (run.json) or by -id with the token in the
// environment.
func (c *client) handleCmd(ctx context.Context, cmd string, args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	hpath := fs.String("handle", "", "the run handle ("+handleName+" of a run's output folder)")
	id := fs.String("id", "", "the run id, with the token in $"+envToken+" (instead of -handle)")
	out := fs.String("out", "", "download: a NEW folder for the artifacts (default: "+artifactsDir+"-<time> beside the handle)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || (*hpath == "") == (*id == "") {
		return exitOther, fmt.Errorf("%s needs -handle FILE or -id ID", cmd)
	}
	var h handle
	if *hpath != "" {
		var err error
		if h, err = readHandle(*hpath); err != nil {
			return exitOther, err
		}
	} else {
		h = handle{ID: *id, Token: os.Getenv(envToken)}
		if h.Token == "" {
			return exitOther, fmt.Errorf("-id needs the run token in $%s", envToken)
		}
	}
	var d jobservice.RunDocument
	switch cmd {
	case "status":
		if err := c.do(ctx, http.MethodGet, "/v1/runs/"+h.ID, h.Token, nil, &d); err != nil {
			return exitOther, err
		}
		printJSON(stdout, d)
	case "cancel":
		if err := c.do(ctx, http.MethodDelete, "/v1/runs/"+h.ID, h.Token, nil, &d); err != nil {
			return exitOther, err
		}
		printJSON(stdout, d)
	case "download":
		if err := c.do(ctx, http.MethodGet, "/v1/runs/"+h.ID, h.Token, nil, &d); err != nil {
			return exitOther, err
		}
		dir := *out
		if dir == "" {
			base := "."
			if *hpath != "" {
				base = filepath.Dir(*hpath)
			}
			dir = filepath.Join(base, artifactsDir+"-"+time.Now().UTC().Format("20060102T150405Z"))
		}
		list, err := c.download(ctx, h, d, dir, dir)
		if err != nil {
			return exitOther, err
		}
		for _, a := range list {
			fmt.Fprintf(stdout, "%s  %d  %s\n", a.SHA256, a.Size, filepath.Join(dir, filepath.FromSlash(a.Name)))
		}
	}
	return exitPassed, nil
}

// readHandle reads run.json, refusing one that others can read.
func readHandle(p string) (handle, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return handle{}, err
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return handle{}, fmt.Errorf("%s is readable by others (mode %v): it holds the run's token; chmod 600 it", p, fi.Mode().Perm())
	}
	raw, err := readLimited(p, 1<<16)
	if err != nil {
		return handle{}, err
	}
	var h handle
	if err := json.Unmarshal(raw, &h); err != nil || h.ID == "" || h.Token == "" {
		return handle{}, fmt.Errorf("%s is not a run handle", p)
	}
	return h, nil
}

// newFolder creates dir (0700, its parents too); dir must not exist.
func newFolder(dir string) error {
	if err := os.MkdirAll(filepath.Dir(filepath.Clean(dir)), 0o700); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s exists: use a new output folder for each invocation", dir)
		}
		return err
	}
	return nil
}

// writePrivate writes v as indented JSON to dir/name (0600, new file).
func writePrivate(dir, name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func readLimited(p string, max int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(raw)) > max {
		return nil, fmt.Errorf("%s is above %d bytes", p, max)
	}
	return raw, nil
}

func printJSON(w io.Writer, v any) {
	b, _ := json.MarshalIndent(v, "", "  ")
	fmt.Fprintf(w, "%s\n", b)
}
