package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
	"github.com/vera-run/vera/runtime/grant"
	"github.com/vera-run/vera/runtime/provider"
)

//go:embed compose.capability.json
var composeCapability []byte

// placeholderOrigin is the origin compose.capability.json was written
// against; the served site listens on a random loopback port instead.
const placeholderOrigin = "http://127.0.0.1:4010"

// gateID is the host's review gate for the post.
const gateID = "gate_post_review"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "provider:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// errUsage marks command-line mistakes (exit status 2).
var errUsage = errors.New("usage")

// run is the whole program; main only wires signals and the exit status.
func run(ctx context.Context, args []string, stdout io.Writer) (err error) {
	fs := flag.NewFlagSet("provider", flag.ContinueOnError)
	fs.SetOutput(stdout)
	browserPath := fs.String("browser", "", "Chrome or Chromium executable (default: $"+browser.EnvBrowser+", then the usual install locations)")
	outDir := fs.String("out", "", "new or empty output folder for runs and the key store (default: a new folder under "+os.TempDir()+")")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected arguments %q", errUsage, fs.Args())
	}
	bin, err := browser.FindBrowser(*browserPath)
	if err != nil {
		return fmt.Errorf("%w\n  to fix: %s, or pass -browser PATH", err, browser.InstallHint)
	}
	out, err := prepareOut(*outDir)
	if err != nil {
		return err
	}
	runs := filepath.Join(out, "runs")
	if err := os.Mkdir(runs, 0o700); err != nil {
		return err
	}
	storeDir := filepath.Join(out, "keys")

	site, err := testsite.StartTeller()
	if err != nil {
		return fmt.Errorf("site: %w", err)
	}
	defer site.Close()
	fmt.Fprintf(stdout, "output folder  %s\ncomposer       %s%s\n", out, site.URL(), testsite.ComposePath)

	c, err := loadCapability(site.Origin())
	if err != nil {
		return err
	}
	g, err := grant.Local(c, grant.LaunchTarget(bin)) // the grant: this launch, this capability, loopback origins only
	if err != nil {
		return err
	}
	launch := func(ctx context.Context) (runtime.Driver, error) {
		return browser.Launch(ctx, browser.WithGrant(g))
	}
	profile, _, err := provider.NewProfile(ctx, launch)
	if err != nil {
		return fmt.Errorf("profile: %w", err)
	}
	pj, _ := json.Marshal(profile.Primitives)
	fmt.Fprintf(stdout, "profile        %s ready=%v %s %s\n", profile.ProviderID, profile.Runtime.Ready, profile.Runtime.Browser, pj)

	d, err := browser.Launch(ctx, browser.WithGrant(g))
	if err != nil {
		return fmt.Errorf("browser: %w", err)
	}
	defer func() {
		if cerr := d.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	gates := &provider.Gates{}
	if err := gates.Set(provider.GateState{GateID: gateID, Revision: 4, Status: provider.GatePending}); err != nil {
		return err
	}
	store, err := provider.OpenFileStore(storeDir)
	if err != nil {
		return err
	}
	defer store.Close()

	// 1. The draft request.
	draft, err := request(c, "draft_until_review_gate", provider.EffectDraft, 4, provider.GatePending)
	if err != nil {
		return err
	}
	o, err := provider.Run(ctx, draft, c, gates, runtime.WithDriver(d), runtime.WithRunDir(runs))
	if err != nil {
		return fmt.Errorf("draft run: %w", err)
	}
	fmt.Fprintf(stdout, "1. draft        stop_reason=%s final_action_clicked=%v publications=%d\n   decision      %s\n",
		o.Receipt.StopReason, o.Receipt.ObservedFacts.FinalActionClicked, site.Publishes(), o.Decision)
	if o.Receipt.StopReason != provider.StopAtGate || site.Publishes() != 0 {
		return errors.New("the draft request did not stop at the gate with nothing published")
	}
	// 2. The host validates it.
	if err := validate(ctx, stdout, "2. validated   ", o.Receipt, draft, gates, store); err != nil {
		return err
	}
	// 3. The owner approves: a new revision, open.
	if err := gates.Set(provider.GateState{GateID: gateID, Revision: 5, Status: provider.GateOpen}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "3. approved     gate %s revision 5 open\n", gateID)
	// 4. The re-issued request.
	publish, err := request(c, "publish_after_review", provider.EffectExternalWrite, 5, provider.GateOpen)
	if err != nil {
		return err
	}
	o, err = provider.Run(ctx, publish, c, gates, runtime.WithDriver(d), runtime.WithRunDir(runs))
	if err != nil {
		return fmt.Errorf("publish run: %w", err)
	}
	fmt.Fprintf(stdout, "4. publish      stop_reason=%s final_action_clicked=%v publications=%d\n",
		o.Receipt.StopReason, o.Receipt.ObservedFacts.FinalActionClicked, site.Publishes())
	if o.Receipt.StopReason != provider.StopCompleted || site.Publishes() != 1 {
		return errors.New("the approved request did not publish exactly once")
	}
	if err := validate(ctx, stdout, "   validated   ", o.Receipt, publish, gates, store); err != nil {
		return err
	}
	// 5. A replay is refused, before and after a restart of the store.
	if err := refuseReplay(ctx, stdout, "5. replay      ", o.Receipt, publish, gates, store); err != nil {
		return err
	}
	reopened, err := provider.OpenFileStore(storeDir)
	if err != nil {
		return err
	}
	defer reopened.Close()
	if err := refuseReplay(ctx, stdout, "   after restart", o.Receipt, publish, gates, reopened); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "ok")
	return nil
}

