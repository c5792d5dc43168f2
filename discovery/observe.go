package discovery

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Observe runs one discovery session on a live page and returns its
// evidence (browser-discovery-evidence/v1).
//
// In [ModeGuided] (the default) it polls page.Snapshot at most once per
// min interval while the operator demonstrates the process, and records a
// baseline (the first snapshot's controls) and then, for every snapshot
// that differs from the previous one, an observation with the controls
// that appeared, disappeared or changed state (before and after) and the
// URL path before and after. It never acts on the page. The demonstration
// ends when the [WithStop] channel closes, the snapshot budget is spent,
// the session bound elapses or the evidence size bound would be exceeded.
//
// In [ModeAutonomous] it takes a baseline and asks the [Explorer] for steps;
// in [ModeHybrid] the guided phase runs first and exploration follows when
// it ends. A step runs only when [CheckStep] accepts it and the page
// implements [Actor]; a refused step is recorded as a [Refusal] and shown
// to the explorer, never executed. After every step an explore
// observation is recorded. Exploration ends when the explorer returns
// [StepDone], the step or refusal budget is spent, the session bound
// elapses, or an action left the allowed origins.
//
// Everything recorded is redacted first (see [RedactText] and the package
// documentation) and the returned evidence always passes
// [Evidence.Validate]. A snapshot that fails is counted and retried; after
// [MaxConsecutiveSnapshotErrors] failures in a row Observe ends with
// [ErrSnapshot] (failures wrapping [ErrPageBusy] never end it). When ctx ends, when the explorer fails or when snapshots
// keep failing, Observe returns the evidence recorded so far (with the
// matching end reason) together with the error. Invalid options return
// (nil, [ErrInvalidOption]).
func Observe(ctx context.Context, page Page, opts ...Option) (*Evidence, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	cfg, err := buildConfig(opts)
	if err != nil {
		return nil, err
	}
	if page == nil {
		return nil, fmt.Errorf("%w: nil page", ErrInvalidOption)
	}
	o := newObserver(cfg, page)
	cfg.logger.Info("discovery: session started", "mode", cfg.mode, "run_id", o.ev.RunID)
	switch cfg.mode {
	case ModeGuided:
		err = o.guided(ctx)
	case ModeAutonomous:
		err = o.explore(ctx)
	case ModeHybrid:
		if err = o.guided(ctx); err == nil && o.ev.EndReason != EndMaxDuration && o.ev.EndReason != EndMaxEvidence {
			err = o.explore(ctx)
		}
	}
	ev := o.finish(err)
	cfg.logger.Info("discovery: session ended", "run_id", ev.RunID, "end_reason", ev.EndReason,
		"snapshots", ev.Snapshots, "observations", len(ev.Observations), "refusals", len(ev.Refusals),
		"redactions", ev.Redactions.Total())
	if verr := ev.Validate(); verr != nil {
		// A broken invariant must never leave the library as evidence.
		return nil, fmt.Errorf("discovery: internal error: evidence failed validation: %w", verr)
	}
	return ev, err
}

type observer struct {
	cfg      *config
	page     Page
	z        sanitizer
	counts   RedactionCounts
	ev       *Evidence
	start    time.Time
	deadline time.Time
	prev     *Snapshot
	size     int
	origins  map[string]bool
	errRun   int
	refused  int
	lastRef  *Refusal
}

func newObserver(cfg *config, page Page) *observer {
	o := &observer{cfg: cfg, page: page, origins: map[string]bool{}}
	o.counts.Identifiers = map[string]int{}
	o.z = sanitizer{maxString: cfg.maxStringLen, maxControls: cfg.maxControls, allowed: cfg.allowedSet(), counts: &o.counts}
	o.start = cfg.clock()
	o.deadline = o.start.Add(cfg.maxDuration)
	o.ev = &Evidence{
		Schema:    EvidenceSchema,
		RunID:     newRunID(),
		Mode:      cfg.mode,
		StartedAt: o.start.UTC().Format(time.RFC3339Nano),
		Limits: EvidenceLimits{
			MinIntervalMS:    cfg.minInterval.Milliseconds(),
			MaxSnapshots:     cfg.maxSnapshots,
			MaxControls:      cfg.maxControls,
			MaxStringLen:     cfg.maxStringLen,
			MaxFrames:        cfg.maxFrames,
			MaxSteps:         cfg.maxSteps,
			MaxEvidenceBytes: cfg.maxEvidenceBytes,
		},
		Site:         EvidenceSite{AllowedOrigins: slices.Clone(cfg.allowed)},
		Observations: []ObservationStep{},
		Refusals:     []Refusal{},
	}
	// The fixed part of the document counts against the size bound.
	if b, err := json.Marshal(o.ev); err == nil {
		o.size = len(b) + 4096
	}
	return o
}

// runIDAlphabet has no vowels and no 'x': short consonant groups spell no
// word and no known credential prefix (such as "xoxr-").
const runIDAlphabet = "bcdfghjkmnpqrstvwz"

// newRunID returns "run-" and four hyphen-separated groups of four random
// letters of runIDAlphabet: no identifier or secret detector can match it
// (a 16-letter run could read as an omocodic codice fiscale, a group like
// "xoxr" as a token prefix).
func newRunID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	out := make([]byte, 0, 4+len(b)+3)
	out = append(out, "run"...)
	for i, c := range b {
		if i%4 == 0 {
			out = append(out, '-')
		}
		out = append(out, runIDAlphabet[int(c)%len(runIDAlphabet)])
	}
	return string(out)
}

func (o *observer) finish(err error) *Evidence {
	ev := o.ev
	switch {
	case err == nil:
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		ev.EndReason = EndCanceled
	case errors.Is(err, ErrSnapshot):
		ev.EndReason = EndSnapshotFailed
	case errors.Is(err, ErrExplorer):
		ev.EndReason = EndExplorerFailed
	}
	if ev.EndReason == "" {
		ev.EndReason = EndStopped
	}
	end := o.cfg.clock()
	if end.Before(o.start) {
		end = o.start
	}
	ev.EndedAt = end.UTC().Format(time.RFC3339Nano)
	ev.Redactions = o.counts.clone()
	ev.Site.Origins = make([]string, 0, len(o.origins))
	for og := range o.origins {
		ev.Site.Origins = append(ev.Site.Origins, og)
	}
	slices.Sort(ev.Site.Origins)
	return ev
}

// stopped reports whether the operator's stop channel is closed.
func (o *observer) stopped() bool {
	if o.cfg.stop == nil {
		return false
	}
	select {
	case <-o.cfg.stop:
		return true
	default:
		return false
	}
}

// sleepUntil waits until t. It returns ctx.Err() when ctx ends first, and
// reports whether the stop channel closed (when watchStop).
func (o *observer) sleepUntil(ctx context.Context, t time.Time, watchStop bool) (stop bool, err error) {
	d := time.Until(t)
	if d <= 0 {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		return watchStop && o.stopped(), nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	var stopCh <-chan struct{}
	if watchStop {
		stopCh = o.cfg.stop
	}
	select {
	case <-ctx.Done():
		return false, ctx.Err()
	case <-stopCh:
		return true, nil
	case <-timer.C:
		return false, nil
	}
}

func (o *observer) expired() bool { return !o.cfg.clock().Before(o.deadline) }

// take takes one snapshot. It returns (nil, nil) after a transient failure.
func (o *observer) take(ctx context.Context) (*Snapshot, error) {
	raw, err := o.page.Snapshot(ctx, o.cfg.limits())
	o.ev.Snapshots++
	if err == nil && raw == nil {
		err = errors.New("page returned no snapshot")
	}
	if o.cfg.hooks.SnapshotTaken != nil {
		o.cfg.hooks.SnapshotTaken(o.ev.Snapshots, err)
	}
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		o.ev.SnapshotErrors++
		if errors.Is(err, ErrPageBusy) {
			o.cfg.logger.Debug("discovery: page busy")
			return nil, nil
		}
		o.errRun++
		o.cfg.logger.Debug("discovery: snapshot failed", "in_a_row", o.errRun)
		if o.errRun >= MaxConsecutiveSnapshotErrors {
			return nil, fmt.Errorf("%w: %d failures in a row, last: %w", ErrSnapshot, o.errRun, err)
		}
		return nil, nil
	}
	o.errRun = 0
	return o.z.snapshot(raw), nil
}