// request builds the host's action request for c.
func request(c *capability.Capability, unit string, class provider.EffectClass, rev int64, status provider.GateStatus) (*provider.ActionRequest, error) {
	h, err := c.ExecutionHash()
	if err != nil {
		return nil, err
	}
	allowed := []string{"fill-title", "fill-body", "save-draft"}
	forbidden := []provider.EffectClass{provider.EffectExternalWrite, provider.EffectCredentialUse}
	if class == provider.EffectExternalWrite {
		allowed = append(allowed, "publish-post")
		forbidden = []provider.EffectClass{provider.EffectCredentialUse}
	}
	return &provider.ActionRequest{
		SchemaVersion: provider.SchemaRequest,
		GoalID:        "goal_spring_post", TodoID: "todo_publish_post", ProviderID: provider.ProviderID,
		ActionUnit: unit, EffectClass: class,
		WriteScope:       provider.WriteScope{AllowedActions: allowed, ForbiddenEffectClasses: forbidden},
		GateBinding:      &provider.GateBinding{GateID: gateID, Revision: rev, Status: status},
		StopCondition:    "stop at the publish gate or an unknown modal",
		ValidationTarget: "the draft is saved; publish happens only after approval",
		Capability:       provider.CapabilityRef{ID: c.ID, Version: c.Version, ExecutionHash: h},
		Inputs:           map[string]any{"title": "Spring update", "body": "We moved to a new office."},
	}, nil
}

// validate judges r as the host does, against the current gate state.
func validate(ctx context.Context, stdout io.Writer, label string, r *provider.Receipt, req *provider.ActionRequest, gates *provider.Gates, store provider.KeyStore) error {
	raw, err := json.Marshal(r)
	if err != nil {
		return err
	}
	cur, err := gates.GateState(ctx, gateID)
	if err != nil {
		return err
	}
	rep, err := provider.ValidateReceipt(ctx, raw, req, &cur, store)
	if err != nil {
		return fmt.Errorf("receipt rejected: %w", err)
	}
	fmt.Fprintf(stdout, "%s accepted=%v key=%s\n", label, rep.Accepted, rep.IdempotencyKey)
	return nil
}

// refuseReplay submits r again and requires the store to refuse it.
func refuseReplay(ctx context.Context, stdout io.Writer, label string, r *provider.Receipt, req *provider.ActionRequest, gates *provider.Gates, store provider.KeyStore) error {
	raw, err := json.Marshal(r)
	if err != nil {
		return err
	}
	cur, err := gates.GateState(ctx, gateID)
	if err != nil {
		return err
	}
	_, err = provider.ValidateReceipt(ctx, raw, req, &cur, store)
	if !errors.Is(err, provider.CodeReplayed) {
		return fmt.Errorf("a replayed receipt was not refused: %v", err)
	}
	fmt.Fprintf(stdout, "%s refused: %s\n", label, provider.CodeReplayed)
	return nil
}

// prepareOut returns the output folder: dir when it is new or empty
// (created 0700), else a new folder under os.TempDir().
func prepareOut(dir string) (string, error) {
	if dir == "" {
		return os.MkdirTemp("", "vera-provider-")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	if len(ents) > 0 {
		return "", fmt.Errorf("%w: -out %s is not empty; name a new folder", errUsage, dir)
	}
	return filepath.Abs(dir)
}

// loadCapability parses compose.capability.json rebased onto origin.
func loadCapability(origin string) (*capability.Capability, error) {
	if !bytes.Contains(composeCapability, []byte(placeholderOrigin)) {
		return nil, fmt.Errorf("compose.capability.json does not name the placeholder origin %s", placeholderOrigin)
	}
	c, err := capability.ParseBytes(bytes.ReplaceAll(composeCapability, []byte(placeholderOrigin), []byte(origin)))
	if err != nil {
		return nil, fmt.Errorf("compose.capability.json: %w", err)
	}
	if problems := c.ValidateForExecution(); len(problems) > 0 {
		return nil, fmt.Errorf("compose.capability.json: %w", problems)
	}
	return c, nil
}