// record records snap as an observation when it is the first, differs from
// the previous one, or follows an exploration step. It returns false when
// the evidence size bound would be exceeded (nothing is recorded then).
func (o *observer) record(snap *Snapshot, kind ObservationKind, step *StepRecord) bool {
	obs := ObservationStep{Kind: kind, Step: step}
	if o.prev == nil {
		obs.Kind = KindBaseline
		obs.Step = nil
		obs.Controls = snap.Controls
		obs.Frames = snap.Frames
	} else {
		d := diffControls(o.prev.Controls, snap.Controls)
		pathChanged := o.prev.URLPath != snap.URLPath || o.prev.Origin != snap.Origin || o.prev.OutOfScope != snap.OutOfScope
		framesChanged := !framesEqual(o.prev.Frames, snap.Frames)
		if d.empty() && !pathChanged && !framesChanged && step == nil {
			o.prev = snap
			return true
		}
		obs.Appeared, obs.Disappeared, obs.Changed = d.appeared, d.disappeared, d.changed
		if pathChanged {
			obs.PathChanged = true
			obs.PrevURLPath = o.prev.URLPath
		}
		if framesChanged {
			obs.Frames = snap.Frames
		}
	}
	obs.Seq = len(o.ev.Observations) + 1
	obs.ID = obsID(obs.Seq)
	obs.AtMS = max(o.cfg.clock().Sub(o.start).Milliseconds(), 0)
	if n := len(o.ev.Observations); n > 0 && obs.AtMS < o.ev.Observations[n-1].AtMS {
		obs.AtMS = o.ev.Observations[n-1].AtMS
	}
	obs.Origin, obs.URLPath, obs.OutOfScope = snap.Origin, snap.URLPath, snap.OutOfScope
	obs.TotalControls, obs.Truncated = snap.TotalControls, snap.Truncated
	b, err := json.Marshal(&obs)
	if err != nil || o.size+len(b)+1 > o.cfg.maxEvidenceBytes {
		o.ev.EndReason = EndMaxEvidence
		return false
	}
	o.size += len(b) + 1
	if obs.Origin != "" {
		o.origins[obs.Origin] = true
	}
	for _, f := range obs.Frames {
		for _, og := range f.Origins {
			o.origins[og] = true
		}
	}
	o.ev.Observations = append(o.ev.Observations, obs)
	o.prev = snap
	if o.cfg.hooks.ObservationRecorded != nil {
		o.cfg.hooks.ObservationRecorded(obs)
	}
	return true
}

// guided polls until the demonstration ends.
func (o *observer) guided(ctx context.Context) error {
	next := time.Now()
	for taken := 0; taken < o.cfg.maxSnapshots; taken++ {
		stop, err := o.sleepUntil(ctx, next, true)
		if err != nil {
			return err
		}
		if stop {
			o.ev.EndReason = EndStopped
			return nil
		}
		if o.expired() {
			o.ev.EndReason = EndMaxDuration
			return nil
		}
		next = time.Now().Add(o.cfg.minInterval)
		snap, err := o.take(ctx)
		if err != nil {
			return err
		}
		if snap == nil {
			continue
		}
		if !o.record(snap, KindChange, nil) {
			return nil
		}
	}
	o.ev.EndReason = EndMaxSnapshots
	return nil
}

// current returns a fresh snapshot, retrying transient failures at the
// min interval.
// errExpired ends exploration when the session bound elapses while the
// page cannot be observed.
var errExpired = errors.New("session bound elapsed")

func (o *observer) current(ctx context.Context) (*Snapshot, error) {
	for {
		snap, err := o.take(ctx)
		if err != nil || snap != nil {
			return snap, err
		}
		if o.expired() {
			return nil, errExpired
		}
		if _, err := o.sleepUntil(ctx, time.Now().Add(o.cfg.minInterval), false); err != nil {
			return nil, err
		}
	}
}

// explore runs the explorer's steps.
func (o *observer) explore(ctx context.Context) error {
	o.ev.EndReason = ""
	if o.prev == nil {
		snap, err := o.current(ctx)
		if errors.Is(err, errExpired) {
			o.ev.EndReason = EndMaxDuration
			return nil
		}
		if err != nil {
			return err
		}
		if !o.record(snap, KindBaseline, nil) {
			return nil
		}
	}
	actor, canAct := o.page.(Actor)
	policy := Policy{AllowedOrigins: o.cfg.allowed, ConsequentialWords: o.cfg.words, MaxStringLen: o.cfg.maxStringLen}
	for o.ev.Steps < o.cfg.maxSteps {
		if err := ctx.Err(); err != nil {
			return err
		}
		if o.expired() {
			o.ev.EndReason = EndMaxDuration
			return nil
		}
		obs := Observation{
			Mode:           o.cfg.mode,
			Snapshot:       cloneSnapshot(o.prev),
			Steps:          o.ev.Steps,
			StepsLeft:      o.cfg.maxSteps - o.ev.Steps,
			Refusal:        o.lastRef,
			AllowedOrigins: slices.Clone(o.cfg.allowed),
		}
		if n := len(o.ev.Observations); n > 0 {
			obs.Last = cloneObservation(&o.ev.Observations[n-1])
		}
		if obs.Refusal != nil {
			r := cloneRefusal(*obs.Refusal)
			obs.Refusal = &r
		}
		step, err := o.cfg.explorer.Next(ctx, obs)
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			return fmt.Errorf("%w: %w", ErrExplorer, err)
		}
		o.ev.Steps++
		o.lastRef = nil
		if step.Kind == StepDone {
			o.ev.EndReason = EndExplorerDone
			return nil
		}
		if err := CheckStep(o.prev, step, policy); err != nil {
			var re *RefusalError
			if errors.As(err, &re) {
				if o.refuse(re.Refusal) {
					return nil
				}
				continue
			}
			return err
		}
		rec := stepRecord(step, o.cfg.maxStringLen)
		if step.Kind == StepAct {
			if !canAct {
				if o.refuse(Refusal{Reason: ReasonNoActor, Detail: "the page does not implement Actor", Step: rec}) {
					return nil
				}
				continue
			}
			o.cfg.logger.Debug("discovery: acting", "act", step.Act, "effect", step.Effect)
			actx, cancel := context.WithTimeout(ctx, ActTimeout)
			err := actor.Act(actx, Action{Kind: step.Act, Frame: slices.Clone(step.Frame), Locator: step.Locator, Value: step.Value})
			cancel()
			if err != nil {
				if cerr := ctx.Err(); cerr != nil {
					return cerr
				}
				// The error text may hold the value; only the fact is kept.
				if o.refuse(Refusal{Reason: ReasonActFailed, Detail: "the page could not perform the action", Step: rec}) {
					return nil
				}
				continue
			}
		}
		if _, err := o.sleepUntil(ctx, time.Now().Add(o.cfg.minInterval), false); err != nil {
			return err
		}
		snap, err := o.current(ctx)
		if errors.Is(err, errExpired) {
			o.ev.EndReason = EndMaxDuration
			return nil
		}
		if err != nil {
			return err
		}
		if !o.record(snap, KindExplore, &rec) {
			return nil
		}
		if step.Kind == StepAct && snap.OutOfScope {
			o.ev.EndReason = EndLeftOrigins
			return nil
		}
	}
	o.ev.EndReason = EndMaxSteps
	return nil
}

// refuse records a refusal; it reports whether the refusal budget is
// spent (which ends exploration).
func (o *observer) refuse(r Refusal) bool {
	if n := len(o.ev.Observations); n > 0 {
		r.After = o.ev.Observations[n-1].ID
	}
	b, err := json.Marshal(&r)
	if err != nil || o.size+len(b)+1 > o.cfg.maxEvidenceBytes {
		o.ev.EndReason = EndMaxEvidence
		return true
	}
	o.size += len(b) + 1
	o.ev.Refusals = append(o.ev.Refusals, r)
	o.lastRef = &r
	o.refused++
	o.cfg.logger.Info("discovery: step refused", "reason", r.Reason)
	if o.cfg.hooks.StepRefused != nil {
		o.cfg.hooks.StepRefused(r)
	}
	if o.refused >= o.cfg.maxRefusals {
		o.ev.EndReason = EndMaxRefusals
		return true
	}
	return false
}

// The explorer is a host model: it gets copies, so nothing it does to them
// reaches the evidence.

func cloneSnapshot(s *Snapshot) *Snapshot {
	if s == nil {
		return nil
	}
	out := *s
	out.Frames = make([]FrameRecord, len(s.Frames))
	for i, f := range s.Frames {
		out.Frames[i] = FrameRecord{Path: slices.Clone(f.Path), Origins: slices.Clone(f.Origins)}
	}
	out.Controls = make([]Control, len(s.Controls))
	for i, c := range s.Controls {
		out.Controls[i] = cloneControl(c)
	}
	return &out
}

func cloneObservation(o *ObservationStep) *ObservationStep {
	b, err := json.Marshal(o)
	if err != nil {
		return nil
	}
	var out ObservationStep
	if json.Unmarshal(b, &out) != nil {
		return nil
	}
	return &out
}

func cloneRefusal(r Refusal) Refusal {
	r.Step.Frame = slices.Clone(r.Step.Frame)
	if r.Step.Locator != nil {
		c := *r.Step.Locator
		r.Step.Locator = &c
	}
	return r
}
